package io.turboparquet.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.FileMetadata;
import io.turboparquet.scan.ScanHarness;
import io.turboparquet.scan.ScanOptions;
import io.turboparquet.testing.OracleDigest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keeps the benchmarks runnable (compiled and run with -Pjmh, which README's test command uses):
 * each benchmark's set-up and one call of every benchmark method, checking what it returns, and
 * the TPC-H generator's output read back against parquet-java.
 */
class BenchmarksSmokeTest {
  @Test
  void decodeBenchmarksDecodeEveryValue() throws IOException {
    for (String shape : List.of("DICT_STRINGS", "DICT_LONGS", "PLAIN_STRINGS", "PLAIN_LONGS")) {
      DecodeBenchmark b = new DecodeBenchmark();
      b.shape = shape;
      b.setUp();
      try {
        assertEquals(DecodeBenchmark.VALUES, b.decodePage(), shape);
        assertEquals(DecodeBenchmark.VALUES, b.decodePage(), shape + " again, after a reset");
      } finally {
        b.tearDown(); // fails on a leaked buffer
      }
    }
  }

  @Test
  void footerBenchmarksDecodeTheSameFooter() throws IOException {
    FooterBenchmark b = new FooterBenchmark();
    b.columns = 100;
    b.type = "FLOAT";
    b.statistics = true;
    b.setUp();
    FileMetadata full = b.turboFull();
    assertEquals(FooterBenchmark.ROW_GROUPS, full.rowGroups().size());
    assertEquals((long) FooterBenchmark.ROW_GROUPS * FooterBenchmark.ROWS, full.numRows());
    assertEquals(100, full.schema().columns().size());
    FileMetadata projected = b.turboProjected();
    assertEquals(full.numRows(), projected.numRows());
    assertEquals(full.rowGroups().get(3).column(7).totalCompressedSize(),
        b.turboNoStats().rowGroups().get(3).column(7).totalCompressedSize());
    assertNull(b.turboNoStats().rowGroups().get(3).column(7).statistics());
    assertEquals(full.numRows(), b.parquetJavaNoFilter().getBlocks().stream().mapToLong(r -> r.getRowCount()).sum());
    assertEquals(full.numRows(), b.parquetJavaThriftOnly().getNum_rows());
  }

  @Test
  void generatedLineitemReadsBackLikeParquetJava(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("lineitem.parquet");
    GenerateLineitem.main(new String[] {file.toString(), "--scale", "0.001", "--row-groups", "3"});
    assertTrue(Files.size(file) > 0);
    List<String> expected = OracleDigest.digest(file, null);
    assertEquals(16, expected.size());
    long rows = Long.parseLong(expected.get(0).split("\t")[2]);
    assertTrue(rows > 5_000 && rows < 7_000, "TPC-H SF 0.001 has about 6000 lineitem rows: " + rows);
    try (ScanHarness harness = new ScanHarness()) {
      assertEquals(expected, harness.digest(file, null, ScanOptions.defaults()));
    }
  }
}
