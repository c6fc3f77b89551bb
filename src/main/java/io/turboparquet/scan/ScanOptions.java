package io.turboparquet.scan;

import java.net.URI;

/**
 * How a scan reads and decodes: settings only, immutable, validated, built once at the boundary (CLI
 * flags, or Drill session options and format config) and never changed by the core. Grouped by
 * concern; each group validates its own settings. Build with {@link #builder()} (flat setters).
 *
 * @param threads pool sizes where this process owns the pools
 * @param io how column chunks are read, and the memory that reading may hold
 * @param decode how pages become batches
 * @param pruning what a filter lets the scan skip
 * @param limits bounds on what a (hostile) file can make a scan allocate
 */
public record ScanOptions(Threads threads, Io io, Decode decode, Pruning pruning, Limits limits) {

  /** The smallest read buffer the memory budget shrinks a column's buffer to. */
  public static final int MIN_BUFFER_SIZE = 4 * 1024;
  /** The largest {@code batchBytes}: 2 GiB less 1 MiB of room for decoders' reservations. */
  public static final long MAX_BATCH_BYTES = (1L << 31) - (1L << 20);
  /** Rows per batch unless set. */
  public static final int DEFAULT_BATCH_SIZE = 32_768;

  public ScanOptions {
    require(threads != null && io != null && decode != null && pruning != null && limits != null,
        "every group of options must be set");
  }

  /**
   * Pool sizes where this process owns the pools (CLI, tests); inside Drill the drillbit's are used.
   *
   * @param scan threads of the I/O pool
   * @param decode threads of the decode pool
   */
  public record Threads(int scan, int decode) {
    public Threads {
      require(scan >= 1, "scanThreads must be at least 1: " + scan);
      require(decode >= 1, "decodeThreads must be at least 1: " + decode);
    }
  }

  /**
   * How column chunks are read.
   *
   * @param asyncPageReads read pages ahead on the scan pool (else on the decoding thread)
   * @param bufferedReads read through a large buffer (else one read per page)
   * @param bufferSize bytes of the read buffer of one column chunk (before the memory budget)
   * @param readAheadHint tell the file system the chunk is read sequentially
   * @param queueDepth pages read ahead per column chunk
   * @param memoryBudget bytes of read buffers (half) and read-ahead pages (half) one row group's scan
   *     may hold; each column may exceed it by the one page it is decoding
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
   */
  public record Io(
      boolean asyncPageReads,
      boolean bufferedReads,
      int bufferSize,
      boolean readAheadHint,
      int queueDepth,
      long memoryBudget,
      boolean coalescedReads,
      long coalesceGap,
      int coalesceMaxSize,
      boolean prefetchRowGroups) {
    public Io {
      require(bufferSize >= 1, "bufferSize must be positive: " + bufferSize);
      require(queueDepth >= 1, "queueDepth must be at least 1: " + queueDepth);
      require(memoryBudget >= MIN_BUFFER_SIZE, "memoryBudget must be at least " + MIN_BUFFER_SIZE + ": "
          + memoryBudget);
      require(coalesceGap >= 0, "coalesceGap must not be negative: " + coalesceGap);
      require(coalesceMaxSize >= MIN_BUFFER_SIZE, "coalesceMaxSize must be at least " + MIN_BUFFER_SIZE + ": "
          + coalesceMaxSize);
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

    /** Bytes of pages that read-ahead may hold queued, over all columns: the other half of the budget. */
    public long prefetchBudget() {
      return memoryBudget / 2;
    }

    /**
     * Whether {@code store} (a file system's URI) is local files. Reading row groups ahead hides a
     * remote store's latency; on local files it only holds memory (measured on a local disk, page
     * cache dropped or not: no faster, three to four times a scan's peak memory), so the engines
     * prefetch only from other stores unless told otherwise.
     */
    public static boolean isLocal(URI store) {
      return "file".equalsIgnoreCase(store.getScheme());
    }
  }

  /**
   * How pages become batches.
   *
   * @param batchSize rows per batch
   * @param batchBytes most bytes of values one column holds in one batch (data bytes of a variable-width
   *     column, value slots of a fixed-width one): a batch ends early, at a record boundary, when the
   *     next records would pass it, and every column of the batch then holds that many rows; a single
   *     record larger than this still makes a batch of one record, up to the hard 2 GiB cap
   * @param parallelDecode decode the columns of a batch in parallel on the decode pool
   * @param decodeAhead with parallel decode, a consumer that calls {@link RowGroupScanner#decodeAhead}
   *     once it is done with a batch gets the next one decoded on the decode pool while it works on
   *     other things (one batch ahead per row group)
   * @param verifyChecksums check page CRC32s where the writer stored them
   */
  public record Decode(int batchSize, long batchBytes, boolean parallelDecode, boolean decodeAhead,
      boolean verifyChecksums) {
    public Decode {
      require(batchSize >= 1, "batchSize must be at least 1: " + batchSize);
      require(batchBytes >= 1 && batchBytes <= MAX_BATCH_BYTES, "batchBytes must be between 1 and "
          + MAX_BATCH_BYTES + ": " + batchBytes);
    }
  }

  /**
   * What a filter given to the scan lets it skip; without a filter none applies. Each skips only rows
   * that cannot match, so turning one off changes the work, not which rows pass the filter.
   *
   * @param pageIndexSkipping read only the pages the page index says may hold matching rows (and
   *     return only their rows); off: the page index is not used
   * @param dictionaryPruning skip a row group whose filter column is dictionary-encoded in every data
   *     page and whose dictionary holds none of the values an equality ({@code =}, {@code IN}) asks
   *     for (see {@link RowGroupPruning})
   * @param bloomFilterPruning skip a row group whose filter column's bloom filter holds none of the
   *     values an equality asks for
   * @param lateMaterialization when the filter's columns are all projected (and flat), decode those
   *     columns first and the others only for batches with a row that may match ({@link BatchFilter});
   *     batches without one are not returned
   */
  public record Pruning(boolean pageIndexSkipping, boolean dictionaryPruning, boolean bloomFilterPruning,
      boolean lateMaterialization) {
  }

  /**
   * Bounds on what one file's claims can make a scan allocate, checked before allocating.
   *
   * @param maxPageBytes the largest uncompressed page a scan reads: a page header that claims more
   *     is refused before anything is allocated for it (by default what one buffer can hold; a
   *     shared cluster may want less)
   * @param maxPageEntries the most level entries (values and nulls) one data page may hold: a page
   *     header that claims more is refused before its levels are decoded (levels are decoded per
   *     page, 1 byte an entry for each of repetition and definition levels)
   */
  public record Limits(int maxPageBytes, int maxPageEntries) {
    public Limits {
      require(maxPageBytes >= MIN_BUFFER_SIZE, "maxPageBytes must be at least " + MIN_BUFFER_SIZE + ": "
          + maxPageBytes);
      require(maxPageEntries >= 1, "maxPageEntries must be at least 1: " + maxPageEntries);
    }
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
        .scanThreads(threads.scan()).decodeThreads(threads.decode())
        .asyncPageReads(io.asyncPageReads()).bufferedReads(io.bufferedReads()).bufferSize(io.bufferSize())
        .readAheadHint(io.readAheadHint()).queueDepth(io.queueDepth()).memoryBudget(io.memoryBudget())
        .coalescedReads(io.coalescedReads()).coalesceGap(io.coalesceGap()).coalesceMaxSize(io.coalesceMaxSize())
        .prefetchRowGroups(io.prefetchRowGroups())
        .batchSize(decode.batchSize()).batchBytes(decode.batchBytes()).parallelDecode(decode.parallelDecode())
        .decodeAhead(decode.decodeAhead()).verifyChecksums(decode.verifyChecksums())
        .pageIndexSkipping(pruning.pageIndexSkipping()).dictionaryPruning(pruning.dictionaryPruning())
        .bloomFilterPruning(pruning.bloomFilterPruning()).lateMaterialization(pruning.lateMaterialization())
        .maxPageBytes(limits.maxPageBytes()).maxPageEntries(limits.maxPageEntries());
  }

  /** Builder with the documented defaults (docs/options.md); {@link #build} validates. */
  public static final class Builder {
    private int scanThreads = 2 * Runtime.getRuntime().availableProcessors();
    private int decodeThreads = 2 * Runtime.getRuntime().availableProcessors();
    private boolean asyncPageReads = true;
    private boolean bufferedReads = true;
    private int bufferSize = 1 << 20;
    private boolean readAheadHint = false;
    private int queueDepth = 2;
    private long memoryBudget = 256L << 20;
    private boolean coalescedReads = true;
    private long coalesceGap = 0;
    private int coalesceMaxSize = 1 << 20;
    private boolean prefetchRowGroups = true;
    private int batchSize = DEFAULT_BATCH_SIZE;
    private long batchBytes = 256L << 20;
    private boolean parallelDecode = true;
    private boolean decodeAhead = false;
    private boolean verifyChecksums = false;
    private boolean pageIndexSkipping = true;
    private boolean dictionaryPruning = true;
    private boolean bloomFilterPruning = true;
    private boolean lateMaterialization = true;
    /** What one buffer can hold: the format's own limit. */
    private int maxPageBytes = Integer.MAX_VALUE - 16;
    /** 2^26: old writers made one all-null page of a whole row group, up to 64 Mi rows (pyarrow's old default). */
    private int maxPageEntries = 1 << 26;

    private Builder() {
    }

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

    public Builder memoryBudget(long v) {
      memoryBudget = v;
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

    public Builder batchSize(int v) {
      batchSize = v;
      return this;
    }

    public Builder batchBytes(long v) {
      batchBytes = v;
      return this;
    }

    public Builder parallelDecode(boolean v) {
      parallelDecode = v;
      return this;
    }

    public Builder decodeAhead(boolean v) {
      decodeAhead = v;
      return this;
    }

    public Builder verifyChecksums(boolean v) {
      verifyChecksums = v;
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

    public Builder maxPageBytes(int v) {
      maxPageBytes = v;
      return this;
    }

    public Builder maxPageEntries(int v) {
      maxPageEntries = v;
      return this;
    }

    public ScanOptions build() {
      return new ScanOptions(
          new Threads(scanThreads, decodeThreads),
          new Io(asyncPageReads, bufferedReads, bufferSize, readAheadHint, queueDepth, memoryBudget, coalescedReads,
              coalesceGap, coalesceMaxSize, prefetchRowGroups),
          new Decode(batchSize, batchBytes, parallelDecode, decodeAhead, verifyChecksums),
          new Pruning(pageIndexSkipping, dictionaryPruning, bloomFilterPruning, lateMaterialization),
          new Limits(maxPageBytes, maxPageEntries));
    }
  }
}
