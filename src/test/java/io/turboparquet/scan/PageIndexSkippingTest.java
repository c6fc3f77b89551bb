package io.turboparquet.scan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.turboparquet.decode.HalfFloat;
import io.turboparquet.decode.ValueSink;
import io.turboparquet.filter.Literal;
import io.turboparquet.filter.Predicate.Op;
import io.turboparquet.filter.Predicate;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.FooterOptions;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.io.TrackingBufferSource;
import io.turboparquet.testing.ParquetJava118;
import io.turboparquet.testing.CorpusFiles;
import io.turboparquet.testing.FooterRewrite;
import io.turboparquet.testing.UnsignedFiles;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.parquet.format.ColumnChunk;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Page-index skipping against the same scan without it: for many random filters on generated and
 * corpus files, the rows returned include every row the filter matches (evaluated here on the full
 * scan's values) and each returned row holds exactly the full scan's values at that row; the
 * skipping metrics agree with the rows returned; a selective filter on a sorted column reads fewer
 * pages and bytes; and indexes that are absent or wrong change nothing but what is skipped.
 */
class PageIndexSkippingTest {
  @TempDir
  static Path dir;
  static Path v1;
  static Path v2;
  static ScanHarness harness;

  @BeforeAll
  static void write() throws IOException {
    v1 = dir.resolve("v1.parquet");
    v2 = dir.resolve("v2.parquet");
    PageIndexFiles.write(v1, 40_000, false, 1);
    PageIndexFiles.write(v2, 30_000, true, 2);
    harness = new ScanHarness();
  }

  @AfterAll
  static void close() {
    harness.close();
  }

  /** The option sets a filter is checked under: coalesced async (prefetch, decode ahead), streams sync, streams async. */
  static final List<ScanOptions> MODES = List.of(
      ScanOptions.builder().decodeAhead(true).batchSize(1000).build(),
      ScanOptions.builder().coalescedReads(false).asyncPageReads(false).parallelDecode(false).batchSize(777).build(),
      ScanOptions.builder().coalescedReads(false).batchBytes(3000).build());

  /** One scan's rows by (row group, row), each a list of the projected columns' raw values (null: null). */
  /** The rows returned by key, and the keys of those in batches the scan judged (no row there fails the filter). */
  record Rows(Map<Long, List<byte[]>> rows, Set<Long> judged, List<ColumnDescriptor> columns, ScanMetrics metrics,
      long fileRows) {}

  static Rows scan(Path file, Predicate filter, ScanOptions options) throws IOException {
    return scan(file, null, filter, options, FooterOptions.DEFAULT);
  }

  /** A scan of {@code projection} (null: all columns) over the footer decoded as {@code footer} asks. */
  static Rows scan(Path file, List<String> projection, Predicate filter, ScanOptions options, FooterOptions footer)
      throws IOException {
    TrackingBufferSource buffers = new TrackingBufferSource();
    ScanMetrics metrics = new ScanMetrics();
    ScanContext context = harness.context(options, buffers, metrics);
    org.apache.hadoop.fs.Path path = ScanHarness.hadoopPath(file);
    FileMetadata meta = ParquetFileScanner.readMetadata(context, path, footer);
    Map<Long, List<byte[]>> rows = new LinkedHashMap<>();
    Set<Long> judged = new HashSet<>();
    List<ColumnDescriptor> columns;
    try (ParquetFileScanner s = ParquetFileScanner.open(context, path, meta, projection, filter)) {
      columns = s.projection();
      Batch b;
      while ((b = s.next()) != null) {
        List<List<byte[]>> values = new ArrayList<>();
        for (ColumnBatch c : b.columns()) {
          values.add(c.column().isFlat() ? flat(c) : records(c));
        }
        for (int r = 0; r < b.rows(); r++) {
          List<byte[]> row = new ArrayList<>();
          for (List<byte[]> c : values) {
            row.add(c.get(r));
          }
          long key = ((long) b.rowGroup() << 40) + b.row(r);
          assertTrue(rows.put(key, row) == null, () -> "row " + key + " returned twice");
          if (b.judged()) {
            judged.add(key);
          }
        }
        s.decodeAhead();
      }
    }
    assertEquals(0, buffers.outstanding(), "buffers leaked");
    return new Rows(rows, judged, columns, metrics, meta.numRows());
  }

  private static List<byte[]> flat(ColumnBatch c) {
    List<byte[]> out = new ArrayList<>();
    for (int r = 0; r < c.rowCount(); r++) {
      out.add(value(c, r));
    }
    return out;
  }

  /** Each record of a nested column: per entry its repetition and definition level, then the value if defined. */
  private static List<byte[]> records(ColumnBatch c) {
    ByteBuf reps = c.repetitionLevels();
    ByteBuf defs = c.definitionLevels();
    List<byte[]> out = new ArrayList<>();
    java.io.ByteArrayOutputStream record = null;
    int value = 0;
    for (int e = 0; e < c.entryCount(); e++) {
      if (reps.getByte(e) == 0) {
        if (record != null) {
          out.add(record.toByteArray());
        }
        record = new java.io.ByteArrayOutputStream();
      }
      int def = defs.getByte(e) & 0xFF;
      record.write(reps.getByte(e));
      record.write(def);
      if (def == c.column().maxDefinitionLevel()) {
        byte[] v = valueAt(c.values(), value++);
        record.write(v.length);
        record.writeBytes(v);
      }
    }
    if (record != null) {
      out.add(record.toByteArray());
    }
    assertEquals(c.rowCount(), out.size(), c.column().dottedPath() + ": records in the batch");
    assertEquals(c.nonNullCount(), value, c.column().dottedPath() + ": defined values in the batch");
    return out;
  }

  /** Slot {@code i} of a batch's values. */
  private static byte[] valueAt(ValueSink v, int i) {
    if (v.isVariableWidth()) {
      int from = v.offsets().getIntLE(4 * i);
      byte[] out = new byte[v.offsets().getIntLE(4 * i + 4) - from];
      v.values().getBytes(from, out);
      return out;
    }
    byte[] out = new byte[v.width()];
    v.values().getBytes(i * v.width(), out);
    return out;
  }

  static byte[] value(ColumnBatch c, int row) {
    if (c.validity() != null && c.validity().getByte(row) == 0) {
      return null;
    }
    return valueAt(c.values(), row);
  }

  /**
   * Checks one filter: returned rows include every matching row and equal the full scan's rows;
   * the metrics count the rows left out. Returns the filtered scan.
   */
  static Rows check(Path file, Rows full, Predicate filter, ScanOptions options) throws IOException {
    Rows got = scan(file, filter, options);
    String what = file.getFileName() + " " + filter + " " + options;
    for (Map.Entry<Long, List<byte[]>> e : got.rows.entrySet()) {
      List<byte[]> expected = full.rows.get(e.getKey());
      assertTrue(expected != null, () -> what + ": returned a row the file lacks: " + e.getKey());
      for (int c = 0; c < expected.size(); c++) {
        int column = c; // messages built only on failure: built per cell, they were most of the test's time
        assertArrayEquals(expected.get(c), e.getValue().get(c), () -> what + ": row " + e.getKey() + " column "
            + full.columns.get(column).dottedPath());
      }
    }
    for (Map.Entry<Long, List<byte[]>> e : full.rows.entrySet()) {
      if (Oracle.matches(filter, full.columns, e.getValue())) {
        assertTrue(got.rows.containsKey(e.getKey()), () -> what + ": matching row " + e.getKey() + " was skipped");
      }
    }
    assertEquals(full.rows.size() - got.rows.size(), got.metrics.rowsSkipped() + got.metrics.filteredRows(),
        what + ": rows_skipped + filtered_rows");
    if (options.pruning().lateMaterialization() && full.columns.stream().allMatch(ColumnDescriptor::isFlat)) {
      // Batches the scan judged hold only matching rows, and those it cannot judge.
      for (Map.Entry<Long, List<byte[]>> e : got.rows.entrySet()) {
        assertTrue(!got.judged.contains(e.getKey()) || Oracle.matches(filter, full.columns, e.getValue())
            || !Oracle.judged(filter, full.columns, e.getValue()),
            () -> what + ": row " + e.getKey() + " does not match");
      }
    } else {
      assertEquals(0, got.metrics.filteredRows(), what + ": filtered_rows");
    }
    return got;
  }

  /**
   * A read of a row group's first rows only (an engine's LIMIT) returns exactly those rows with the
   * full scan's values, and reads only the pages holding them, in every read mode; a limit past the
   * row group's end reads it whole, and so does one on a file without offset indexes.
   */
  @Test
  void aRowLimitReadsOnlyThePagesOfTheFirstRows() throws IOException {
    Path sorted = dir.resolve("sorted-limit.parquet");
    // One row group, pages of 10,000 rows; large enough that the footer's read is not most of it.
    PageIndexFiles.writeSorted(sorted, 200_000, 10_000);
    Rows full = scan(sorted, null, ScanOptions.defaults());
    for (ScanOptions options : MODES) {
      Rows first = limited(sorted, 25_000, options);
      assertEquals(25_000, first.rows.size(), options.toString());
      for (Map.Entry<Long, List<byte[]>> e : first.rows.entrySet()) {
        assertTrue(e.getKey() < 25_000, () -> "row " + e.getKey() + " is not among the first 25,000");
        for (int c = 0; c < full.columns.size(); c++) {
          assertArrayEquals(full.rows.get(e.getKey()).get(c), e.getValue().get(c), () -> "row " + e.getKey());
        }
      }
      // The pages a filter selecting the same rows reads (key is the row), and no others: the
      // first pages of each column and what precedes them (dictionaries, one of them large).
      Rows sameRows = scan(sorted, Predicate.parse("key < 25000"), options);
      assertEquals(sameRows.metrics.bytesRead() - sameRows.metrics.pageIndexBytes(),
          first.metrics.bytesRead() - first.metrics.pageIndexBytes(), options.toString());
      assertEquals(5 * 17, first.metrics.pagesSkipped());
      assertTrue(first.metrics.bytesRead() < full.metrics.bytesRead(), options.toString());
      assertEquals(175_000, first.metrics.rowsSkipped());
      assertEquals(200_000, limited(sorted, 200_000, options).rows.size());
    }
    // Without offset indexes the chunks are read whole, and the rows after the limit passed over.
    Path unindexed = dir.resolve("unindexed-limit.parquet");
    Files.write(unindexed, FooterRewrite.editFooter(Files.readAllBytes(sorted), f -> f.getRow_groups().forEach(rg -> {
      for (ColumnChunk c : rg.getColumns()) {
        c.unsetOffset_index_offset();
        c.unsetOffset_index_length();
      }
    })));
    Rows whole = limited(unindexed, 25_000, MODES.get(0));
    assertEquals(25_000, whole.rows.size());
    assertTrue(whole.metrics.bytesRead() >= full.metrics.bytesRead(),
        "bytes read " + whole.metrics.bytesRead() + " of " + full.metrics.bytesRead());
    assertTrue(whole.metrics.pageIndexFallbacks() > 0);
  }

  /** The rows of reading each row group's first {@code rowLimit} rows through a pipeline. */
  private static Rows limited(Path file, long rowLimit, ScanOptions options) throws IOException {
    TrackingBufferSource buffers = new TrackingBufferSource();
    ScanMetrics metrics = new ScanMetrics();
    ScanContext context = harness.context(options, buffers, metrics);
    org.apache.hadoop.fs.Path path = ScanHarness.hadoopPath(file);
    FileMetadata meta = ParquetFileScanner.readMetadata(context, path);
    List<ColumnDescriptor> projection = meta.schema().project(null);
    List<RowGroupRead> reads = new ArrayList<>();
    for (int i = 0; i < meta.rowGroups().size(); i++) {
      reads.add(new RowGroupRead(path, meta, i, projection, null, options, rowLimit));
    }
    Map<Long, List<byte[]>> rows = new LinkedHashMap<>();
    try (RowGroupPipeline pipeline = new RowGroupPipeline(context, reads)) {
      for (int i = 0; i < reads.size(); i++) {
        pipeline.open(i);
        Batch b;
        while ((b = pipeline.next()) != null) {
          for (int r = 0; r < b.rows(); r++) {
            List<byte[]> row = new ArrayList<>();
            for (ColumnBatch c : b.columns()) {
              row.add(value(c, r));
            }
            rows.put(((long) b.rowGroup() << 40) + b.row(r), row);
          }
        }
      }
    }
    assertEquals(0, buffers.outstanding(), "buffers leaked");
    return new Rows(rows, Set.of(), projection, metrics, meta.numRows());
  }

  @Test
  void randomFiltersOnGeneratedFiles() throws IOException {
    long skipping = 0;
    for (Path file : List.of(v1, v2)) {
      Rows full = scan(file, null, ScanOptions.defaults());
      assertEquals(full.fileRows, full.rows.size());
      SplittableRandom random = new SplittableRandom(file.hashCode());
      for (int i = 0; i < 70; i++) {
        Predicate p = Oracle.randomPredicate(random, full, 1 + random.nextInt(3));
        Rows got = check(file, full, p, MODES.get(i % MODES.size()));
        skipping += got.metrics.pagesSkipped() > 0 ? 1 : 0;
      }
    }
    assertTrue(skipping > 20, "only " + skipping + " of 140 random filters skipped a page");
  }

  /**
   * The footer the CLI decodes for a filtered scan of some columns ({@link ParquetFileScanner#footerFor}:
   * the chunks of the projection and of the filter's columns only) gives the rows, values and
   * skipping of the whole footer.
   */
  @Test
  void aFooterOfTheProjectionAndTheFiltersColumnsScansAsTheWholeFooter() throws IOException {
    List<String> projection = List.of("s", "price");
    for (String text : List.of("key >= 60000 AND key < 60300", "mode = 'b' AND small < -4000", "day < DATE '1994-09-01'")) {
      Predicate filter = Predicate.parse(text);
      FooterOptions footer = ParquetFileScanner.footerFor(projection, filter);
      for (ScanOptions options : MODES) {
        Rows whole = scan(v1, projection, filter, options, FooterOptions.DEFAULT);
        Rows projected = scan(v1, projection, filter, options, footer);
        assertEquals(whole.rows.size(), projected.rows.size(), text + ": rows returned");
        assertTrue(whole.rows.keySet().equals(projected.rows.keySet()), text + ": other rows returned");
        for (Map.Entry<Long, List<byte[]>> e : whole.rows.entrySet()) {
          for (int c = 0; c < projection.size(); c++) {
            assertArrayEquals(e.getValue().get(c), projected.rows.get(e.getKey()).get(c), () -> text + " row " + e.getKey());
          }
        }
        assertEquals(whole.metrics.pagesSkipped(), projected.metrics.pagesSkipped(), text);
        assertEquals(whole.metrics.bytesRead(), projected.metrics.bytesRead(), text);
        assertTrue(projected.metrics.pagesSkipped() > 0, text + ": nothing skipped");
      }
    }
    // A footer without a chunk the scan needs is refused before anything is read, naming the
    // column: without the filter's column the scan would skip nothing, and say nothing of why.
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> scan(v1, projection,
        Predicate.parse("key >= 60000 AND key < 60300"), ScanOptions.defaults(), FooterOptions.projecting(projection)));
    assertTrue(refused.getMessage().contains("row group 0 column key: filtered on"), refused.getMessage());
    refused = assertThrows(IllegalArgumentException.class, () -> scan(v1, List.of("s", "d"), null,
        ScanOptions.defaults(), FooterOptions.projecting(projection)));
    assertTrue(refused.getMessage().contains("row group 0 column d: projected"), refused.getMessage());
    // Only those chunks were decoded: "d" is neither projected nor filtered.
    FileMetadata meta = ParquetFileScanner.readMetadata(harness.context(ScanOptions.defaults(),
        new TrackingBufferSource(), new ScanMetrics()), ScanHarness.hadoopPath(v1),
        ParquetFileScanner.footerFor(projection, Predicate.parse("key > 3")));
    int d = meta.schema().project(List.of("d")).get(0).index();
    int key = meta.schema().project(List.of("key")).get(0).index();
    assertThrows(IllegalStateException.class, () -> meta.rowGroups().get(0).column(d));
    assertNotNull(meta.rowGroups().get(0).column(key));
    // No column list: every chunk, still without statistics or key-values.
    for (FooterOptions all : List.of(ParquetFileScanner.footerFor(null, Predicate.parse("key > 3")),
        ParquetFileScanner.footerFor(List.of(), null))) {
      assertSame(FooterOptions.ColumnSelector.ALL, all.columns());
      assertSame(FooterOptions.ColumnSelector.NONE, all.statistics());
      assertSame(FooterOptions.NO_KEY, all.keyValues());
    }
    assertSame(FooterOptions.NO_KEY, ParquetFileScanner.footerFor(projection, null).keyValues());
  }

  @Test
  void selectiveFilterOnSortedColumnSkipsPages() throws IOException {
    Rows full = scan(v1, null, ScanOptions.defaults());
    for (ScanOptions options : MODES) {
      Rows got = check(v1, full, Predicate.parse("key >= 60000 AND key < 60300"), options);
      assertTrue(got.metrics.pagesSkipped() > 100, "pages skipped: " + got.metrics.pagesSkipped());
      assertTrue(got.rows.size() < full.rows.size() / 20, "rows returned: " + got.rows.size());
      if (options.io().coalescedReads()) { // streams may read skipped bytes into their buffer
        assertTrue(got.metrics.bytesRead() < full.metrics.bytesRead() / 4,
            "bytes read " + got.metrics.bytesRead() + " of " + full.metrics.bytesRead());
      }
      assertTrue(got.metrics.bytesSkipped() > 0);
      assertTrue(got.metrics.dataPages() < full.metrics.dataPages() / 4);
    }
  }

  @Test
  void switchedOffOrNothingToSkipReadsEverything() throws IOException {
    Rows full = scan(v1, null, ScanOptions.defaults());
    Rows off = scan(v1, Predicate.parse("key = 3"), ScanOptions.builder().pageIndexSkipping(false)
        .dictionaryPruning(false).bloomFilterPruning(false).lateMaterialization(false).build());
    assertEquals(full.rows.size(), off.rows.size());
    assertEquals(0, off.metrics.pagesSkipped());
    assertEquals(0, off.metrics.pageIndexBytes());
    Rows none = check(v1, full, Predicate.parse("key < 0"), ScanOptions.defaults());
    assertEquals(0, none.rows.size());
    assertEquals(full.rows.size(), none.metrics.rowsSkipped());
    // Drill's descending column: a range at the end of the row order
    check(v1, full, Predicate.parse("down < -70000"), ScanOptions.defaults());
  }

  /** A double column with NaN: > and <> are never decided on it, and NaN pages are never skipped. */
  @Test
  void nanNeverHidesRows() throws IOException {
    Rows full = scan(v1, null, ScanOptions.defaults());
    for (String f : List.of("d > 990", "d >= 999", "d <> 1", "d < -990", "d = 0.5", "d IS NULL", "f > 49.9",
        "f < -49.9")) {
      check(v1, full, Predicate.parse(f), ScanOptions.defaults());
    }
  }

  /**
   * parquet-testing's floating_orders_nan_count.parquet (parquet-java 1.18: each type in IEEE 754
   * total order and in the type order, with nan_count; row groups without NaN, mixed, all NaN, only
   * zeros below or above): no filter, on either side of any row group's values, loses a row.
   */
  @Test
  void nanCountsAndColumnOrdersNeverHideRows() throws Exception {
    Path file = Path.of(getClass().getResource("/parquet-testing/floating_orders_nan_count.parquet").toURI());
    Rows full = scan(file, null, ScanOptions.defaults());
    long skipped = 0;
    for (String column : List.of("float_ieee754", "float_typedef", "double_ieee754", "double_typedef")) {
      for (String op : List.of("=", "<>", "<", "<=", ">", ">=")) {
        for (String v : List.of("-6", "-3.5", "-0.0", "0", "0.5", "3.5", "5", "6")) {
          skipped += check(file, full, Predicate.parse(column + " " + op + " " + v), MODES.get(0)).metrics.rowsSkipped();
        }
      }
    }
    assertTrue(skipped > 0, "the page index skipped nothing: the test would not see a wrong skip");
  }

  /**
   * A file parquet-java 1.18.1 writes with its defaults (IEEE 754 order, nan_count, column and
   * offset indexes; row groups of numbers, of numbers and NaN, of NaN only; FLOAT, DOUBLE and
   * FLOAT16): no filter loses a row,
   * and the rows that match are as many as parquet-java's own filtered read returns.
   */
  @Test
  void parquetJava118FilesLoseNoRowAndMatchItsFilteredRead() throws Exception {
    Path file = dir.resolve("nan-parquet-java-118.parquet");
    List<String> filters = new ArrayList<>();
    for (String column : List.of("f", "d", "h")) {
      for (String op : List.of("=", "<>", "<", "<=", ">", ">=")) {
        for (String v : List.of("-5.5", "0.5", "3.5", "15.5", "25.5")) {
          filters.add(column + " " + op + " " + v);
        }
      }
    }
    // One child JVM writes the file, then counts its filtered reads.
    List<Long> parquetJava = ParquetJava118.counts(ParquetJava118.runAll(List.of(ParquetJava118.writeNanArgs(file),
        ParquetJava118.countArgs(file, filters))).get(1));
    Rows full = scan(file, null, ScanOptions.defaults());
    long skipped = 0;
    for (int i = 0; i < filters.size(); i++) {
      Predicate p = Predicate.parse(filters.get(i));
      Rows got = check(file, full, p, MODES.get(0));
      long matching = got.rows.values().stream().filter(r -> Oracle.matches(p, full.columns, r)).count();
      // parquet-java's notEq keeps nulls (null is not the value); SQL's <> does not.
      Predicate isNull = Predicate.parse(filters.get(i).charAt(0) + " IS NULL");
      long nulls = filters.get(i).contains("<>")
          ? full.rows.values().stream().filter(r -> Oracle.matches(isNull, full.columns, r)).count() : 0;
      assertEquals(parquetJava.get(i) - nulls, matching, filters.get(i));
      skipped += got.metrics.rowsSkipped();
    }
    assertTrue(skipped > 0, "the page index skipped nothing: the test would not see a wrong skip");
  }

  /**
   * Unsigned integers and FLOAT16 (UnsignedFiles: values rising across 2^31, 2^63 and zero): pages
   * skip by their unsigned and half-precision bounds, and no filter loses a row.
   */
  @Test
  void unsignedAndHalfFloatPagesSkipAndLoseNoRow() throws Exception {
    Path file = UnsignedFiles.write(dir.resolve("unsigned")).get(0);
    Rows full = scan(file, null, ScanOptions.defaults());
    Map<String, List<String>> constants = new LinkedHashMap<>();
    constants.put("u8", List.of("0", "100", "255", "256"));
    constants.put("u16", List.of("0", "30000", "65535"));
    constants.put("u32", List.of("-1", "2147483647", "2147483648", "4294967295"));
    constants.put("u64", List.of("9223372036854775807", "9223372036854775808", "18446744073709551615"));
    constants.put("h", List.of("-375", "-0.0", "0.5", "200", "375"));
    long skipped = 0;
    int i = 0;
    for (Map.Entry<String, List<String>> column : constants.entrySet()) {
      for (String op : List.of("=", "<>", "<", "<=", ">", ">=")) {
        for (String v : column.getValue()) {
          Predicate p = Predicate.parse(column.getKey() + " " + op + " " + v);
          Rows got = check(file, full, p, MODES.get(i++ % MODES.size()));
          skipped += got.metrics.rowsSkipped();
        }
      }
    }
    assertTrue(skipped > 10 * UnsignedFiles.ROWS, "rows skipped: " + skipped);
  }

  /** Page indexes removed from the footer, or pointing at the wrong bytes: same rows as without skipping. */
  @Test
  void missingOrBrokenIndexesFallBack() throws IOException {
    byte[] bytes = Files.readAllBytes(v1);
    Path none = dir.resolve("no-index.parquet");
    Files.write(none, FooterRewrite.editFooter(bytes, f -> f.getRow_groups().forEach(rg -> {
      for (ColumnChunk c : rg.getColumns()) {
        c.unsetOffset_index_offset();
        c.unsetOffset_index_length();
        c.unsetColumn_index_offset();
        c.unsetColumn_index_length();
      }
    })));
    Rows full = scan(none, null, ScanOptions.defaults());
    Rows got = check(none, full, Predicate.parse("key >= 60000 AND key < 60300"),
        ScanOptions.builder().lateMaterialization(false).build());
    assertEquals(0, got.metrics.pagesSkipped());
    assertEquals(full.rows.size(), got.rows.size());

    // One projected column without its offset index: its rows are skipped after decoding, the others' pages unread.
    Path oneLess = dir.resolve("one-less.parquet");
    Files.write(oneLess, FooterRewrite.editFooter(bytes, f -> f.getRow_groups().forEach(rg -> {
      rg.getColumns().get(5).unsetOffset_index_offset();
      rg.getColumns().get(5).unsetOffset_index_length();
    })));
    for (ScanOptions options : MODES) {
      got = check(oneLess, full, Predicate.parse("key >= 60000 AND key < 60300"), options);
      assertTrue(got.metrics.pagesSkipped() > 50);
    }

    // Offset indexes that point at column indexes (they decode as garbage or not at all), and column
    // indexes that point at offset indexes: never a crash, never a wrong row.
    Path swapped = dir.resolve("swapped.parquet");
    Files.write(swapped, FooterRewrite.editFooter(bytes, f -> f.getRow_groups().forEach(rg -> {
      for (ColumnChunk c : rg.getColumns()) {
        long o = c.getOffset_index_offset();
        int ol = c.getOffset_index_length();
        c.setOffset_index_offset(c.getColumn_index_offset());
        c.setOffset_index_length(c.getColumn_index_length());
        c.setColumn_index_offset(o);
        c.setColumn_index_length(ol);
      }
    })));
    for (String f : List.of("key >= 60000 AND key < 60300", "small IS NULL", "mode IN ('AIR', 'RAIL')")) {
      check(swapped, full, Predicate.parse(f), ScanOptions.defaults());
    }

    // An offset index whose pages are shifted by a byte: the page checks refuse it by name, or the
    // plan's checks set it aside; a clean error or the right rows, never wrong rows.
    Path shifted = dir.resolve("shifted.parquet");
    Files.write(shifted, FooterRewrite.editFooter(bytes, f -> f.getRow_groups().forEach(rg -> {
      for (ColumnChunk c : rg.getColumns()) {
        c.setOffset_index_length(c.getOffset_index_length() - 1);
      }
    })));
    check(shifted, full, Predicate.parse("key >= 60000 AND key < 60300"), ScanOptions.defaults());
  }

  /** parquet-testing files that carry page indexes: the same properties for random filters. */
  @Test
  void corpusFilesWithPageIndexes() throws IOException {
    int checked = 0;
    for (String name : List.of("alltypes_tiny_pages.parquet", "alltypes_tiny_pages_plain.parquet",
        "data_index_bloom_encoding_stats.parquet", "datapage_v1-snappy-compressed-checksum.parquet",
        "datapage_v1-uncompressed-checksum.parquet", "datapage_v2.snappy.parquet", "alltypes_plain.parquet",
        "byte_array_decimal.parquet", "int32_decimal.parquet", "fixed_length_decimal.parquet")) {
      Path file = CorpusFiles.file(name);
      if (!Files.exists(file)) {
        continue;
      }
      Rows full = scan(file, null, ScanOptions.defaults());
      if (full.columns.stream().anyMatch(c -> !c.isFlat())) {
        continue;
      }
      SplittableRandom random = new SplittableRandom(name.hashCode());
      for (int i = 0; i < 25; i++) {
        check(file, full, Oracle.randomPredicate(random, full, 1 + random.nextInt(2)), MODES.get(i % MODES.size()));
      }
      checked++;
    }
    assertTrue(checked >= 5, "corpus files checked: " + checked);
  }

  /** Evaluates filters on raw values, independently of the page-index code, and makes random ones. */
  static final class Oracle {
    private Oracle() {}

    static boolean matches(Predicate p, List<ColumnDescriptor> columns, List<byte[]> row) {
      if (p instanceof Predicate.And a) {
        return a.terms().stream().allMatch(t -> matches(t, columns, row));
      }
      if (p instanceof Predicate.Or o) {
        return o.terms().stream().anyMatch(t -> matches(t, columns, row));
      }
      String name = p instanceof Predicate.Compare c ? c.column()
          : p instanceof Predicate.In in ? in.column() : ((Predicate.IsNull) p).column();
      int i = 0;
      while (!columns.get(i).dottedPath().equals(name)) {
        i++;
      }
      ColumnDescriptor column = columns.get(i);
      byte[] raw = row.get(i);
      if (p instanceof Predicate.IsNull n) {
        return (raw == null) != n.negated();
      }
      if (raw == null) {
        return false;
      }
      if (p instanceof Predicate.In in) {
        return in.values().stream().anyMatch(l -> compare(column, raw, Op.EQ, l));
      }
      Predicate.Compare c = (Predicate.Compare) p;
      return compare(column, raw, c.op(), c.value());
    }

    /**
     * Whether the scan's row test judges {@code row} exactly: not when a filter column holds NaN,
     * or is a decimal stored as bytes (which it does not compare).
     */
    static boolean judged(Predicate p, List<ColumnDescriptor> columns, List<byte[]> row) {
      for (String name : p.columns()) {
        int i = 0;
        while (!columns.get(i).dottedPath().equals(name)) {
          i++;
        }
        ColumnDescriptor column = columns.get(i);
        byte[] raw = row.get(i);
        String logical = column.logicalType() == null ? "" : column.logicalType();
        boolean bytes = column.physicalType() == PhysicalType.BYTE_ARRAY
            || column.physicalType() == PhysicalType.FIXED_LEN_BYTE_ARRAY;
        if (bytes && logical.startsWith("DECIMAL") && !column.isFloat16()) {
          return false;
        }
        if (raw != null && (column.isFloat16() || column.physicalType() == PhysicalType.FLOAT
            || column.physicalType() == PhysicalType.DOUBLE)) {
          ByteBuffer le = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
          double v = column.isFloat16() ? HalfFloat.toFloat(le.getShort())
              : column.physicalType() == PhysicalType.FLOAT ? le.getFloat() : le.getDouble();
          if (Double.isNaN(v)) {
            return false;
          }
        }
      }
      return true;
    }

    /** NaN counts as matching >, >= and <> (engines that order NaN last) and nothing else. */
    private static boolean compare(ColumnDescriptor column, byte[] raw, Op op, Literal literal) {
      ByteBuffer le = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
      String logical = column.logicalType() == null ? "" : column.logicalType();
      int cmp;
      switch (column.isFloat16() ? PhysicalType.DOUBLE : column.physicalType()) {
        case FLOAT, DOUBLE -> {
          double v = column.isFloat16() ? HalfFloat.toFloat(le.getShort())
              : column.physicalType().name().equals("FLOAT") ? le.getFloat() : le.getDouble();
          if (Double.isNaN(v)) {
            return op == Op.GT || op == Op.GE || op == Op.NE;
          }
          double l = Double.parseDouble(literal.text());
          cmp = v < l ? -1 : v > l ? 1 : 0;
        }
        case INT32, INT64, BOOLEAN -> {
          boolean unsigned = logical.startsWith("UINT") || logical.matches("INTEGER\\(\\d+,false\\)");
          long v = column.physicalType().name().equals("INT32") ? (unsigned ? le.getInt() & 0xFFFF_FFFFL : le.getInt())
              : column.physicalType().name().equals("INT64") ? le.getLong() : raw[0];
          BigDecimal value = logical.startsWith("DECIMAL") ? BigDecimal.valueOf(v, scale(logical))
              : unsigned ? new BigDecimal(Long.toUnsignedString(v)) : BigDecimal.valueOf(v);
          BigDecimal l = logical.equals("DATE") ? BigDecimal.valueOf(LocalDate.parse(literal.text()).toEpochDay())
              : literal.kind() == Literal.Kind.BOOLEAN ? BigDecimal.valueOf(literal.text().equals("true") ? 1 : 0)
              : new BigDecimal(literal.text());
          cmp = value.compareTo(l);
        }
        default -> {
          if (logical.startsWith("DECIMAL")) {
            cmp = new BigDecimal(new BigInteger(raw), scale(logical)).compareTo(new BigDecimal(literal.text()));
          } else {
            cmp = Arrays.compareUnsigned(raw, literal.text().getBytes(StandardCharsets.UTF_8));
          }
        }
      }
      return op.holds(cmp);
    }

    private static int scale(String decimal) {
      return Integer.parseInt(decimal.substring(decimal.indexOf(',') + 1, decimal.length() - 1));
    }

    /** A random AND/OR of {@code leaves} conditions on filterable columns, literals taken from the file's values. */
    static Predicate randomPredicate(SplittableRandom r, Rows full, int leaves) {
      List<Predicate> terms = new ArrayList<>();
      for (int i = 0; i < leaves; i++) {
        terms.add(leaf(r, full));
      }
      if (terms.size() == 1) {
        return terms.get(0);
      }
      return r.nextBoolean() ? new Predicate.And(terms) : new Predicate.Or(terms);
    }

    private static Predicate leaf(SplittableRandom r, Rows full) {
      List<Long> keys = new ArrayList<>(full.rows.keySet());
      for (int attempt = 0; attempt < 100; attempt++) {
        int c = r.nextInt(full.columns.size());
        ColumnDescriptor column = full.columns.get(c);
        String name = column.dottedPath();
        int kind = r.nextInt(10);
        if (kind == 0) {
          return new Predicate.IsNull(name, r.nextBoolean());
        }
        List<Literal> values = new ArrayList<>();
        for (int k = 0; k < (kind == 1 ? 1 + r.nextInt(4) : 1); k++) {
          byte[] raw = full.rows.get(keys.get(r.nextInt(keys.size()))).get(c);
          Literal l = raw == null ? null : literal(column, raw);
          if (l != null) {
            values.add(l);
          }
        }
        if (values.isEmpty()) {
          continue;
        }
        if (kind == 1) {
          return new Predicate.In(name, values);
        }
        return new Predicate.Compare(name, Op.values()[r.nextInt(Op.values().length)], values.get(0));
      }
      return new Predicate.IsNull(full.columns.get(0).dottedPath(), true);
    }

    /** The value as a filter literal, or null for types the filter language has no literal for. */
    private static Literal literal(ColumnDescriptor column, byte[] raw) {
      ByteBuffer le = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
      String logical = column.logicalType() == null ? "" : column.logicalType();
      switch (column.physicalType()) {
        case INT32:
          if (logical.equals("DATE")) {
            return new Literal(Literal.Kind.DATE, LocalDate.ofEpochDay(le.getInt()).toString());
          }
          if (logical.startsWith("DECIMAL")) {
            return new Literal(Literal.Kind.NUMBER, BigDecimal.valueOf(le.getInt(), scale(logical)).toPlainString());
          }
          return logical.isEmpty() || logical.startsWith("INTEGER(") && logical.endsWith("true)")
              ? new Literal(Literal.Kind.NUMBER, Integer.toString(le.getInt())) : null;
        case INT64:
          if (logical.startsWith("DECIMAL")) {
            return new Literal(Literal.Kind.NUMBER, BigDecimal.valueOf(le.getLong(), scale(logical)).toPlainString());
          }
          return logical.isEmpty() || logical.startsWith("TIMESTAMP")
              ? new Literal(Literal.Kind.NUMBER, Long.toString(le.getLong())) : null;
        case FLOAT:
          float f = le.getFloat();
          return Float.isNaN(f) ? null : new Literal(Literal.Kind.NUMBER, Float.toString(f));
        case DOUBLE:
          double d = le.getDouble();
          return Double.isNaN(d) || Double.isInfinite(d) ? null : new Literal(Literal.Kind.NUMBER, Double.toString(d));
        case BOOLEAN:
          return new Literal(Literal.Kind.BOOLEAN, raw[0] != 0 ? "true" : "false");
        case BYTE_ARRAY:
        case FIXED_LEN_BYTE_ARRAY:
          if (logical.startsWith("DECIMAL")) {
            return new Literal(Literal.Kind.NUMBER, new BigDecimal(new BigInteger(raw), scale(logical)).toPlainString());
          }
          String s = new String(raw, StandardCharsets.UTF_8);
          return Arrays.equals(s.getBytes(StandardCharsets.UTF_8), raw) && (logical.equals("STRING") || logical.isEmpty())
              ? new Literal(Literal.Kind.STRING, s) : null;
        default:
          return null;
      }
    }
  }
}
