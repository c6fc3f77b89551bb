package io.turboparquet.scan;

import static io.turboparquet.scan.InMemoryPages.dictionaryIndices;
import static io.turboparquet.scan.InMemoryPages.ints;
import static io.turboparquet.scan.InMemoryPages.le;
import static io.turboparquet.scan.InMemoryPages.location;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.decode.ValueSink;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.Encoding;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.format.Repetition;
import io.turboparquet.io.TrackingBufferSource;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link PageCursor} over in-memory pages: dictionary, levels, row positions and the checks on them. */
class PageCursorTest {
  private static final ColumnDescriptor OPTIONAL_INT = InMemoryPages.flat(PhysicalType.INT32, 1);
  private static final ColumnDescriptor REQUIRED_INT = InMemoryPages.flat(PhysicalType.INT32, 0);
  private static final ColumnDescriptor LIST = InMemoryPages.list(PhysicalType.INT32);

  private final TrackingBufferSource source = new TrackingBufferSource();
  private final ScanMetrics metrics = new ScanMetrics();

  @AfterEach
  void nothingLeaked() {
    assertEquals(0, source.outstanding(), "buffers leaked");
  }

  private PageCursor cursor(ColumnDescriptor column, InMemoryPages pages) {
    return cursor(column, pages, ScanOptions.defaults());
  }

  private PageCursor cursor(ColumnDescriptor column, InMemoryPages pages, ScanOptions options) {
    return new PageCursor(location(column), pages, source, options, metrics);
  }

  @Test
  void loadsTheDictionaryAndEachDataPagesLevelsAndValues() throws IOException {
    InMemoryPages pages = new InMemoryPages(source)
        .dictionary(2, ints(7, 9))
        .v1(Encoding.RLE_DICTIONARY, 0, null, 1, new int[] {1, 0, 1, 1}, dictionaryIndices(1, 0, 1, 1))
        .v1(Encoding.PLAIN, 0, null, 1, new int[] {0, 1}, ints(5));
    try (PageCursor c = cursor(OPTIONAL_INT, pages); ValueSink sink = new ValueSink(source, 4)) {
      assertTrue(c.nextDataPage());
      assertEquals(1, metrics.dictionaryPages());
      assertEquals(1, metrics.dataPages());
      assertEquals(200, c.pageOffset());
      assertEquals(4, c.pageEntries());
      assertEquals(0, c.entryIndex());
      assertEquals(0, c.pageFirstRow());
      assertEquals(4, c.pageEndRow());
      assertArrayEquals(new byte[] {1, 0, 1, 1}, Arrays.copyOf(c.defs(), 4));
      assertEquals(3, c.definedIn(0, 4));
      assertEquals(1, c.definedIn(1, 3));
      c.decoder().read(sink, 3);
      assertEquals(List.of(7, 9, 9), slots(sink, 3));
      c.advance(4);
      assertEquals(4, c.entryIndex());

      assertTrue(c.nextDataPage());
      assertEquals(2, metrics.dataPages());
      assertEquals(4, c.pageFirstRow());
      assertEquals(6, c.pageEndRow());
      sink.reset();
      c.decoder().read(sink, 1);
      assertEquals(List.of(5), slots(sink, 1));
      c.advance(2);
      assertFalse(c.nextDataPage());
      assertEquals(0, c.pageEntries());
      assertEquals(3, pages.taken());
    }
    assertTrue(pages.closed());
  }

  @Test
  void passesOverFlatPagesBeforeTheTargetRowUndecoded() throws IOException {
    InMemoryPages pages = new InMemoryPages(source)
        .v1Required(Encoding.PLAIN, 3, ints(0, 1, 2))
        .v1Required(Encoding.PLAIN, 3, ints(3, 4, 5))
        .v1Required(Encoding.PLAIN, 3, ints(6, 7, 8));
    try (PageCursor c = cursor(REQUIRED_INT, pages); ValueSink sink = new ValueSink(source, 4)) {
      assertTrue(c.nextDataPage(7));
      assertEquals(1, metrics.dataPages(), "the pages before row 7 are not decompressed or started");
      assertEquals(6, c.pageFirstRow());
      assertEquals(12, c.bytesDecompressed());
      c.skipEntriesTo(1);
      assertEquals(1, c.entryIndex());
      c.decoder().read(sink, 2);
      assertEquals(List.of(7, 8), slots(sink, 2));
    }
  }

  @Test
  void checkExhaustedRefusesValuesLeftInTheChunk() throws IOException {
    InMemoryPages pages = new InMemoryPages(source)
        .v1Required(Encoding.PLAIN, 2, ints(1, 2))
        .v1Required(Encoding.PLAIN, 1, ints(3));
    try (PageCursor c = cursor(REQUIRED_INT, pages)) {
      assertTrue(c.nextDataPage());
      c.skipEntriesTo(2);
      ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class, c::checkExhausted);
      assertEquals("[memory.parquet] row group 0 column x, page at offset 200: the row group's rows end but the"
          + " column chunk holds more values", e.getMessage());
    }
    try (PageCursor c = cursor(REQUIRED_INT, new InMemoryPages(source).v1Required(Encoding.PLAIN, 1, ints(1)))) {
      assertTrue(c.nextDataPage());
      c.skipEntriesTo(1);
      c.checkExhausted(); // nothing left
    }
  }

  @Test
  void definitionLevelAboveTheMaximumIsCorruption() {
    // optional group g { optional int32 x }: maximum 2, stored in 2 bits, so 3 can be written.
    ColumnDescriptor column = new ColumnDescriptor(0, List.of("g", "x"), PhysicalType.INT32, 0, Repetition.OPTIONAL,
        2, 0, null);
    InMemoryPages pages = new InMemoryPages(source).v1(Encoding.PLAIN, 0, null, 3, new int[] {2, 3, 2}, ints(1, 2));
    assertCorrupt(column, pages, "page at offset 100 has a definition level above the column's maximum 2");
  }

  @Test
  void repetitionLevelAboveTheMaximumIsCorruption() {
    ColumnDescriptor column = new ColumnDescriptor(0, List.of("a", "b"), PhysicalType.INT32, 0, Repetition.REPEATED,
        2, 2, null);
    InMemoryPages pages = new InMemoryPages(source)
        .v1(Encoding.PLAIN, 3, new int[] {0, 3}, 2, new int[] {2, 2}, ints(1, 2));
    assertCorrupt(column, pages, "page at offset 100 has a repetition level above the column's maximum 2");
  }

  @Test
  void firstPageMustStartARecord() {
    InMemoryPages pages = new InMemoryPages(source)
        .v1(Encoding.PLAIN, 1, new int[] {1, 0}, 2, new int[] {2, 2}, ints(1, 2));
    assertCorrupt(LIST, pages, "the first data page at offset 100 starts with repetition level 1, not at a record");
  }

  @Test
  void levelLengthPastThePageIsCorruption() {
    byte[] body = new byte[8];
    System.arraycopy(le(1000), 0, body, 0, 4);
    InMemoryPages pages = new InMemoryPages(source).v1Required(Encoding.PLAIN, 1, body);
    assertCorrupt(OPTIONAL_INT, pages, "page at offset 100: RLE levels length 1000 exceeds the page (4 bytes left)");
  }

  @Test
  void v2HeaderMustAgreeWithItsLevels() {
    InMemoryPages pages = new InMemoryPages(source)
        .v2(Encoding.PLAIN, 0, null, 1, new int[] {1, 0, 1}, ints(1, 2), 0, 3);
    assertCorrupt(OPTIONAL_INT, pages, "V2 page at offset 100 says 0 nulls in 3 rows, its levels hold 1 in 3");
  }

  @Test
  void offsetIndexRowsMustMatchANestedPagesRecords() {
    InMemoryPages pages = new InMemoryPages(source)
        .v1(Encoding.PLAIN, 1, new int[] {0, 1, 0}, 2, new int[] {2, 2, 2}, ints(1, 2, 3)).indexed(0, 3);
    assertCorrupt(LIST, pages, "the offset index gives the page 3 rows from a record start; its levels hold 2");
  }

  @Test
  void pagesOfARowRangeMustFollowOn() throws IOException {
    InMemoryPages pages = new InMemoryPages(source)
        .v1Required(Encoding.PLAIN, 2, ints(1, 2)).indexed(0, 2)
        .v1Required(Encoding.PLAIN, 2, ints(3, 4)).indexed(5, 2);
    try (PageCursor c = cursor(REQUIRED_INT, pages)) {
      assertTrue(c.nextDataPage());
      c.skipEntriesTo(2);
      ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class, c::nextDataPage);
      assertTrue(e.getMessage().endsWith("page at offset 200: the page starts at row 5 where row 2 comes next"),
          e.getMessage());
    }
  }

  @Test
  void pageOverMaxPageEntriesIsRefusedBeforeItsLevelsAreDecoded() {
    InMemoryPages pages = new InMemoryPages(source).v1(Encoding.PLAIN, 0, null, 1, new int[] {1, 1, 1}, ints(1, 2, 3));
    ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class, () -> {
      try (PageCursor c = cursor(OPTIONAL_INT, pages, ScanOptions.builder().maxPageEntries(2).build())) {
        c.nextDataPage();
      }
    });
    assertTrue(e.getMessage().contains("page at offset 100 claims 3 values, more than the limit of 2 (option"
        + " maxPageEntries)"), e.getMessage());
  }

  private void assertCorrupt(ColumnDescriptor column, InMemoryPages pages, String expected) {
    ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class, () -> {
      try (PageCursor c = cursor(column, pages)) {
        c.nextDataPage();
      }
    });
    assertTrue(e.getMessage().startsWith("[memory.parquet] row group 0 column " + column.dottedPath()),
        e.getMessage());
    assertTrue(e.getMessage().contains(expected), e.getMessage());
  }

  private static List<Integer> slots(ValueSink sink, int n) {
    Integer[] out = new Integer[n];
    for (int i = 0; i < n; i++) {
      out[i] = sink.values().getIntLE(4 * i);
    }
    return List.of(out);
  }
}
