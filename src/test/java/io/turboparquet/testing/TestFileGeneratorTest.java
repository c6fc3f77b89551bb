package io.turboparquet.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.EncodingStats;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestFileGeneratorTest {

  @TempDir
  static Path dir;

  static List<GeneratedFile> files;
  static long generationMillis;

  @BeforeAll
  static void generate() {
    long t0 = System.nanoTime();
    files = TestFileGenerator.generateAll(dir);
    generationMillis = (System.nanoTime() - t0) / 1_000_000;
    System.out.println("generated " + files.size() + " files in " + generationMillis + " ms");
  }

  @Test
  void matrixSizeAndBudget() throws Exception {
    int codecs = TestFileGenerator.writableCodecs().size();
    assertEquals(10 * codecs + 2 * codecs + 4 + 4, files.size());
    long total = 0;
    Set<Path> paths = new HashSet<>();
    for (GeneratedFile f : files) {
      assertTrue(Files.size(f.path()) > 0, f.toString());
      assertTrue(paths.add(f.path()), "duplicate " + f);
      total += Files.size(f.path());
    }
    assertTrue(total < 50L << 20, "total " + total);
    assertTrue(generationMillis < 120_000, "generation took " + generationMillis + " ms");
  }

  /** The footers show every encoding, codec and page version the matrix promises, per file as described. */
  @Test
  void footersShowPromisedEncodingsCodecsAndPageVersions() {
    Set<Encoding> allEncodings = new TreeSet<>();
    Set<CompressionCodecName> allCodecs = new TreeSet<>();
    int fallbackChunks = 0;
    for (GeneratedFile f : files) {
      ParquetMetadata m = OracleDigest.footer(f.path());
      boolean v2Described = f.has("v2");
      for (BlockMetaData b : m.getBlocks()) {
        for (ColumnChunkMetaData c : b.getColumns()) {
          allEncodings.addAll(c.getEncodings());
          allCodecs.add(c.getCodec());
          EncodingStats st = c.getEncodingStats();
          assertEquals(v2Described, st.usesV2Pages(), f + " " + c.getPath());
          assertTrue(f.description().contains(c.getCodec().name()), f + " " + c.getCodec());
          if (st.hasDictionaryEncodedPages() && st.hasNonDictionaryEncodedPages()) {
            fallbackChunks++;
          }
          if (f.has("PLAIN_V1") || f.has("PLAIN_V2")) {
            assertTrue(Set.of(Encoding.PLAIN, Encoding.RLE, Encoding.BIT_PACKED).containsAll(c.getEncodings()),
                f + " " + c);
          }
          if (f.has("BSS_V1") || f.has("BSS_V2")) {
            String t = c.getPrimitiveType().getPrimitiveTypeName().name();
            if (Set.of("FLOAT", "DOUBLE", "INT32", "INT64", "FIXED_LEN_BYTE_ARRAY").contains(t)) {
              assertTrue(c.getEncodings().contains(Encoding.BYTE_STREAM_SPLIT), f + " " + c);
            }
          }
          if (f.has("DELTA_LENGTH_V2") && c.getPrimitiveType().getPrimitiveTypeName().name().equals("BINARY")) {
            assertTrue(c.getEncodings().contains(Encoding.DELTA_LENGTH_BYTE_ARRAY), f + " " + c);
          }
        }
      }
    }
    System.out.println("encodings: " + allEncodings + "; codecs: " + allCodecs + "; fallback chunks: " + fallbackChunks);
    assertTrue(allEncodings.containsAll(Set.of(Encoding.PLAIN, Encoding.PLAIN_DICTIONARY, Encoding.RLE_DICTIONARY,
        Encoding.RLE, Encoding.DELTA_BINARY_PACKED, Encoding.DELTA_BYTE_ARRAY, Encoding.DELTA_LENGTH_BYTE_ARRAY,
        Encoding.BYTE_STREAM_SPLIT)), allEncodings.toString());
    assertEquals(new TreeSet<>(TestFileGenerator.writableCodecs()), allCodecs);
    assertTrue(fallbackChunks >= 50, "dictionary fallback chunks: " + fallbackChunks);
  }

  /** parquet-java reads every file; every flat column has one entry per row; nested files have repeated columns. */
  @Test
  void oracleReadsEveryFile() {
    for (GeneratedFile f : files) {
      ParquetMetadata m = OracleDigest.footer(f.path());
      long rows = m.getBlocks().stream().mapToLong(BlockMetaData::getRowCount).sum();
      List<String> lines = OracleDigest.digest(f.path(), null);
      assertEquals(m.getFileMetaData().getSchema().getColumns().size(), lines.size(), f.toString());
      for (int i = 0; i < lines.size(); i++) {
        String[] parts = lines.get(i).split("\t");
        assertEquals(5, parts.length);
        assertEquals(64, parts[4].length());
        int maxRep = m.getFileMetaData().getSchema().getColumns().get(i).getMaxRepetitionLevel();
        long entries = Long.parseLong(parts[2]) + Long.parseLong(parts[3]);
        if (maxRep == 0) {
          assertEquals(rows, entries, f + " " + parts[0]);
        } else {
          assertTrue(entries >= rows, f + " " + parts[0]);
        }
        if (parts[0].endsWith("_req")) {
          assertEquals("0", parts[3], f + " " + parts[0]);
        }
        if (parts[0].endsWith("_all") && rows > 0) {
          assertEquals("0", parts[2], f + " " + parts[0]);
        }
      }
    }
  }

  /** Oracle vs what the generator wrote, value by value, for every Mode with varied codecs, distributions, nulls. */
  @Test
  void oracleReturnsWhatWasWritten(@TempDir Path tmp) {
    Path d = tmp.resolve("written"); // a method @TempDir may be the class's one: keep off the matrix's files
    List<CompressionCodecName> codecs = TestFileGenerator.writableCodecs();
    TestFileGenerator.Nulls[] nulls = TestFileGenerator.Nulls.values();
    TestFileGenerator.Dist[] dists = TestFileGenerator.Dist.values();
    int i = 0;
    for (TestFileGenerator.Mode mode : TestFileGenerator.Mode.values()) {
      if (mode == TestFileGenerator.Mode.RAW_NAN) {
        continue;
      }
      CompressionCodecName codec = codecs.get(i % codecs.size());
      TestFileGenerator.Dist dist = dists[i % dists.length];
      TestFileGenerator.Nulls n = nulls[i % nulls.length];
      long seed = 77 + i;
      int rows = 1200;
      GeneratedFile f = TestFileGenerator.types(d, mode, codec, dist, n, i % 2 == 0, rows, seed);
      Object[][] want = TestFileGenerator.typesValues(dist, n, rows, seed);
      List<OracleColumn> cols = OracleDigest.read(f.path(), null);
      assertEquals(TestFileGenerator.TYPES_COLUMNS, cols.stream().map(OracleColumn::path).toList());
      for (int c = 0; c < cols.size(); c++) {
        OracleColumn col = cols.get(c);
        List<OracleColumn.Entry> expected = new java.util.ArrayList<>(rows);
        for (int r = 0; r < rows; r++) {
          Object v = want[r][c];
          expected.add(new OracleColumn.Entry(0, v == null ? 0 : col.maxDefinitionLevel(), v));
        }
        String diff = col.describeDifference(expected);
        assertEquals(null, diff, f.toString());
      }
      i++;
    }
  }

  /**
   * Page level: the first page header of each chunk has a CRC exactly in the files described "checksums" (and
   * parquet-java verifies them); types/nulls chunks have many pages; "null blocks" columns have all-null pages.
   */
  @Test
  void pagesChecksumsAndNullPages() throws Exception {
    int checksumFiles = 0;
    int nullPages = 0;
    for (GeneratedFile f : files) {
      boolean want = f.has("checksums");
      if (want) {
        checksumFiles++;
        assertTrue(OracleDigest.verifyPageChecksums(f.path()) >= 1, f.toString());
      }
      try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(f.path());
           org.apache.parquet.hadoop.ParquetFileReader reader = OracleDigest.open(f.path())) {
        for (BlockMetaData b : reader.getFooter().getBlocks()) {
          for (ColumnChunkMetaData c : b.getColumns()) {
            ch.position(c.getStartingPos());
            org.apache.parquet.format.PageHeader h = org.apache.parquet.format.Util.readPageHeader(
                new java.io.BufferedInputStream(java.nio.channels.Channels.newInputStream(ch)));
            assertEquals(want, h.isSetCrc(), f + " " + c.getPath());
            org.apache.parquet.internal.column.columnindex.OffsetIndex oi = reader.readOffsetIndex(c);
            if ((f.has("types") || f.has("nulls")) && b.getRowCount() >= 1000) {
              assertTrue(oi.getPageCount() >= 3, f + " " + c.getPath() + " pages " + oi.getPageCount());
            }
            if (c.getPath().toDotString().endsWith("_blocks")) {
              org.apache.parquet.internal.column.columnindex.ColumnIndex ci = reader.readColumnIndex(c);
              if (ci != null) { // parquet-java drops a chunk's column index when e.g. a page holds NaN
                nullPages += (int) ci.getNullPages().stream().filter(x -> x).count();
              }
            }
          }
        }
      }
    }
    assertTrue(checksumFiles >= 15, "files with checksums: " + checksumFiles);
    assertTrue(nullPages >= 10, "all-null pages in *_blocks columns: " + nullPages);
  }

  @Test
  void deterministic(@TempDir Path other) throws Exception {
    GeneratedFile a = files.stream().filter(f -> f.path().getFileName().toString()
        .equals("types_dict_fallback_v2_zstd.parquet")).findFirst().orElseThrow();
    List<GeneratedFile> again = TestFileGenerator.typesMatrix(other.resolve("again"));
    GeneratedFile b = again.stream().filter(f -> f.path().getFileName().equals(a.path().getFileName()))
        .findFirst().orElseThrow();
    assertEquals(a.description(), b.description());
    assertArrayEquals(Files.readAllBytes(a.path()), Files.readAllBytes(b.path()));
  }

  @Test
  void lineitemLike(@TempDir Path d) {
    GeneratedFile f = TestFileGenerator.lineitemLike(d.resolve("lineitem"), 20_000, CompressionCodecName.SNAPPY);
    List<String> lines = OracleDigest.digest(f.path(), null);
    assertEquals(16, lines.size());
    assertTrue(lines.get(0).startsWith("l_orderkey\tINT64\t20000\t0\t"), lines.get(0));
    assertTrue(lines.get(10).startsWith("l_shipdate\tINT32\t20000\t0\t"), lines.get(10));
    assertTrue(lines.get(15).startsWith("l_comment\tBYTE_ARRAY\t20000\t0\t"), lines.get(15));
  }
}
