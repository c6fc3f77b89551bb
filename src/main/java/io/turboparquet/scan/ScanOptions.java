package io.turboparquet.scan;

import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.io.BufferSource;
import io.turboparquet.io.BufferedDirectBufInputStream;
import io.turboparquet.io.ChunkInput;
import io.turboparquet.io.DirectBufInputStream;
import java.io.IOException;
import org.apache.hadoop.fs.FSDataInputStream;

/**
 * How a scan reads and decodes: immutable, validated, built once at the boundary (CLI flags, or
 * Drill session options and format config) and never changed by the core.
 *
 * @param scanThreads threads of the I/O pool where this process owns it (CLI, tests)
 * @param decodeThreads threads of the decode pool where this process owns it
 * @param asyncPageReads read pages ahead on the scan pool (else on the decoding thread)
 * @param bufferedReads read through a large buffer (else one read per page)
 * @param bufferSize bytes of the read buffer of one column chunk (before the memory budget)
 * @param readAheadHint tell the file system the chunk is read sequentially
 * @param queueDepth pages read ahead per column chunk
 * @param parallelDecode decode the columns of a batch in parallel on the decode pool
 * @param batchSize rows per batch
 * @param memoryBudget bytes of read buffers (half) and read-ahead pages (half) one row group's scan
 *     may hold; each column may exceed it by the one page it is decoding
 * @param verifyChecksums check page CRC32s where the writer stored them
 * @param coalescedReads read each row group's projected column chunks up front, as a few large
 *     ranges issued in parallel, when they fit the memory budget (else chunk by chunk through
 *     {@code bufferedReads} streams)
 * @param coalesceGap largest gap, in bytes, between two projected chunks that one read spans (the
 *     gap's bytes are read and dropped); 0 reads no byte outside the projection
 * @param coalesceMaxSize largest read, in bytes: ranges are merged up to it and larger chunks are
 *     read as parts of at most this size, in parallel
 * @param prefetchRowGroups with coalesced async reads, start reading the next row groups (four
 *     ahead, more while those hold under 32 MiB, at most 16; {@link RowGroupPipeline}) while the
 *     current one decodes, as long as they fit the memory budget together
 * @param decodeAhead with parallel decode, a consumer that calls {@link RowGroupScanner#decodeAhead}
 *     once it is done with a batch gets the next one decoded on the decode pool while it works on
 *     other things (one batch ahead per row group)
 * @param maxPageBytes the largest uncompressed page a scan reads: a page header that claims more
 *     is refused before anything is allocated for it (by default what one buffer can hold; a
 *     shared cluster may want less)
 * @param maxPageEntries the most level entries (values and nulls) one data page may hold: a page
 *     header that claims more is refused before its levels are decoded (levels are decoded per
 *     page, 1 byte an entry for each of repetition and definition levels)
 * @param batchBytes most bytes of values one column holds in one batch (data bytes of a variable-width
 *     column, value slots of a fixed-width one): a batch ends early, at a record boundary, when the
 *     next records would pass it, and every column of the batch then holds that many rows; a single
 *     record larger than this still makes a batch of one record, up to the hard 2 GiB cap
 * @param pageIndexSkipping when the scan has a filter, read only the pages the page index says may
 *     hold matching rows (and return only their rows); off: the page index is not used
 * @param dictionaryPruning when the scan has a filter, skip a row group whose filter column is
 *     dictionary-encoded in every data page and whose dictionary holds none of the values an equality
 *     ({@code =}, {@code IN}) asks for (see {@link RowGroupPruning})
 * @param bloomFilterPruning when the scan has a filter, skip a row group whose filter column's bloom
 *     filter holds none of the values an equality asks for
 * @param lateMaterialization when the scan has a filter whose columns are all projected (and flat),
 *     decode those columns first and the others only for batches with a row that may match
 *     ({@link BatchFilter}); batches without one are not returned
 */
public record ScanOptions(
    int scanThreads,
    int decodeThreads,
    boolean asyncPageReads,
    boolean bufferedReads,
    int bufferSize,
    boolean readAheadHint,
    int queueDepth,
    boolean parallelDecode,
    int batchSize,
    long memoryBudget,
    boolean verifyChecksums,
    boolean coalescedReads,
    long coalesceGap,
    int coalesceMaxSize,
    boolean prefetchRowGroups,
    boolean decodeAhead,
    int maxPageBytes,
    int maxPageEntries,
    long batchBytes,
    boolean pageIndexSkipping,
    boolean dictionaryPruning,
    boolean bloomFilterPruning,
    boolean lateMaterialization) {

  /** The smallest read buffer the memory budget shrinks a column's buffer to. */
  public static final int MIN_BUFFER_SIZE = 4 * 1024;
  /** The largest {@code batchBytes}: 2 GiB less 1 MiB of room for decoders' reservations. */
  public static final long MAX_BATCH_BYTES = (1L << 31) - (1L << 20);

  public ScanOptions {
    require(scanThreads >= 1, "scanThreads must be at least 1: " + scanThreads);
    require(decodeThreads >= 1, "decodeThreads must be at least 1: " + decodeThreads);
    require(bufferSize >= 1, "bufferSize must be positive: " + bufferSize);
    require(queueDepth >= 1, "queueDepth must be at least 1: " + queueDepth);
    require(batchSize >= 1, "batchSize must be at least 1: " + batchSize);
    require(memoryBudget >= MIN_BUFFER_SIZE, "memoryBudget must be at least " + MIN_BUFFER_SIZE + ": " + memoryBudget);
    require(coalesceGap >= 0, "coalesceGap must not be negative: " + coalesceGap);
    require(coalesceMaxSize >= MIN_BUFFER_SIZE, "coalesceMaxSize must be at least " + MIN_BUFFER_SIZE + ": "
        + coalesceMaxSize);
    require(maxPageBytes >= MIN_BUFFER_SIZE, "maxPageBytes must be at least " + MIN_BUFFER_SIZE + ": " + maxPageBytes);
    require(maxPageEntries >= 1, "maxPageEntries must be at least 1: " + maxPageEntries);
    require(batchBytes >= 1 && batchBytes <= MAX_BATCH_BYTES, "batchBytes must be between 1 and " + MAX_BATCH_BYTES
        + ": " + batchBytes);
  }

  private static void require(boolean condition, String message) {
    if (!condition) {
      throw new IllegalArgumentException(message);
    }
  }

  public static ScanOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder()
        .scanThreads(scanThreads).decodeThreads(decodeThreads).asyncPageReads(asyncPageReads)
        .bufferedReads(bufferedReads).bufferSize(bufferSize).readAheadHint(readAheadHint).queueDepth(queueDepth)
        .parallelDecode(parallelDecode).batchSize(batchSize).memoryBudget(memoryBudget)
        .verifyChecksums(verifyChecksums).coalescedReads(coalescedReads).coalesceGap(coalesceGap)
        .coalesceMaxSize(coalesceMaxSize).prefetchRowGroups(prefetchRowGroups).decodeAhead(decodeAhead)
        .maxPageBytes(maxPageBytes).maxPageEntries(maxPageEntries)
        .batchBytes(batchBytes).pageIndexSkipping(pageIndexSkipping).dictionaryPruning(dictionaryPruning)
        .bloomFilterPruning(bloomFilterPruning).lateMaterialization(lateMaterialization);
  }

  /**
   * The read buffer one column chunk gets: the configured size, shrunk so that the buffers of
   * {@code columns} chunks fit half the memory budget, counting for each column the
   * {@code queueDepth} older buffers that queued pages (slices) may keep alive; the budget never
   * shrinks it below {@link #MIN_BUFFER_SIZE} (a smaller configured size is kept). Pages larger
   * than the buffer are read into buffers of their own size.
   */
  public int bufferSizeFor(int columns) {
    long share = memoryBudget / 2 / ((long) Math.max(1, columns) * (queueDepth + 1));
    return (int) Math.min(bufferSize, Math.max(MIN_BUFFER_SIZE, share));
  }

  /**
   * The stream over one column chunk these options ask for: buffered through a read buffer of
   * {@code bufferSize} bytes, or one exact read per page.
   */
  public ChunkInput openChunk(FSDataInputStream in, FileMetadata meta, ColumnChunkMeta chunk, int bufferSize,
      BufferSource buffers) throws IOException {
    return bufferedReads
        ? new BufferedDirectBufInputStream(in, meta.file(), meta.fileLength(), chunk.startOffset(),
            chunk.totalCompressedSize(), bufferSize, buffers)
        : new DirectBufInputStream(in, meta.file(), meta.fileLength(), chunk.startOffset(),
            chunk.totalCompressedSize(), buffers);
  }

  /** Bytes of pages that read-ahead may hold queued, over all columns: the other half of the budget. */
  public long prefetchBudget() {
    return memoryBudget / 2;
  }

  /** Builder with the documented defaults. */
  public static final class Builder {
    static final boolean DEFAULT_COALESCED_READS = true;
    static final long DEFAULT_COALESCE_GAP = 0;
    static final int DEFAULT_COALESCE_MAX_SIZE = 1 << 20;
    static final boolean DEFAULT_PREFETCH_ROW_GROUPS = true;
    static final boolean DEFAULT_DECODE_AHEAD = false;
    static final boolean DEFAULT_PAGE_INDEX_SKIPPING = true;
    static final boolean DEFAULT_DICTIONARY_PRUNING = true;
    static final boolean DEFAULT_BLOOM_FILTER_PRUNING = true;
    static final boolean DEFAULT_LATE_MATERIALIZATION = true;
    /** What one buffer can hold: the format's own limit. */
    static final int DEFAULT_MAX_PAGE_BYTES = Integer.MAX_VALUE - 16;
    /** 2^26: old writers made one all-null page of a whole row group, up to 64 Mi rows (pyarrow's old default). */
    static final int DEFAULT_MAX_PAGE_ENTRIES = 1 << 26;
    static final long DEFAULT_BATCH_BYTES = 256L << 20;

    private int scanThreads = 2 * Runtime.getRuntime().availableProcessors();
    private int decodeThreads = 2 * Runtime.getRuntime().availableProcessors();
    private boolean asyncPageReads = true;
    private boolean bufferedReads = true;
    private int bufferSize = 1 << 20;
    private boolean readAheadHint = false;
    private int queueDepth = 2;
    private boolean parallelDecode = true;
    private int batchSize = 32_768;
    private long memoryBudget = 256L << 20;
    private boolean verifyChecksums = false;
    private boolean coalescedReads = DEFAULT_COALESCED_READS;
    private long coalesceGap = DEFAULT_COALESCE_GAP;
    private int coalesceMaxSize = DEFAULT_COALESCE_MAX_SIZE;
    private boolean prefetchRowGroups = DEFAULT_PREFETCH_ROW_GROUPS;
    private boolean decodeAhead = DEFAULT_DECODE_AHEAD;
    private boolean pageIndexSkipping = DEFAULT_PAGE_INDEX_SKIPPING;
    private boolean dictionaryPruning = DEFAULT_DICTIONARY_PRUNING;
    private boolean bloomFilterPruning = DEFAULT_BLOOM_FILTER_PRUNING;
    private boolean lateMaterialization = DEFAULT_LATE_MATERIALIZATION;
    private int maxPageBytes = DEFAULT_MAX_PAGE_BYTES;
    private int maxPageEntries = DEFAULT_MAX_PAGE_ENTRIES;
    private long batchBytes = DEFAULT_BATCH_BYTES;

    public Builder scanThreads(int v) {
      scanThreads = v;
      return this;
    }

    public Builder decodeThreads(int v) {
      decodeThreads = v;
      return this;
    }

    public Builder asyncPageReads(boolean v) {
      asyncPageReads = v;
      return this;
    }

    public Builder bufferedReads(boolean v) {
      bufferedReads = v;
      return this;
    }

    public Builder bufferSize(int v) {
      bufferSize = v;
      return this;
    }

    public Builder readAheadHint(boolean v) {
      readAheadHint = v;
      return this;
    }

    public Builder queueDepth(int v) {
      queueDepth = v;
      return this;
    }

    public Builder parallelDecode(boolean v) {
      parallelDecode = v;
      return this;
    }

    public Builder batchSize(int v) {
      batchSize = v;
      return this;
    }

    public Builder memoryBudget(long v) {
      memoryBudget = v;
      return this;
    }

    public Builder verifyChecksums(boolean v) {
      verifyChecksums = v;
      return this;
    }

    public Builder coalescedReads(boolean v) {
      coalescedReads = v;
      return this;
    }

    public Builder coalesceGap(long v) {
      coalesceGap = v;
      return this;
    }

    public Builder coalesceMaxSize(int v) {
      coalesceMaxSize = v;
      return this;
    }

    public Builder prefetchRowGroups(boolean v) {
      prefetchRowGroups = v;
      return this;
    }

    public Builder decodeAhead(boolean v) {
      decodeAhead = v;
      return this;
    }

    public Builder maxPageBytes(int v) {
      maxPageBytes = v;
      return this;
    }

    public Builder maxPageEntries(int v) {
      maxPageEntries = v;
      return this;
    }

    public Builder batchBytes(long v) {
      batchBytes = v;
      return this;
    }

    public Builder pageIndexSkipping(boolean v) {
      pageIndexSkipping = v;
      return this;
    }

    public Builder dictionaryPruning(boolean v) {
      dictionaryPruning = v;
      return this;
    }

    public Builder bloomFilterPruning(boolean v) {
      bloomFilterPruning = v;
      return this;
    }

    public Builder lateMaterialization(boolean v) {
      lateMaterialization = v;
      return this;
    }

    public ScanOptions build() {
      return new ScanOptions(scanThreads, decodeThreads, asyncPageReads, bufferedReads, bufferSize, readAheadHint,
          queueDepth, parallelDecode, batchSize, memoryBudget, verifyChecksums, coalescedReads, coalesceGap,
          coalesceMaxSize, prefetchRowGroups, decodeAhead, maxPageBytes, maxPageEntries, batchBytes,
          pageIndexSkipping, dictionaryPruning, bloomFilterPruning, lateMaterialization);
    }
  }
}
