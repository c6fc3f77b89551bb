package io.turboparquet.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.testing.GeneratedFile;
import io.turboparquet.testing.OracleDigest;
import io.turboparquet.testing.SharedGeneratedFiles;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every generated file (type x encoding x codec x page version x nullability x nesting) digests
 * the same through our scan as through parquet-java's column API, under rotating scan options:
 * sync / async page reads, serial / parallel decoding, buffered / direct reads, the read-ahead
 * hint, CRC checks, read buffers from smaller than a page header to larger than a chunk, and
 * several batch sizes.
 */
class ScanDifferentialTest {
  private static List<GeneratedFile> files;
  private static ScanHarness harness;

  /** Option sets that between them cover every factor; file i uses a rotating pair of them. */
  static final List<ScanOptions> CONFIGS = List.of(
      ScanOptions.builder().asyncPageReads(false).parallelDecode(false).batchSize(1).build(),
      ScanOptions.builder().asyncPageReads(true).parallelDecode(false).bufferSize(16).batchSize(7).build(),
      ScanOptions.builder().asyncPageReads(false).parallelDecode(true).bufferSize(1000).batchSize(100).build(),
      ScanOptions.builder().asyncPageReads(true).parallelDecode(true).queueDepth(1).batchSize(333).build(),
      ScanOptions.builder().asyncPageReads(true).parallelDecode(true).bufferedReads(false).batchSize(4096).build(),
      ScanOptions.builder().asyncPageReads(false).parallelDecode(false).bufferedReads(false).readAheadHint(true)
          .batchSize(64).build(),
      ScanOptions.builder().asyncPageReads(true).parallelDecode(true).bufferSize(37).queueDepth(4).batchSize(1000)
          .verifyChecksums(true).build(),
      ScanOptions.builder().asyncPageReads(false).parallelDecode(true).bufferSize(200_000).batchSize(50_000)
          .build());

  @BeforeAll
  static void generate() throws IOException {
    files = SharedGeneratedFiles.all();
    harness = new ScanHarness();
  }

  @AfterAll
  static void close() {
    harness.close();
  }

  @TestFactory
  Stream<DynamicTest> everyGeneratedFileMatchesParquetJava() {
    assertTrue(files.size() >= 50, "the matrix should be large: " + files.size());
    List<DynamicTest> tests = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      GeneratedFile f = files.get(i);
      List<ScanOptions> configs = List.of(ScanOptions.defaults(), CONFIGS.get(i % CONFIGS.size()),
          CONFIGS.get((i * 3 + 1) % CONFIGS.size()));
      tests.add(DynamicTest.dynamicTest(f.description(), () -> {
        List<String> expected = OracleDigest.digest(f.path(), null);
        for (ScanOptions options : configs) {
          assertEquals(expected, harness.digest(f.path(), null, options), f.description() + " with " + options);
        }
      }));
    }
    return tests.stream();
  }
}
