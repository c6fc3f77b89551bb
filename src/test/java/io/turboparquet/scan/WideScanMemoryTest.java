package io.turboparquet.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.io.TrackingBufferSource;
import io.turboparquet.testing.TestFileGenerator;
import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 1000 projected columns with an 8 MB buffer setting (the original design's 300 x 8 MB = 2.3 GB
 * warning, wider): whether a row group is read coalesced (whole, with or without the next one
 * prefetched) or chunk by chunk, peak direct memory stays within the budget plus, per column, the
 * batch being filled.
 */
class WideScanMemoryTest {
  private static final int COLUMNS = 1000;
  private static final int ROWS = 4000; // 32 MB of INT64, about 8 MB per row group
  private static final int BATCH = 512;
  /** Per column beyond the budget: the batch being filled (512 x 8 bytes, in a sink of 8 KiB). */
  private static final long PER_COLUMN = 8 * 1024;
  @TempDir static java.nio.file.Path dir;
  private static java.nio.file.Path file;

  @BeforeAll
  static void writeWideFile() throws IOException {
    file = dir.resolve("wide1000.parquet");
    TestFileGenerator.wideInt64(file, COLUMNS, ROWS, 4 * 1024, 8L << 20, 5);
  }

  private record Run(long peak, ScanMetrics metrics) {}

  private static Run scan(ScanOptions options) throws IOException {
    try (ScanHarness harness = new ScanHarness()) {
      TrackingBufferSource buffers = new TrackingBufferSource();
      ScanMetrics metrics = new ScanMetrics();
      long rows = 0;
      try (ParquetFileScanner scanner = ParquetFileScanner.open(harness.context(options, buffers, metrics),
          ScanHarness.hadoopPath(file), null)) {
        assertEquals(COLUMNS, scanner.projection().size());
        Batch batch;
        while ((batch = scanner.next()) != null) {
          rows += batch.rows();
        }
      }
      assertEquals(ROWS, rows);
      assertEquals(0, buffers.outstanding());
      return new Run(buffers.peakBytes(), metrics);
    }
  }

  private static ScanOptions.Builder base() {
    return ScanOptions.builder().bufferSize(8 << 20).batchSize(BATCH);
  }

  @Test
  void coalescedReadsStayWithinTheBudget() throws IOException {
    long budget = 12L << 20;
    Run bounded = scan(base().memoryBudget(budget).build());
    assertTrue(bounded.metrics().rowGroups() >= 3, "row groups " + bounded.metrics().rowGroups());
    // Each row group fits on its own, two do not: read coalesced, never two at once.
    assertTrue(bounded.metrics().coalescedRanges() > 0);
    assertEquals(0, bounded.metrics().prefetchedRowGroups());
    assertTrue(bounded.peak() <= budget + COLUMNS * PER_COLUMN, "peak " + bounded.peak());

    long roomy = 24L << 20;
    Run prefetching = scan(base().memoryBudget(roomy).build());
    assertTrue(prefetching.metrics().prefetchedRowGroups() > 0);
    assertTrue(prefetching.peak() <= roomy + COLUMNS * PER_COLUMN, "peak " + prefetching.peak());
    // Holding two row groups at once shows: the 12 MB budget is what kept the first scan lower.
    assertTrue(prefetching.peak() > bounded.peak() + (4L << 20),
        "prefetching peak " + prefetching.peak() + " vs bounded " + bounded.peak());
  }

  @Test
  void chunkByChunkReadsStayWithinTheBudget() throws IOException {
    // 24 MB is the smallest budget 1000 columns can honour: 1000 x 3 buffers of the 4 KiB minimum, doubled.
    long budget = 24L << 20;
    Run run = scan(base().memoryBudget(budget).coalescedReads(false).build());
    assertEquals(0, run.metrics().coalescedRanges());
    assertTrue(run.peak() <= budget + COLUMNS * PER_COLUMN, "peak " + run.peak());
  }
}
