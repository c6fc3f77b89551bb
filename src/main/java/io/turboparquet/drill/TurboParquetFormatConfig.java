package io.turboparquet.drill;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonTypeName;
import java.util.Objects;
import org.apache.drill.exec.store.parquet.ParquetFormatConfig;

/**
 * The {@code turbo-parquet} format of a file system storage plugin, with the knobs Drill's session
 * options do not cover. Every property is optional (null means the documented default), set per
 * storage plugin in its JSON and overridable per query through Drill's table function, e.g.
 * {@code table(dfs.`/data/t`(type => 'turbo-parquet', memoryBudget => 67108864))}. Drill builds
 * the table function's parameters from this class's fields, so field names are the property names.
 *
 * <p>It is a {@link ParquetFormatConfig}, with all of that config's properties (corrupt-date
 * correction, signed string statistics, the writer's settings): Drill's metadata features (metadata
 * cache, {@code count(*)} from its summary, ANALYZE, table statistics) serve formats whose config is
 * one, and a {@code "parquet"} entry changed only in its type keeps meaning what it meant.
 */
@JsonTypeName(TurboParquetFormatConfig.NAME)
@JsonInclude(JsonInclude.Include.NON_NULL)
public final class TurboParquetFormatConfig extends ParquetFormatConfig {
  public static final String NAME = "turbo-parquet";

  /** Bytes of read buffers and read-ahead pages one row group's scan may hold (default 256 MiB). */
  private final Long memoryBudget;
  /**
   * Decode the columns of a batch in parallel. Null follows {@code store.parquet.reader.columnreader.async}
   * where a user set it (system or session), and is on otherwise.
   */
  private final Boolean parallelDecode;
  /** Check page CRC32s where the writer stored them (default false). */
  private final Boolean verifyChecksums;
  /**
   * Read a row group's projected chunks as a few large ranges in parallel (default true); off, each
   * chunk is read through its own stream as Drill's bufferedread / buffersize options say.
   */
  private final Boolean coalescedReads;
  /**
   * With parallel decode, decode each row group's next batch on the decode pool while Drill's
   * operators work on the current one (default true); costs one more batch of memory per scan.
   */
  private final Boolean decodeAhead;
  /**
   * With coalesced reads, read the next row groups while the current one decodes. Null: on for
   * files on a remote store (S3, HDFS), whose latency it hides, and off for local files, where it
   * only holds memory (measured: no faster, three to four times the memory of a scan).
   */
  private final Boolean prefetchRowGroups;
  /**
   * The largest uncompressed page a scan reads; a page header claiming more fails the query before
   * anything is allocated for it (default 256 MiB; at most what one buffer can hold, 2 GiB - 16).
   */
  private final Integer maxPageBytes;
  /** The most level entries one data page may hold (default 2^26); more fails the query before decoding. */
  private final Integer maxPageEntries;
  /**
   * Most bytes of values one column holds in one batch; a batch ends early, at a record boundary,
   * before a column passes it. Null follows {@code store.parquet.flat.batch.memory_size} (or, when
   * that is 0, Drill's operator output batch size, 16 MiB).
   */
  private final Long batchBytes;
  /**
   * Read only the pages whose column-index statistics may match the filter Drill pushed into the
   * scan (default true); the rows returned are then a superset of the matching ones, which Drill's
   * filter above the scan narrows as always.
   */
  private final Boolean pageIndexSkipping;
  /**
   * Skip a row group when the filter's equalities (=, IN) match no entry of a column's dictionary,
   * for chunks whose data pages are all dictionary-encoded (default true).
   */
  private final Boolean dictionaryPruning;
  /** Skip a row group when a column's bloom filter rules out every value of an equality (default true). */
  private final Boolean bloomFilterPruning;
  /**
   * With such a filter, decode the filter's columns first and the others only for batches with a
   * row that may match (default true).
   */
  private final Boolean lateMaterialization;
  /**
   * Type every column as Drill's built-in reader does: UINT_8/16/32 as UINT4, UINT_64 as UINT8
   * (types most of Drill's functions do not take), FLOAT16 as VARBINARY. Default false: INT, BIGINT,
   * VARDECIMAL(20,0) (every value kept) and FLOAT4.
   */
  private final Boolean builtInTypes;
  /**
   * Read VARIANT columns as VARBINARY holding the Variant binary (metadata then value) instead of
   * VARCHAR holding its JSON (default false).
   */
  private final Boolean variantAsBinary;

  public TurboParquetFormatConfig() {
    this(null, false, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
        null, null, null, null, null);
  }

  @JsonCreator
  public TurboParquetFormatConfig(
      @JsonProperty("autoCorrectCorruptDates") Boolean autoCorrectCorruptDates,
      @JsonProperty("enableStringsSignedMinMax") boolean enableStringsSignedMinMax,
      @JsonProperty("blockSize") Integer blockSize,
      @JsonProperty("pageSize") Integer pageSize,
      @JsonProperty("useSingleFSBlock") Boolean useSingleFSBlock,
      @JsonProperty("writerCompressionType") String writerCompressionType,
      @JsonProperty("writerLogicalTypeForDecimals") String writerLogicalTypeForDecimals,
      @JsonProperty("writerUsePrimitivesForDecimals") Boolean writerUsePrimitivesForDecimals,
      @JsonProperty("writerFormatVersion") String writerFormatVersion,
      @JsonProperty("memoryBudget") Long memoryBudget,
      @JsonProperty("parallelDecode") Boolean parallelDecode,
      @JsonProperty("verifyChecksums") Boolean verifyChecksums,
      @JsonProperty("coalescedReads") Boolean coalescedReads,
      @JsonProperty("decodeAhead") Boolean decodeAhead,
      @JsonProperty("prefetchRowGroups") Boolean prefetchRowGroups,
      @JsonProperty("maxPageBytes") Integer maxPageBytes,
      @JsonProperty("maxPageEntries") Integer maxPageEntries,
      @JsonProperty("batchBytes") Long batchBytes,
      @JsonProperty("pageIndexSkipping") Boolean pageIndexSkipping,
      @JsonProperty("dictionaryPruning") Boolean dictionaryPruning,
      @JsonProperty("bloomFilterPruning") Boolean bloomFilterPruning,
      @JsonProperty("lateMaterialization") Boolean lateMaterialization,
      @JsonProperty("builtInTypes") Boolean builtInTypes,
      @JsonProperty("variantAsBinary") Boolean variantAsBinary) {
    super(autoCorrectCorruptDates, enableStringsSignedMinMax, blockSize, pageSize, useSingleFSBlock,
        writerCompressionType, writerLogicalTypeForDecimals, writerUsePrimitivesForDecimals, writerFormatVersion);
    this.memoryBudget = memoryBudget;
    this.parallelDecode = parallelDecode;
    this.verifyChecksums = verifyChecksums;
    this.coalescedReads = coalescedReads;
    this.decodeAhead = decodeAhead;
    this.prefetchRowGroups = prefetchRowGroups;
    this.maxPageBytes = maxPageBytes;
    this.maxPageEntries = maxPageEntries;
    this.batchBytes = batchBytes;
    this.pageIndexSkipping = pageIndexSkipping;
    this.dictionaryPruning = dictionaryPruning;
    this.bloomFilterPruning = bloomFilterPruning;
    this.lateMaterialization = lateMaterialization;
    this.builtInTypes = builtInTypes;
    this.variantAsBinary = variantAsBinary;
  }

  @JsonProperty
  public Long getMemoryBudget() {
    return memoryBudget;
  }

  @JsonProperty
  public Boolean getParallelDecode() {
    return parallelDecode;
  }

  @JsonProperty
  public Boolean getVerifyChecksums() {
    return verifyChecksums;
  }

  @JsonProperty
  public Boolean getCoalescedReads() {
    return coalescedReads;
  }

  @JsonProperty
  public Boolean getDecodeAhead() {
    return decodeAhead;
  }

  @JsonProperty
  public Boolean getPrefetchRowGroups() {
    return prefetchRowGroups;
  }

  @JsonProperty
  public Integer getMaxPageBytes() {
    return maxPageBytes;
  }

  @JsonProperty
  public Integer getMaxPageEntries() {
    return maxPageEntries;
  }

  @JsonProperty
  public Long getBatchBytes() {
    return batchBytes;
  }

  @JsonProperty
  public Boolean getPageIndexSkipping() {
    return pageIndexSkipping;
  }

  @JsonProperty
  public Boolean getDictionaryPruning() {
    return dictionaryPruning;
  }

  @JsonProperty
  public Boolean getBloomFilterPruning() {
    return bloomFilterPruning;
  }

  @JsonProperty
  public Boolean getLateMaterialization() {
    return lateMaterialization;
  }

  @JsonProperty
  public Boolean getBuiltInTypes() {
    return builtInTypes;
  }

  @JsonProperty
  public Boolean getVariantAsBinary() {
    return variantAsBinary;
  }

  /** Whether VARIANT columns are read as VARBINARY Variant binaries rather than VARCHAR JSON (default false). */
  boolean readsVariantAsBinary() {
    return Boolean.TRUE.equals(variantAsBinary);
  }

  /** Whether columns are typed as the built-in reader types them (default false). */
  boolean readsBuiltInTypes() {
    return Boolean.TRUE.equals(builtInTypes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TurboParquetFormatConfig that
        && super.equals(that)
        && Objects.equals(memoryBudget, that.memoryBudget)
        && Objects.equals(parallelDecode, that.parallelDecode)
        && Objects.equals(verifyChecksums, that.verifyChecksums)
        && Objects.equals(coalescedReads, that.coalescedReads)
        && Objects.equals(decodeAhead, that.decodeAhead)
        && Objects.equals(prefetchRowGroups, that.prefetchRowGroups)
        && Objects.equals(maxPageBytes, that.maxPageBytes)
        && Objects.equals(maxPageEntries, that.maxPageEntries)
        && Objects.equals(batchBytes, that.batchBytes)
        && Objects.equals(pageIndexSkipping, that.pageIndexSkipping)
        && Objects.equals(dictionaryPruning, that.dictionaryPruning)
        && Objects.equals(bloomFilterPruning, that.bloomFilterPruning)
        && Objects.equals(lateMaterialization, that.lateMaterialization)
        && Objects.equals(builtInTypes, that.builtInTypes)
        && Objects.equals(variantAsBinary, that.variantAsBinary);
  }

  @Override
  public int hashCode() {
    return Objects.hash(NAME, super.hashCode(), memoryBudget, parallelDecode, verifyChecksums, coalescedReads, decodeAhead,
        prefetchRowGroups, maxPageBytes, maxPageEntries, batchBytes, pageIndexSkipping, dictionaryPruning, bloomFilterPruning, lateMaterialization,
        builtInTypes, variantAsBinary);
  }

  @Override
  public String toString() {
    return "TurboParquetFormatConfig[" + super.toString() + ", memoryBudget=" + memoryBudget
        + ", parallelDecode=" + parallelDecode
        + ", verifyChecksums=" + verifyChecksums + ", coalescedReads=" + coalescedReads
        + ", decodeAhead=" + decodeAhead + ", prefetchRowGroups=" + prefetchRowGroups
        + ", maxPageBytes=" + maxPageBytes
        + ", maxPageEntries=" + maxPageEntries + ", batchBytes=" + batchBytes
        + ", pageIndexSkipping=" + pageIndexSkipping + ", dictionaryPruning=" + dictionaryPruning
        + ", bloomFilterPruning=" + bloomFilterPruning + ", lateMaterialization=" + lateMaterialization
        + ", builtInTypes=" + builtInTypes + ", variantAsBinary=" + variantAsBinary + "]";
  }
}
