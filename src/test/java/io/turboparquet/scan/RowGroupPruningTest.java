package io.turboparquet.scan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.filter.Filter;
import io.turboparquet.filter.Literal;
import io.turboparquet.filter.Predicate;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.PageHeaderInfo;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.format.thrift.CompactWriter;
import io.turboparquet.format.thrift.PageHeaderDecoder;
import io.turboparquet.io.TrackingBufferSource;
import io.turboparquet.scan.PageIndexSkippingTest.Oracle;
import io.turboparquet.testing.CorpusFiles;
import io.turboparquet.testing.FooterRewrite;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Row-group pruning by dictionary and bloom filter against scans without it, on files parquet-java
 * wrote ({@link PruningFiles}: V1 and V2 pages, with and without encoding stats) and parquet-testing's
 * bloom filter files, for many equality and IN filters (values in one row group only, in several, in
 * none, not representable in the column's type) and AND/OR of them:
 * <ul>
 *   <li>every row that matches is returned, with the unpruned scan's values (no row is ever lost);</li>
 *   <li>with the dictionary alone, exactly the row groups that hold no match and whose chunk is
 *       dictionary-encoded throughout (parquet-java's own reading of the encoding stats, or its rule
 *       for files without them) are pruned: a chunk that fell back to PLAIN is never pruned by its
 *       dictionary; with bloom filters alone, only row groups without a match, and nearly all of
 *       those whose chunk has a filter;</li>
 *   <li>switched off, nothing is pruned;</li>
 *   <li>corrupt dictionary pages and bloom filters give a clear error or, where the file is merely of
 *       a kind this reader does not use, no pruning; never a large allocation.</li>
 * </ul>
 */
class RowGroupPruningTest {
  @TempDir
  static Path dir;
  static Path v1;
  static Path v2;
  static Path v1NoStats;
  static Path v2NoStats;
  static ScanHarness harness;

  static final ScanOptions NOTHING = ScanOptions.builder().pageIndexSkipping(false).dictionaryPruning(false)
      .bloomFilterPruning(false).lateMaterialization(false).build();
  static final ScanOptions DICTIONARY = ScanOptions.builder().pageIndexSkipping(false).bloomFilterPruning(false)
      .lateMaterialization(false).build();
  static final ScanOptions BLOOM = ScanOptions.builder().pageIndexSkipping(false).dictionaryPruning(false)
      .lateMaterialization(false).build();
  /** Both prunings with the page index on, read in the three ways PageIndexSkippingTest reads. */
  static final List<ScanOptions> MODES = List.of(
      ScanOptions.builder().decodeAhead(true).batchSize(1000).build(),
      ScanOptions.builder().coalescedReads(false).asyncPageReads(false).parallelDecode(false).batchSize(777).build(),
      ScanOptions.builder().coalescedReads(false).pageIndexSkipping(false).batchBytes(3000).build());

  @BeforeAll
  static void write() throws IOException {
    v1 = dir.resolve("v1.parquet");
    v2 = dir.resolve("v2.parquet");
    PruningFiles.write(v1, false);
    PruningFiles.write(v2, true);
    v1NoStats = dir.resolve("v1-no-stats.parquet");
    v2NoStats = dir.resolve("v2-no-stats.parquet");
    for (Path[] p : new Path[][] {{v1, v1NoStats}, {v2, v2NoStats}}) {
      Files.write(p[1], FooterRewrite.editFooter(Files.readAllBytes(p[0]),
          f -> f.getRow_groups().forEach(rg -> rg.getColumns().forEach(c -> c.getMeta_data().unsetEncoding_stats()))));
    }
    harness = new ScanHarness();
  }

  @AfterAll
  static void close() {
    harness.close();
  }

  /** One scan's rows by (row group, row), each the projected columns' raw values (null: null). */
  record Rows(Map<Long, List<byte[]>> rows, List<ColumnDescriptor> columns, ScanMetrics metrics) {
    Set<Integer> rowGroups() {
      Set<Integer> out = new TreeSet<>();
      rows.keySet().forEach(k -> out.add((int) (k >>> 40)));
      return out;
    }
  }

  static Rows scan(Path file, Predicate filter, ScanOptions options) throws IOException {
    TrackingBufferSource buffers = new TrackingBufferSource();
    ScanMetrics metrics = new ScanMetrics();
    ScanContext context = harness.context(options, buffers, metrics);
    org.apache.hadoop.fs.Path path = ScanHarness.hadoopPath(file);
    Map<Long, List<byte[]>> rows = new LinkedHashMap<>();
    List<ColumnDescriptor> columns;
    try {
      FileMetadata meta = ParquetFileScanner.readMetadata(context, path);
      try (ParquetFileScanner s = ParquetFileScanner.open(context, path, meta, null, filter)) {
        columns = s.projection();
        Batch b;
        while ((b = s.next()) != null) {
          for (int r = 0; r < b.rows(); r++) {
            List<byte[]> row = new ArrayList<>();
            for (ColumnBatch c : b.columns()) {
              row.add(PageIndexSkippingTest.value(c, r));
            }
            assertTrue(rows.put(((long) b.rowGroup() << 40) + b.row(r), row) == null, "a row twice");
          }
          s.decodeAhead();
        }
      }
    } finally {
      assertEquals(0, buffers.outstanding(), "buffers leaked scanning " + file + " with " + filter);
    }
    return new Rows(rows, columns, metrics);
  }

  /**
   * The scan with {@code filter} returns every row of {@code full} that matches it, each as in
   * {@code full}: the matching rows of both scans are the same.
   */
  static Rows check(Path file, Rows full, Predicate filter, ScanOptions options) throws IOException {
    return check(file, full, filter, matching(full, filter), options);
  }

  /** {@link #check(Path, Rows, Predicate, ScanOptions)} given the rows of {@code full} that match. */
  static Rows check(Path file, Rows full, Predicate filter, Set<Long> matchingFull, ScanOptions options)
      throws IOException {
    Rows got = scan(file, filter, options);
    String what = file.getFileName() + " [" + filter + "] " + options;
    Set<Long> matchingGot = new TreeSet<>();
    for (Map.Entry<Long, List<byte[]>> e : got.rows.entrySet()) {
      List<byte[]> expected = full.rows.get(e.getKey());
      assertTrue(expected != null, () -> what + ": a row the file lacks: " + e.getKey());
      for (int c = 0; c < expected.size(); c++) {
        int column = c; // messages built only on failure: built per cell, they were most of the test's time
        assertArrayEquals(expected.get(c), e.getValue().get(c), () -> what + ": row " + e.getKey() + " column " + column);
      }
      if (matchingFull.contains(e.getKey())) { // the same values: the same answer
        matchingGot.add(e.getKey());
      }
    }
    Set<Long> lost = new TreeSet<>(matchingFull);
    lost.removeAll(matchingGot);
    assertTrue(lost.isEmpty(), what + ": " + lost.size() + " matching rows not returned, e.g. (row group << 40 | row) "
        + lost.stream().limit(5).toList());
    assertEquals(full.rows.size() - got.rows.size(), got.metrics.rowsSkipped() + got.metrics.filteredRows(),
        what + ": rows_skipped + filtered_rows");
    return got;
  }

  /** The rows of {@code full} that match {@code filter}, evaluated on their values. */
  static Set<Long> matching(Rows full, Predicate filter) {
    Set<Long> out = new TreeSet<>();
    full.rows.forEach((k, row) -> {
      if (Oracle.matches(filter, full.columns, row)) {
        out.add(k);
      }
    });
    return out;
  }

  // ---- the filters ----

  /** Columns of {@link PruningFiles} and literals no row holds (some not even representable in the type). */
  static final Map<String, List<String>> ABSENT = new LinkedHashMap<>();

  static {
    ABSENT.put("cat", List.of("150", "999", "3.5", "100000000000"));
    ABSENT.put("code", List.of("1000031", "7000000", "-1"));
    ABSENT.put("name", List.of("'n1-99'", "'zzz'", "''"));
    ABSENT.put("d", List.of("15.1", "1e300", "-7"));
    ABSENT.put("f", List.of("10.25", "0.1"));
    ABSENT.put("tail", List.of("'t-unique-999999'", "'t41'"));
    ABSENT.put("bloomonly", List.of("5555", "-3"));
    ABSENT.put("ibloom", List.of("1041", "99999"));
    ABSENT.put("dbloom", List.of("15.1", "-7.25"));
    ABSENT.put("sbloom", List.of("'s1-31'", "'nope'"));
    ABSENT.put("plain", List.of("1001"));
    ABSENT.put("dec", List.of("1.13", "99999999.99", "123456789012345678"));
  }

  /** The literal text of a raw value of {@code column}, or null (NaN). */
  static String literal(ColumnDescriptor column, byte[] raw) {
    ByteBuffer le = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
    return switch (column.physicalType()) {
      case INT32 -> Integer.toString(le.getInt());
      case INT64 -> Long.toString(le.getLong());
      case DOUBLE -> Double.isNaN(le.getDouble(0)) ? null : Double.toString(le.getDouble());
      case FLOAT -> Float.isNaN(le.getFloat(0)) ? null : Float.toString(le.getFloat());
      case FIXED_LEN_BYTE_ARRAY -> new BigDecimal(new BigInteger(raw), 2).toPlainString();
      default -> new Literal(Literal.Kind.STRING, new String(raw, StandardCharsets.UTF_8)).toString();
    };
  }

  /**
   * Equality and IN filters on each column: values in one row group only, values in several, absent
   * ones, and IN lists mixing them; zeros of the floating columns (which match -0.0).
   */
  static List<Predicate> equalities(Rows full) {
    List<Predicate> out = new ArrayList<>();
    for (int c = 0; c < full.columns.size(); c++) {
      ColumnDescriptor column = full.columns.get(c);
      String name = column.dottedPath();
      if (!ABSENT.containsKey(name)) {
        continue;
      }
      Map<String, Set<Integer>> where = new TreeMap<>();
      for (Map.Entry<Long, List<byte[]>> e : full.rows.entrySet()) {
        byte[] raw = e.getValue().get(c);
        String l = raw == null ? null : literal(column, raw);
        if (l != null) {
          where.computeIfAbsent(l, k -> new TreeSet<>()).add((int) (e.getKey() >>> 40));
        }
      }
      List<String> one = where.entrySet().stream().filter(e -> e.getValue().size() == 1).map(Map.Entry::getKey)
          .toList();
      List<String> several = where.entrySet().stream().filter(e -> e.getValue().size() > 1).map(Map.Entry::getKey)
          .toList();
      List<String> values = new ArrayList<>();
      for (int i = 0; i < Math.min(3, one.size()); i++) {
        values.add(one.get(i * one.size() / 3));
      }
      for (int i = 0; i < Math.min(2, several.size()); i++) {
        values.add(several.get(i * several.size() / 2));
      }
      values.addAll(ABSENT.get(name));
      if (name.equals("tail")) {
        // each row group's last value: where a chunk fell back, a value its dictionary page lacks
        Map<Integer, String> last = new TreeMap<>();
        int at = c;
        full.rows.forEach((k, row) -> {
          if (row.get(at) != null) {
            last.put((int) (k >>> 40), literal(column, row.get(at)));
          }
        });
        values.addAll(last.values());
      }
      if (column.physicalType().name().equals("DOUBLE")) {
        values.add("0");
        values.add("-0.0");
      }
      for (String v : values) {
        out.add(Predicate.parse(name + " = " + v));
      }
      List<String> absent = ABSENT.get(name);
      out.add(Predicate.parse(name + " IN (" + String.join(", ", absent) + ")"));
      if (!one.isEmpty()) {
        out.add(Predicate.parse(name + " IN (" + absent.get(0) + ", " + one.get(one.size() - 1) + ")"));
      }
    }
    return out;
  }

  /** AND / OR of random equalities, nested once. */
  static List<Predicate> combinations(List<Predicate> leaves, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    List<Predicate> out = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      Predicate a = leaves.get(r.nextInt(leaves.size()));
      Predicate b = leaves.get(r.nextInt(leaves.size()));
      Predicate c = leaves.get(r.nextInt(leaves.size()));
      out.add(switch (i % 4) {
        case 0 -> new Predicate.And(List.of(a, b));
        case 1 -> new Predicate.Or(List.of(a, b));
        case 2 -> new Predicate.Or(List.of(a, b, c));
        default -> new Predicate.And(List.of(new Predicate.Or(List.of(a, b)), c));
      });
    }
    return out;
  }

  // ---- what parquet-java says about the chunks ----

  /** Per row group, per column path: parquet-java's metadata of the chunk. */
  static List<Map<String, ColumnChunkMetaData>> chunks(Path file) throws IOException {
    List<Map<String, ColumnChunkMetaData>> out = new ArrayList<>();
    try (ParquetFileReader r = ParquetFileReader.open(new LocalInputFile(file))) {
      for (BlockMetaData b : r.getFooter().getBlocks()) {
        Map<String, ColumnChunkMetaData> m = new LinkedHashMap<>();
        b.getColumns().forEach(c -> m.put(c.getPath().toDotString(), c));
        out.add(m);
      }
    }
    return out;
  }

  /** parquet-java's DictionaryFilter rule: by the encoding stats, else by the encodings list (PLAIN_DICTIONARY, levels). */
  static boolean dictionaryOnly(ColumnChunkMetaData c) {
    if (c.getEncodingStats() != null) {
      return !c.getEncodingStats().hasNonDictionaryEncodedPages();
    }
    Set<Encoding> e = new HashSet<>(c.getEncodings());
    return e.remove(Encoding.PLAIN_DICTIONARY) && Set.of(Encoding.RLE, Encoding.BIT_PACKED).containsAll(e);
  }

  // ---- tests ----

  @Test
  void filesHaveWhatTheTestsNeed() throws IOException {
    for (Path file : List.of(v1, v2)) {
      List<Map<String, ColumnChunkMetaData>> chunks = chunks(file);
      assertTrue(chunks.size() >= 4, file + ": row groups " + chunks.size());
      // the falling-back column: some chunk with a dictionary page yet PLAIN (or delta) pages too
      assertTrue(chunks.stream().map(m -> m.get("tail")).anyMatch(c -> c.hasDictionaryPage() && !dictionaryOnly(c)),
          file + ": no chunk fell back from its dictionary");
      assertTrue(chunks.stream().map(m -> m.get("tail")).anyMatch(RowGroupPruningTest::dictionaryOnly));
      for (String c : List.of("bloomonly", "ibloom", "dbloom", "sbloom")) {
        assertTrue(chunks.stream().allMatch(m -> m.get(c).getBloomFilterOffset() >= 0), file + " " + c);
      }
      for (String c : List.of("cat", "code", "name", "d", "f")) {
        assertTrue(chunks.stream().allMatch(m -> dictionaryOnly(m.get(c))), file + " " + c);
      }
    }
  }

  /**
   * (a) for every filter, in several modes; (b) exact dictionary and near-complete bloom pruning; (c)
   * off prunes nothing. Without encoding stats, the dictionary alone (by parquet-java's rule for such
   * files).
   */
  @Test
  void equalityFiltersOnGeneratedFiles() throws IOException {
    for (Path file : List.of(v1, v2, v1NoStats, v2NoStats)) {
      boolean stats = file == v1 || file == v2;
      Rows full = scan(file, null, NOTHING);
      assertEquals(PruningFiles.ROWS, full.rows.size());
      List<Map<String, ColumnChunkMetaData>> chunks = chunks(file);
      List<Predicate> leaves = equalities(full);
      long dictionaryPruned = 0;
      long bloomPruned = 0;
      long bloomCandidates = 0;
      long dictionaryBytes = 0;
      long bloomBytes = 0;
      int mode = 0;
      for (Predicate p : leaves) {
        String column = p.columns().iterator().next();
        Set<Long> matchingRows = matching(full, p);
        Set<Integer> matching = new TreeSet<>();
        matchingRows.forEach(k -> matching.add((int) (k >>> 40)));
        Set<Integer> dictionaryExpected = new TreeSet<>();
        int bloomable = 0;
        for (int g = 0; g < chunks.size(); g++) {
          ColumnChunkMetaData c = chunks.get(g).get(column);
          if (!matching.contains(g) && dictionaryOnly(c)) {
            dictionaryExpected.add(g);
          }
          if (!matching.contains(g) && c.getBloomFilterOffset() >= 0) {
            bloomable++;
          }
        }
        String what = file.getFileName() + " [" + p + "]";

        Rows byDictionary = check(file, full, p, matchingRows, DICTIONARY);
        assertEquals(dictionaryExpected.size(), byDictionary.metrics.rowGroupsPrunedByDictionary(), what);
        assertEquals(0, byDictionary.metrics.rowGroupsPrunedByBloomFilter(), what);
        Set<Integer> read = new TreeSet<>(full.rowGroups());
        read.removeAll(dictionaryExpected);
        assertEquals(read, byDictionary.rowGroups(), what + ": row groups read");
        dictionaryPruned += byDictionary.metrics.rowGroupsPrunedByDictionary();
        dictionaryBytes += byDictionary.metrics.dictionaryPruningBytes();
        if (!stats) {
          continue;
        }

        Rows byBloom = check(file, full, p, matchingRows, BLOOM);
        assertEquals(0, byBloom.metrics.rowGroupsPrunedByDictionary(), what);
        assertTrue(byBloom.metrics.rowGroupsPrunedByBloomFilter() <= bloomable, what);
        bloomPruned += byBloom.metrics.rowGroupsPrunedByBloomFilter();
        bloomCandidates += bloomable;
        bloomBytes += byBloom.metrics.bloomFilterBytes();

        if (mode % 4 == 0) {
          Rows off = check(file, full, p, matchingRows, NOTHING);
          assertEquals(full.rows.size(), off.rows.size(), what);
          assertEquals(0, off.metrics.rowGroupsPrunedByDictionary() + off.metrics.rowGroupsPrunedByBloomFilter());
          assertEquals(0, off.metrics.dictionaryPruningBytes() + off.metrics.bloomFilterBytes());
        }
        check(file, full, p, matchingRows, MODES.get(mode++ % MODES.size()));
      }
      String name = file.getFileName().toString();
      if (file == v2NoStats) {
        assertEquals(0, dictionaryPruned, name + ": RLE_DICTIONARY without stats cannot tell a fallback");
      } else {
        assertTrue(dictionaryPruned > 50, name + ": pruned by dictionary " + dictionaryPruned);
        assertTrue(dictionaryBytes > 0, name);
      }
      if (stats) {
        List<ScanOptions> options = List.of(DICTIONARY, BLOOM, MODES.get(0), MODES.get(1), MODES.get(2));
        List<Predicate> combinations = combinations(leaves, name.hashCode());
        for (int i = 0; i < combinations.size(); i++) {
          check(file, full, combinations.get(i), options.get(i % options.size()));
        }
        assertTrue(bloomCandidates > 50, name + ": " + bloomCandidates);
        assertTrue(bloomPruned >= bloomCandidates * 9 / 10, name + ": pruned by bloom filter " + bloomPruned + " of "
            + bloomCandidates);
        assertTrue(bloomBytes > 0, name);
      }
    }
  }

  /** Both at once: the bloom filter decides where it can, the dictionary where it cannot, counted apart. */
  @Test
  void bothTogetherAndAcrossColumns() throws IOException {
    Rows full = scan(v1, null, NOTHING);
    // an OR pruned through both counts under both (a bloom filter's false positive keeps its row group)
    Rows got = check(v1, full, Predicate.parse("cat = 999 OR bloomonly = 5555"), MODES.get(0));
    int groups = full.rowGroups().size();
    assertEquals(got.metrics.rowGroupsPrunedByDictionary(), got.metrics.rowGroupsPrunedByBloomFilter());
    assertTrue(got.metrics.rowGroupsPrunedByDictionary() >= groups - 1, "pruned " + got.metrics.rowGroupsPrunedByDictionary());
    got = check(v1, full, Predicate.parse("cat = 999 AND plain = 5"), MODES.get(1));
    assertEquals(groups, got.metrics.rowGroupsPrunedByDictionary());
    // an undecidable leaf keeps an OR's row groups
    got = check(v1, full, Predicate.parse("cat = 999 OR plain = 5"), ScanOptions.defaults());
    assertEquals(0, got.metrics.rowGroupsPrunedByDictionary());
    // IS NULL and ranges are no equalities
    got = check(v1, full, Predicate.parse("cat IS NULL OR cat > 100000"), DICTIONARY);
    assertEquals(0, got.metrics.rowGroupsPrunedByDictionary());
  }

  /** parquet-testing's files with bloom filters (parquet-mr without bloom_filter_length, parquet-rs with it). */
  @Test
  void parquetTestingBloomFilterFiles() throws Exception {
    for (String name : List.of("data_index_bloom_encoding_stats.parquet", "data_index_bloom_encoding_with_length.parquet")) {
      Path file = CorpusFiles.file(name);
      if (!Files.exists(file)) {
        file = dir.resolve(name);
        Files.copy(Path.of(getClass().getResource("/parquet-testing/" + name).toURI()), file);
      }
      Rows full = scan(file, null, NOTHING);
      assertEquals(14, full.rows.size());
      Set<String> present = new TreeSet<>();
      full.rows.values().forEach(row -> {
        if (row.get(0) != null) {
          present.add(new String(row.get(0), StandardCharsets.UTF_8));
        }
      });
      for (String v : present) {
        Predicate p = new Predicate.Compare("String", Predicate.Op.EQ, new Literal(Literal.Kind.STRING, v));
        for (ScanOptions options : List.of(BLOOM, DICTIONARY, ScanOptions.defaults())) {
          Rows got = check(file, full, p, options);
          assertEquals(0, got.metrics.rowGroupsPrunedByBloomFilter() + got.metrics.rowGroupsPrunedByDictionary());
        }
      }
      int pruned = 0;
      for (int i = 0; i < 20; i++) {
        Predicate p = Predicate.parse("String = 'absent-" + i + "'");
        Rows got = check(file, full, p, BLOOM);
        pruned += (int) got.metrics.rowGroupsPrunedByBloomFilter();
        assertTrue(got.metrics.bloomFilterBytes() > 0, name);
        // no encoding stats, RLE_DICTIONARY (parquet-rs) or PLAIN pages (parquet-mr): the dictionary decides nothing
        assertEquals(0, check(file, full, p, DICTIONARY).metrics.rowGroupsPrunedByDictionary(), name);
      }
      assertTrue(pruned >= 18, name + ": pruned " + pruned + " of 20 absent values");
    }
  }

  // ---- corrupt input ----

  /** {@code file} with a bloom filter of its own ({@code filter}, placed before the footer) for leaf {@code column} of row group 0. */
  static Path withBloomFilter(String name, Path file, String column, byte[] filter, Consumer<ColumnMetaData> edit)
      throws IOException {
    byte[] b = Files.readAllBytes(file);
    int start = FooterRewrite.footerStart(b);
    byte[] shell = new byte[start + filter.length + 8]; // an empty footer's length: withFooter puts the footer here
    System.arraycopy(b, 0, shell, 0, start);
    System.arraycopy(filter, 0, shell, start, filter.length);
    FileMetaData footer = FooterRewrite.footer(b);
    for (ColumnChunk c : footer.getRow_groups().get(0).getColumns()) {
      if (c.getMeta_data().getPath_in_schema().equals(List.of(column))) {
        c.getMeta_data().setBloom_filter_offset(start);
        c.getMeta_data().unsetBloom_filter_length();
        edit.accept(c.getMeta_data());
      }
    }
    Path out = dir.resolve(name);
    Files.write(out, FooterRewrite.withFooter(shell, footer));
    return out;
  }

  /** A BloomFilterHeader: numBytes, then the algorithm, hash and compression unions' members. */
  static byte[] bloomHeader(int numBytes, int algorithm, int hash, int compression) {
    return new CompactWriter().i32(1, numBytes)
        .struct(2).struct(algorithm).stop().stop()
        .struct(3).struct(hash).stop().stop()
        .struct(4).struct(compression).stop().stop()
        .stop().bytes();
  }

  static ParquetCorruptionException corrupt(Path file, String filter) {
    ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class,
        () -> scan(file, Predicate.parse(filter), BLOOM.toBuilder().dictionaryPruning(true).build()));
    String m = e.getMessage();
    assertTrue(m.startsWith("[" + ScanHarness.hadoopPath(file) + "]") || m.startsWith("[" + file), m);
    assertTrue(m.contains("row group 0 column "), m);
    return e;
  }

  @Test
  void corruptBloomFiltersFailClearly() throws IOException {
    byte[] bits = new byte[64];
    // a huge bitset without a stated length: more than the file holds
    Path huge = withBloomFilter("bloom-huge.parquet", v1, "bloomonly", bloomHeader(1 << 30, 1, 1, 1), m -> { });
    assertTrue(corrupt(huge, "bloomonly = 5555").getMessage().contains("left in the file"));
    // the stated length leaves less than numBytes
    byte[] small = concat(bloomHeader(1 << 20, 1, 1, 1), bits);
    Path shortLength = withBloomFilter("bloom-short.parquet", v1, "bloomonly", small, m -> m.setBloom_filter_length(small.length));
    assertTrue(corrupt(shortLength, "bloomonly = 5555").getMessage().contains("bloom_filter_length"));
    // not a power of two; negative
    Path odd = withBloomFilter("bloom-odd.parquet", v1, "bloomonly", concat(bloomHeader(48, 1, 1, 1), bits), m -> { });
    assertTrue(corrupt(odd, "bloomonly = 5555").getMessage().contains("power of two"));
    Path negative = withBloomFilter("bloom-neg.parquet", v1, "bloomonly", concat(bloomHeader(-64, 1, 1, 1), bits), m -> { });
    assertTrue(corrupt(negative, "bloomonly = 5555").getMessage().contains("power of two"));
    // outside the file, or a length past its end
    Path outside = withBloomFilter("bloom-outside.parquet", v1, "bloomonly", bits, m -> m.setBloom_filter_offset(1L << 40));
    assertTrue(corrupt(outside, "bloomonly = 5555").getMessage().contains("outside the file"));
    Path longLength = withBloomFilter("bloom-long.parquet", v1, "bloomonly", bits, m -> m.setBloom_filter_length(1 << 30));
    assertTrue(corrupt(longLength, "bloomonly = 5555").getMessage().contains("bloom_filter_length"));
    // a header that does not decode
    Path garbage = withBloomFilter("bloom-garbage.parquet", v1, "bloomonly", new byte[] {0x15, (byte) 0xff}, m -> { });
    corrupt(garbage, "bloomonly = 5555");
  }

  /**
   * A filter of a kind the format has not defined yet (another algorithm, hash or compression): not
   * used, no error. The same all-zero bitset of the known kind is used, and wrongly rules out a value
   * row group 0 holds: a valid filter is believed.
   */
  @Test
  void bloomFiltersOfUnknownKindsAreNotUsed() throws IOException {
    byte[] bits = new byte[64];
    Rows full = scan(v1, null, NOTHING);
    int column = full.columns.stream().map(ColumnDescriptor::dottedPath).toList().indexOf("bloomonly");
    String inGroup0 = full.rows.entrySet().stream().filter(e -> e.getKey() >>> 40 == 0 && e.getValue().get(column) != null)
        .map(e -> literal(full.columns.get(column), e.getValue().get(column))).findFirst().orElseThrow();
    Predicate p = Predicate.parse("bloomonly = " + inGroup0);
    for (int[] kind : new int[][] {{2, 1, 1}, {1, 2, 1}, {1, 1, 2}}) {
      Path file = withBloomFilter("bloom-kind-" + kind[0] + kind[1] + kind[2] + ".parquet", v1, "bloomonly",
          concat(bloomHeader(64, kind[0], kind[1], kind[2]), bits), m -> { });
      Rows got = check(file, scan(file, null, NOTHING), p, BLOOM);
      assertTrue(got.rowGroups().contains(0), file.toString());
    }
    Path known = withBloomFilter("bloom-zero.parquet", v1, "bloomonly", concat(bloomHeader(64, 1, 1, 1), bits), m -> { });
    assertFalse(scan(known, p, BLOOM).rowGroups().contains(0));
  }

  /** {@code column}'s dictionary page header in row group 0 of {@code file}, edited, spliced back. */
  static Path withDictionaryHeader(String name, Path file, String column, Consumer<PageHeader> edit) throws IOException {
    byte[] b = Files.readAllBytes(file);
    FileMetaData footer = FooterRewrite.footer(b);
    ColumnMetaData m = footer.getRow_groups().get(0).getColumns().stream().map(ColumnChunk::getMeta_data)
        .filter(c -> c.getPath_in_schema().equals(List.of(column))).findFirst().orElseThrow();
    int at = (int) m.getDictionary_page_offset();
    PageHeaderInfo ours = new PageHeaderDecoder(name).read(new ByteArrayInputStream(b, at, b.length - at), at, column);
    PageHeader h = Util.readPageHeader(new ByteArrayInputStream(b, at, b.length - at));
    edit.accept(h);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Util.writePageHeader(h, out);
    Path p = dir.resolve(name);
    Files.write(p, FooterRewrite.splice(b, at, ours.headerLength(), out.toByteArray()));
    return p;
  }

  @Test
  void corruptDictionaryPagesFailClearly() throws IOException {
    Path hugeClaim = withDictionaryHeader("dict-huge-claim.parquet", v1, "cat",
        h -> h.setUncompressed_page_size(Integer.MAX_VALUE));
    corrupt(hugeClaim, "cat = 999");
    // a claim within maxPageBytes' default yet beyond what SNAPPY expands its bytes to
    Path bigClaim = withDictionaryHeader("dict-big-claim.parquet", v1, "cat", h -> h.setUncompressed_page_size(1 << 24));
    assertTrue(corrupt(bigClaim, "cat = 999").getMessage().contains("can expand to"));
    Path pastFile = withDictionaryHeader("dict-past-file.parquet", v1, "cat", h -> h.setCompressed_page_size(1 << 30));
    assertTrue(corrupt(pastFile, "cat = 999").getMessage().contains("past the end of the column chunk"));
    Path entries = withDictionaryHeader("dict-entries.parquet", v1, "cat",
        h -> h.getDictionary_page_header().setNum_values(1 << 30));
    assertTrue(corrupt(entries, "cat = 999").getMessage().contains("dictionary"));
    Path encoding = withDictionaryHeader("dict-encoding.parquet", v1, "cat",
        h -> h.getDictionary_page_header().setEncoding(org.apache.parquet.format.Encoding.DELTA_BINARY_PACKED));
    assertTrue(corrupt(encoding, "cat = 999").getMessage().contains("only PLAIN dictionaries"));
  }

  /**
   * A dictionary page that runs past its chunk's end is not used, and no error: the pruning says "may
   * match" and the page readers report it if the scan reads the chunk.
   */
  @Test
  void dictionaryPagePastTheChunkIsNotUsed() throws IOException {
    Path past = withDictionaryHeader("dict-past-chunk.parquet", v1, "cat",
        h -> h.setCompressed_page_size(h.getCompressed_page_size() + 100_000));
    TrackingBufferSource buffers = new TrackingBufferSource();
    ScanMetrics metrics = new ScanMetrics();
    ScanContext context = harness.context(DICTIONARY, buffers, metrics);
    org.apache.hadoop.fs.Path path = ScanHarness.hadoopPath(past);
    FileMetadata meta = ParquetFileScanner.readMetadata(context, path);
    Filter filter = Filter.bind(Predicate.parse("cat = 999"), meta.schema());
    assertFalse(RowGroupPruning.prunes(context, meta, path, 0, filter));
    assertTrue(RowGroupPruning.prunes(context, meta, path, 1, filter));
    assertEquals(0, buffers.outstanding());
    assertEquals(1, metrics.rowGroupsPrunedByDictionary());
  }

  /**
   * Ahead of a row group's turn, a dictionary larger than its share of the memory budget is not read:
   * the decision is left to the row group's turn (null) where it would need one, and otherwise is the
   * same as at the turn.
   */
  @Test
  void aheadOfItsTurnALargeDictionaryIsLeftForTheTurn() throws IOException {
    org.apache.hadoop.fs.Path path = ScanHarness.hadoopPath(v1);
    // The least budget: its share, 120 bytes, is less than code's dictionary pages (30 longs a block).
    ScanOptions tight = DICTIONARY.toBuilder().memoryBudget(ScanOptions.MIN_BUFFER_SIZE).build();
    assertEquals(120, RowGroupPruning.aheadDictionaryBytes(tight));
    for (ScanOptions options : List.of(DICTIONARY, tight)) {
      TrackingBufferSource buffers = new TrackingBufferSource();
      ScanMetrics metrics = new ScanMetrics();
      ScanContext context = harness.context(options, buffers, metrics);
      FileMetadata meta = ParquetFileScanner.readMetadata(context, path);
      for (String where : List.of("code = 3", "bloomonly = 1 AND code = 3", "id = 5")) {
        Filter filter = Filter.bind(Predicate.parse(where), meta.schema());
        int deferred = 0;
        for (int g = 0; g < meta.rowGroups().size(); g++) {
          Boolean ahead = RowGroupPruning.prunesAhead(context, meta, path, g, filter);
          boolean atTurn = RowGroupPruning.prunes(context, meta, path, g, filter);
          if (ahead == null) {
            deferred++;
          } else {
            assertEquals(atTurn, ahead, where + " row group " + g);
          }
        }
        // code's dictionary decides "code = 3" (and the AND: bloom filters are off here); id has none.
        boolean dictionaryDecides = where.contains("code");
        assertEquals(options == tight && dictionaryDecides ? meta.rowGroups().size() : 0, deferred,
            where + ", budget " + options.io().memoryBudget());
      }
      assertEquals(0, buffers.outstanding());
    }
  }

  /** Dictionary pages from chunks in every codec and page version of the generated files leave no buffer held. */
  @Test
  void directCallsReleaseEverything() throws IOException {
    for (Path file : List.of(v1, v2)) {
      TrackingBufferSource buffers = new TrackingBufferSource();
      ScanMetrics metrics = new ScanMetrics();
      ScanContext context = harness.context(ScanOptions.defaults().toBuilder().verifyChecksums(true).build(), buffers,
          metrics);
      org.apache.hadoop.fs.Path path = ScanHarness.hadoopPath(file);
      FileMetadata meta = ParquetFileScanner.readMetadata(context, path);
      Filter filter = Filter.bind(Predicate.parse("cat IN (999, 998) OR name = 'zzz' OR d = 0.5 OR f = 1.5 OR tail = 'x'"
          + " OR bloomonly = 1 OR dbloom = 0 OR sbloom = 'y' OR code = 3"), meta.schema());
      for (int g = 0; g < meta.rowGroups().size(); g++) {
        RowGroupPruning.prunes(context, meta, path, g, filter);
      }
      assertEquals(0, buffers.outstanding(), file.toString());
      assertTrue(metrics.dictionaryPruningBytes() > 0);
      assertTrue(metrics.bytesRead() >= metrics.dictionaryPruningBytes() + metrics.bloomFilterBytes());
    }
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
