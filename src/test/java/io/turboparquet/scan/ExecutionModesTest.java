package io.turboparquet.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.turboparquet.testing.GeneratedFile;
import io.turboparquet.testing.OracleDigest;
import io.turboparquet.testing.TestFileGenerator;
import java.io.IOException;
import java.util.List;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sync and async page reading, serial and parallel decoding, buffered and direct reads give the
 * same digest on a lineitem-shaped file with many row groups, and it is parquet-java's.
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
            ScanOptions options = ScanOptions.builder().asyncPageReads(async).parallelDecode(parallel)
                .bufferedReads(buffered).batchSize(5000).build();
            assertEquals(expected, harness.digest(file.path(), null, options), options.toString());
          }
        }
      }
    }
  }
}
