package io.turboparquet.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.turboparquet.io.TrackingBufferSource;
import io.turboparquet.testing.GeneratedFile;
import io.turboparquet.testing.OracleDigest;
import io.turboparquet.testing.TestFileGenerator;
import java.io.IOException;
import java.util.List;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sync and async page reading, serial and parallel decoding, buffered and direct reads, coalesced
 * reads or not, give the same digest on a lineitem-shaped file, and it is parquet-java's (every
 * combination with coalescing and prefetch runs over several row groups in CoalescedReadsTest).
 */
class ExecutionModesTest {
  @Test
  void everyExecutionModeGivesTheSameDigest(@TempDir java.nio.file.Path dir) throws IOException {
    GeneratedFile file = TestFileGenerator.lineitemLike(dir, 60_000, CompressionCodecName.SNAPPY);
    List<String> expected = OracleDigest.digest(file.path(), null);
    assertEquals(16, expected.size());
    try (ScanHarness harness = new ScanHarness()) {
      for (boolean async : new boolean[] {false, true}) {
        for (boolean parallel : new boolean[] {false, true}) {
          for (boolean buffered : new boolean[] {false, true}) {
            // Coalesced reads on in half the runs, so each async / buffered pair runs with and without.
            boolean coalesce = parallel != buffered;
            // Decoding ahead (a no-op without parallel decode) on in half the runs too.
            ScanOptions options = ScanOptions.builder().asyncPageReads(async).parallelDecode(parallel)
                .bufferedReads(buffered).coalescedReads(coalesce).coalesceMaxSize(256 * 1024).batchSize(5000)
                .decodeAhead(async).build();
            assertEquals(expected, harness.digest(file.path(), null, options), options.toString());
          }
        }
      }
    }
  }

  @Test
  void closingWhileTheNextBatchDecodesAheadFreesEveryBuffer(@TempDir java.nio.file.Path dir) throws IOException {
    GeneratedFile file = TestFileGenerator.lineitemLike(dir, 60_000, CompressionCodecName.SNAPPY);
    ScanOptions options = ScanOptions.builder().batchSize(2000).decodeAhead(true).build();
    try (ScanHarness harness = new ScanHarness()) {
      for (int batches = 1; batches <= 3; batches++) {
        TrackingBufferSource buffers = new TrackingBufferSource();
        try (ParquetFileScanner scanner = ParquetFileScanner.open(harness.context(options, buffers, new ScanMetrics()),
            ScanHarness.hadoopPath(file.path()), null)) {
          for (int i = 0; i < batches; i++) {
            Batch batch = scanner.next();
            assertEquals(2000, batch.rows());
            assertEquals(16, batch.columns().size());
            scanner.decodeAhead();
          }
        }
        assertEquals(0, buffers.outstanding(), "buffers held after closing with a batch decoding ahead");
      }
    }
  }
}
