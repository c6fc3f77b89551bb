package io.turboparquet.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.FileMetadata;
import io.turboparquet.scan.ScanHarness;
import io.turboparquet.scan.ScanOptions;
import io.turboparquet.testing.OracleDigest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.values.bloomfilter.BloomFilter;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
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
  void footerWritersBenchmarkReadsTheDirectoryItIsGiven(@TempDir Path dir) throws IOException {
    String previous = System.setProperty("footer.writers.dir", dir.toString());
    try {
      FooterWritersBenchmark.main(new String[] {"100"}); // parquet-java's file
      FooterWritersBenchmark b = new FooterWritersBenchmark();
      b.writer = "parquet-java";
      b.columns = 100;
      b.setUp();
      FileMetadata full = b.turboFull();
      assertEquals(FooterBenchmark.ROW_GROUPS, full.rowGroups().size());
      assertEquals(100, full.schema().columns().size());
      assertNotNull(full.rowGroups().get(5).column(30).statistics());
      assertNull(b.turboNoStats().rowGroups().get(5).column(30).statistics());
      assertNotNull(b.turboProjected().rowGroups().get(5).column(30).statistics(), "column 30 is one of the ten");
      assertEquals(full.numRows(), b.parquetJavaNoFilter().getBlocks().stream().mapToLong(r -> r.getRowCount()).sum());
      b.writer = "duckdb";
      IOException missing = assertThrows(IOException.class, b::setUp);
      assertTrue(missing.getMessage().contains("duckdb_100c.parquet"), missing.getMessage());
    } finally {
      if (previous == null) {
        System.clearProperty("footer.writers.dir");
      } else {
        System.setProperty("footer.writers.dir", previous);
      }
    }
  }

  @Test
  void retainedHeapPrintsOneLinePerFile() throws IOException {
    Path file = FooterBenchmark.ensureFile(100, "FLOAT", true);
    PrintStream out = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    // JOL attaches HotSpot's Serviceability Agent from a child JVM that stops this one while it reads it
    // (up to a minute under CI's load); the sizes this file gives are the same without it (checked by hand:
    // every *_bytes and *_objects figure), and bench/footer_writers.sh still measures with it.
    System.setProperty("jol.skipHotspotSAAttach", "true");
    try {
      FooterRetainedHeap.main(new String[] {file.toString()});
    } finally {
      System.setOut(out);
      System.clearProperty("jol.skipHotspotSAAttach");
    }
    // JOL may print a warning first (no instrumentation without -Djdk.attach.allowAttachSelf).
    String line = printed.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("{")).findFirst()
        .orElseThrow();
    for (String field : List.of("\"kind\":\"heap\"", "\"turbo_full_bytes\":", "\"turbo_nostats_bytes\":",
        "\"parquet_java_bytes\":", "\"row_groups\":20", "\"leaves\":100")) {
      assertTrue(line.contains(field), field + " in " + line);
    }
    assertFalse(line.contains("error"), line);
  }

  @Test
  void footerABTimesEachBuildInItsOwnLoader() throws Exception {
    Path file = FooterBenchmark.ensureFile(100, "FLOAT", true);
    String classes = Path.of(io.turboparquet.format.thrift.FooterDecoder.class.getProtectionDomain().getCodeSource()
        .getLocation().toURI()).toString();
    for (String mode : List.of("projected", "full")) {
      PrintStream out = System.out;
      ByteArrayOutputStream printed = new ByteArrayOutputStream();
      System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
      try {
        FooterAB.main(new String[] {file.toString(), mode, classes, classes});
      } finally {
        System.setOut(out);
      }
      String line = printed.toString(StandardCharsets.UTF_8).trim();
      assertTrue(line.matches(file.getFileName() + " " + mode + "  A [0-9.]+ ms \\(1\\.00\\)  B [0-9.]+ ms \\([0-9.]+\\)"),
          line);
    }
    assertThrows(IllegalArgumentException.class, () -> FooterAB.main(new String[] {file.toString(), "projected"}));
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

  /** The writer options of the selective-scan benchmark: sorted rows, size-cut row groups, bloom filters, page rows. */
  @Test
  void generatedLineitemSortedWithBloomFilterAndRowGroupsBySize(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("sorted.parquet");
    long limit = 131_072;
    GenerateLineitem.main(new String[] {file.toString(), "--scale", "0.001", "--sort-by", "l_shipdate",
        "--bloom-filter", "l_partkey,l_comment", "--row-group-bytes", Long.toString(limit), "--page-row-limit", "500"});
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file.toUri());
    long rows = 0;
    try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(path, new Configuration()))) {
      List<BlockMetaData> blocks = reader.getFooter().getBlocks();
      assertTrue(blocks.size() > 1, "row groups cut by size: " + blocks.size());
      for (BlockMetaData block : blocks) {
        assertTrue(block.getCompressedSize() < limit * 3 / 2, "row group of " + block.getCompressedSize() + " bytes");
        rows += block.getRowCount();
        for (ColumnChunkMetaData chunk : block.getColumns()) {
          String name = chunk.getPath().toDotString();
          // parquet-java writes no bloom filter for a chunk dictionary-encoded throughout (SF 0.001 has
          // 200 part keys: l_partkey keeps its dictionary); comments fall back to PLAIN at the first page.
          boolean dictionaryOnly = chunk.getEncodingStats().hasDictionaryEncodedPages()
              && !chunk.getEncodingStats().hasNonDictionaryEncodedPages();
          boolean expected = name.equals("l_comment") || (name.equals("l_partkey") && !dictionaryOnly);
          assertEquals(expected, chunk.getBloomFilterOffset() >= 0, name);
          OffsetIndex pages = reader.readOffsetIndex(chunk);
          for (int p = 0; p < pages.getPageCount(); p++) {
            long pageRows = pages.getLastRowIndex(p, block.getRowCount()) - pages.getFirstRowIndex(p) + 1;
            assertTrue(pageRows <= 500, name + " page " + p + ": " + pageRows + " rows");
          }
        }
      }
      ColumnChunkMetaData comments = blocks.get(0).getColumns().get(15);
      BloomFilter bloom = reader.readBloomFilter(comments);
      assertTrue(bloom.findHash(bloom.hash(comments.getStatistics().genericGetMin())),
          "the bloom filter holds the chunk's minimum");
    }
    int previous = Integer.MIN_VALUE;
    long read = 0;
    try (ParquetReader<Group> reader = ParquetReader.builder(new GroupReadSupport(), path).build()) {
      for (Group g; (g = reader.read()) != null; read++) {
        int day = g.getInteger("l_shipdate", 0);
        assertTrue(day >= previous, "sorted by l_shipdate at row " + read);
        previous = day;
      }
    }
    assertEquals(rows, read);
    assertTrue(rows > 5_000 && rows < 7_000, "TPC-H SF 0.001 has about 6000 lineitem rows: " + rows);
    try (ScanHarness harness = new ScanHarness()) {
      assertEquals(OracleDigest.digest(file, null), harness.digest(file, null, ScanOptions.defaults()));
    }
  }
}
