package io.turboparquet.scan;

import static io.turboparquet.scan.PageIndexSkippingTest.scan;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.filter.Predicate;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.scan.PageIndexSkippingTest.Rows;
import io.turboparquet.testing.FooterRewrite;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.OffsetIndex;
import org.apache.parquet.format.PageLocation;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Page-index skipping with nested columns projected: each nested column reads only the pages
 * that overlap the filter's rows and passes over the records before each range by their
 * repetition levels. Checked against the full scan record by record (levels and values), on
 * parquet-java files whose nested pages break at other rows than the flat ones', V1 and V2, in
 * the three read modes (one with byte-limited batches, so nested columns carry records over).
 */
public class NestedPageSkippingTest {
  static final MessageType SCHEMA = MessageTypeParser.parseMessageType("message nested {"
      + " required int64 key;"
      + " optional group tags (LIST) { repeated group list { optional binary element (STRING); } }"
      + " optional group point { optional double x; repeated int32 ys; }"
      + " required int32 n; }");

  @TempDir static Path dir;
  static Path v1;
  static Path v2;

  @BeforeAll
  static void write() throws IOException {
    v1 = dir.resolve("nested-v1.parquet");
    v2 = dir.resolve("nested-v2.parquet");
    write(v1, 30_000, false, 3);
    write(v2, 20_000, true, 4);
    PageIndexSkippingTest.harness = new ScanHarness();
  }

  @AfterAll
  static void close() {
    PageIndexSkippingTest.harness.close();
  }

  /** key = row, sorted; lists of 0-5 strings (some null), structs with a repeated field, nulls at every level. */
  public static void write(Path file, int rows, boolean v2, long seed) throws IOException {
    SplittableRandom r = new SplittableRandom(seed);
    SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
    try (ParquetWriter<Group> w = PageIndexFiles.writer(file, SCHEMA, v2)
        .withPageRowCountLimit(400)
        .withPageSize(2048) // the string lists fill pages long before 400 rows
        .withMinRowCountForPageSizeCheck(1) // every column's pages end where they fill, so the flat
        .withMaxRowCountForPageSizeCheck(1) // key's pages (where ranges start) end inside nested ones
        .withRowGroupSize(192L * 1024)
        .build()) {
      for (int i = 0; i < rows; i++) {
        Group g = groups.newGroup();
        g.add("key", (long) i);
        if (r.nextInt(10) != 0) {
          Group tags = g.addGroup("tags");
          int n = r.nextInt(6);
          for (int k = 0; k < n; k++) {
            Group element = tags.addGroup("list");
            if (r.nextInt(8) != 0) {
              element.add("element", "t" + i + "-" + k + "-" + Long.toString(r.nextLong(1L << 30), 36));
            }
          }
        }
        if (r.nextInt(7) != 0) {
          Group point = g.addGroup("point");
          if (r.nextInt(5) != 0) {
            point.add("x", r.nextDouble(-100, 100));
          }
          int n = r.nextInt(5);
          for (int k = 0; k < n; k++) {
            point.add("ys", r.nextInt(-1000, 1000));
          }
        }
        g.add("n", r.nextInt(-500, 500));
        w.write(g);
      }
    }
  }

  private static long key(List<byte[]> row) {
    return ByteBuffer.wrap(row.get(0)).order(ByteOrder.LITTLE_ENDIAN).getLong();
  }

  private static int n(List<byte[]> row) {
    return ByteBuffer.wrap(row.get(4)).order(ByteOrder.LITTLE_ENDIAN).getInt();
  }

  /**
   * Checks a filtered scan against the full one: every row it keeps comes back, every row that
   * comes back equals the full scan's in every column, and the rows left out are counted.
   */
  static Rows check(Path file, Rows full, String filter, java.util.function.Predicate<List<byte[]>> keeps,
      ScanOptions options) throws IOException {
    Rows got = scan(file, Predicate.parse(filter), options);
    String what = file.getFileName() + " " + filter + " " + options;
    for (Map.Entry<Long, List<byte[]>> e : got.rows().entrySet()) {
      List<byte[]> expected = full.rows().get(e.getKey());
      assertTrue(expected != null, what + ": returned a row the file lacks: " + e.getKey());
      for (int c = 0; c < expected.size(); c++) {
        assertArrayEquals(expected.get(c), e.getValue().get(c), what + ": row " + e.getKey() + " column " + c);
      }
    }
    for (Map.Entry<Long, List<byte[]>> e : full.rows().entrySet()) {
      if (keeps.test(e.getValue())) {
        assertTrue(got.rows().containsKey(e.getKey()), what + ": lost matching row " + e.getKey());
      }
    }
    assertEquals(full.rows().size() - got.rows().size(), got.metrics().rowsSkipped(), what + ": rows skipped");
    return got;
  }

  @Test
  void rangesOnTheSortedKeySkipNestedPagesAndReturnTheFullScansRecords() throws IOException {
    for (Path file : List.of(v1, v2)) {
      Rows full = scan(file, null, ScanOptions.defaults());
      long rows = full.rows().size();
      SplittableRandom random = new SplittableRandom(file.hashCode());
      for (int i = 0; i < 24; i++) {
        long a = random.nextLong(rows);
        long b = Math.min(rows, a + 1 + random.nextLong(i % 3 == 0 ? 50 : 3_000));
        long c = random.nextLong(rows);
        String filter;
        java.util.function.Predicate<List<byte[]>> keeps;
        switch (i % 4) {
          case 0 -> {
            filter = "key >= " + a + " AND key < " + b;
            keeps = row -> key(row) >= a && key(row) < b;
          }
          case 1 -> {
            filter = "key < " + a % 700 + " OR key >= " + b + " AND key < " + (b + 90);
            keeps = row -> key(row) < a % 700 || key(row) >= b && key(row) < b + 90;
          }
          case 2 -> {
            filter = "key IN (" + a + ", " + c + ", " + (rows - 1) + ")";
            keeps = row -> key(row) == a || key(row) == c || key(row) == rows - 1;
          }
          default -> {
            filter = "key >= " + a + " AND key <= " + b + " AND n > 0";
            keeps = row -> key(row) >= a && key(row) <= b && n(row) > 0;
          }
        }
        ScanOptions options = PageIndexSkippingTest.MODES.get(i % PageIndexSkippingTest.MODES.size());
        Rows got = check(file, full, filter, keeps, options);
        assertEquals(0, got.metrics().pageIndexFallbacks(), filter);
        assertTrue(got.metrics().pagesSkipped() > 0, file.getFileName() + " " + filter + ": no page skipped");
        assertTrue(got.metrics().dataPages() < full.metrics().dataPages() / 2,
            filter + ": decoded " + got.metrics().dataPages() + " of " + full.metrics().dataPages() + " pages");
      }
    }
  }

  /**
   * A nested column without its offset index: read whole, its records before each range passed
   * over after their levels are decoded (counted as a fallback); the other columns still skip pages.
   */
  @Test
  void aNestedColumnWithoutItsOffsetIndexPassesOverRecordsAfterDecoding() throws IOException {
    Path oneLess = dir.resolve("nested-one-less.parquet");
    Files.write(oneLess, FooterRewrite.editFooter(Files.readAllBytes(v1), f -> f.getRow_groups().forEach(rg -> {
      rg.getColumns().get(3).unsetOffset_index_offset(); // point.ys
      rg.getColumns().get(3).unsetOffset_index_length();
    })));
    Rows full = scan(oneLess, null, ScanOptions.defaults());
    for (ScanOptions options : PageIndexSkippingTest.MODES) {
      Rows got = check(oneLess, full, "key >= 12345 AND key < 12400 OR key >= 29990",
          row -> key(row) >= 12345 && key(row) < 12400 || key(row) >= 29990, options);
      assertTrue(got.metrics().pageIndexFallbacks() > 0);
      assertTrue(got.metrics().pagesSkipped() > 0);
    }
  }

  /** The nested columns' pages break at other rows than the key's: otherwise this test would not reach the record skipping. */
  @Test
  void nestedPagesBreakAtOtherRowsThanFlatOnes() throws IOException {
    byte[] bytes = Files.readAllBytes(v1);
    var footer = FooterRewrite.footer(bytes);
    ColumnChunk key = footer.getRow_groups().get(0).getColumns().get(0);
    ColumnChunk tags = footer.getRow_groups().get(0).getColumns().get(1);
    assertTrue(offsetIndex(bytes, tags).getPage_locations().size() > 2 * offsetIndex(bytes, key).getPage_locations().size());
  }

  /**
   * A nested page that the offset index says starts two rows later than it does (a valid-looking
   * index): the records of the pages around it disagree with the index, and the scan fails with an
   * error naming the column, never with shifted rows.
   */
  @Test
  void anOffsetIndexThatMisplacesANestedPageIsRefused() throws IOException {
    byte[] bytes = Files.readAllBytes(v1);
    var footer = FooterRewrite.footer(bytes);
    ColumnChunk tags = footer.getRow_groups().get(0).getColumns().get(1);
    OffsetIndex index = offsetIndex(bytes, tags);
    PageLocation page = index.getPage_locations().get(3);
    page.setFirst_row_index(page.getFirst_row_index() + 2);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Util.writeOffsetIndex(index, out);
    assertEquals(tags.getOffset_index_length(), out.size()); // the same varint length: splice in place
    Path bad = dir.resolve("misplaced.parquet");
    byte[] edited = bytes.clone();
    System.arraycopy(out.toByteArray(), 0, edited, (int) tags.getOffset_index_offset(), out.size());
    Files.write(bad, edited);
    long from = page.getFirst_row_index() - 40;
    for (ScanOptions options : PageIndexSkippingTest.MODES) {
      ParquetCorruptionException e = org.junit.jupiter.api.Assertions.assertThrows(ParquetCorruptionException.class,
          () -> scan(bad, Predicate.parse("key >= " + from + " AND key < " + (from + 120)), options));
      assertTrue(e.getMessage().contains("tags.list.element") && e.getMessage().contains("offset index"),
          e.getMessage());
    }
  }

  private static OffsetIndex offsetIndex(byte[] file, ColumnChunk chunk) throws IOException {
    return Util.readOffsetIndex(new java.io.ByteArrayInputStream(file, (int) chunk.getOffset_index_offset(),
        chunk.getOffset_index_length()));
  }
}
