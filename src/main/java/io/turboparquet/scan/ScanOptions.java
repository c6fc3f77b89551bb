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
    boolean verifyChecksums) {

  /** The smallest read buffer the memory budget shrinks a column's buffer to. */
  public static final int MIN_BUFFER_SIZE = 4 * 1024;

  public ScanOptions {
    require(scanThreads >= 1, "scanThreads must be at least 1: " + scanThreads);
    require(decodeThreads >= 1, "decodeThreads must be at least 1: " + decodeThreads);
    require(bufferSize >= 1, "bufferSize must be positive: " + bufferSize);
    require(queueDepth >= 1, "queueDepth must be at least 1: " + queueDepth);
    require(batchSize >= 1, "batchSize must be at least 1: " + batchSize);
    require(memoryBudget >= MIN_BUFFER_SIZE, "memoryBudget must be at least " + MIN_BUFFER_SIZE + ": " + memoryBudget);
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
        .verifyChecksums(verifyChecksums);
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

    public ScanOptions build() {
      return new ScanOptions(scanThreads, decodeThreads, asyncPageReads, bufferedReads, bufferSize, readAheadHint,
          queueDepth, parallelDecode, batchSize, memoryBudget, verifyChecksums);
    }
  }
}
