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
 * A wide file with large chunks: with an 8 MB buffer setting and no budget the read buffers grow
 * with the column count; with a budget the scan's peak direct memory stays near the budget.
 */
class MemoryBudgetTest {
  private static final int COLUMNS = 300;
  private static final int ROWS = 12_000; // 96 KB of INT64 per column chunk
  @TempDir static java.nio.file.Path dir;
  private static java.nio.file.Path file;

  @BeforeAll
  static void writeWideFile() throws IOException {
    file = dir.resolve("wide.parquet");
    TestFileGenerator.wideInt64(file, COLUMNS, ROWS, 8 * 1024, 1L << 30, 7);
  }

  private static long peak(ScanOptions options) throws IOException {
    try (ScanHarness harness = new ScanHarness()) {
      TrackingBufferSource buffers = new TrackingBufferSource();
      ScanMetrics metrics = new ScanMetrics();
      long rows = 0;
      try (ParquetFileScanner scanner = ParquetFileScanner.open(harness.context(options, buffers, metrics),
          ScanHarness.hadoopPath(file), null)) {
        Batch batch;
        while ((batch = scanner.next()) != null) {
          rows += batch.rows();
        }
      }
      assertEquals(ROWS, rows);
      assertEquals(0, buffers.outstanding());
      return buffers.peakBytes();
    }
  }

  @Test
  void theBudgetBoundsPeakMemoryWhateverTheColumnCount() throws IOException {
    ScanOptions base = ScanOptions.builder().bufferSize(8 << 20).batchSize(1024).build();
    long unbounded = peak(base.toBuilder().memoryBudget(1L << 40).build());
    long budget = 8L << 20;
    long bounded = peak(base.toBuilder().memoryBudget(budget).build());
    // Without a budget every column buffers its whole 96 KB chunk: about 29 MB.
    assertTrue(unbounded > 25L << 20, "unbounded peak " + unbounded);
    // With one: the budget plus, per column, the page being decoded and the batch (a few KB each).
    long perColumnWorkingSet = 3 * 8 * 1024 + 2 * 8 * 1024;
    assertTrue(bounded < budget + COLUMNS * perColumnWorkingSet, "bounded peak " + bounded);
    assertTrue(bounded < unbounded / 2, "bounded " + bounded + " vs unbounded " + unbounded);
  }
}
