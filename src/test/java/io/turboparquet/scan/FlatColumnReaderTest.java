package io.turboparquet.scan;

import static io.turboparquet.scan.InMemoryPages.bytes;
import static io.turboparquet.scan.InMemoryPages.dictionaryIndices;
import static io.turboparquet.scan.InMemoryPages.intValues;
import static io.turboparquet.scan.InMemoryPages.ints;
import static io.turboparquet.scan.InMemoryPages.location;
import static io.turboparquet.scan.InMemoryPages.stringValues;
import static io.turboparquet.scan.InMemoryPages.strings;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.Encoding;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.io.TrackingBufferSource;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link FlatColumnReader} over in-memory pages: values, validity, batch boundaries, carry-over and seeks. */
class FlatColumnReaderTest {
  private static final ColumnDescriptor OPTIONAL_INT = InMemoryPages.flat(PhysicalType.INT32, 1);
  private static final ColumnDescriptor REQUIRED_INT = InMemoryPages.flat(PhysicalType.INT32, 0);
  private static final long NO_LIMIT = Long.MAX_VALUE;

  private final TrackingBufferSource source = new TrackingBufferSource();
  private final ScanMetrics metrics = new ScanMetrics();

  @AfterEach
  void nothingLeaked() {
    assertEquals(0, source.outstanding(), "buffers leaked");
  }

  /** Rows 1, null, 3, null | 5, 6, 7 in two pages. */
  private InMemoryPages optionalInts() {
    return new InMemoryPages(source)
        .v1(Encoding.PLAIN, 0, null, 1, new int[] {1, 0, 1, 0}, ints(1, 3))
        .v1(Encoding.PLAIN, 0, null, 1, new int[] {1, 1, 1}, ints(5, 6, 7));
  }

  private BatchReader reader(ColumnDescriptor column, InMemoryPages pages) {
    return pages.reader(column, metrics);
  }

  private static void close(BatchReader reader) {
    InMemoryPages.close(reader);
  }

  @Test
  void readsValuesAndValidityAcrossPages() throws IOException {
    BatchReader r = reader(OPTIONAL_INT, optionalInts());
    try {
      assertTrue(r instanceof FlatColumnReader, r.getClass().getName());
      ColumnBatch b = r.readBatch(0, 5, NO_LIMIT);
      assertEquals(5, b.rowCount());
      assertEquals(5, b.entryCount());
      assertEquals(3, b.nonNullCount());
      assertArrayEquals(new int[] {1, 0, 3, 0, 5}, intValues(b));
      assertArrayEquals(new int[] {1, 0, 1, 0, 1}, bytes(b.validity(), 5));
      assertNull(b.repetitionLevels());

      b = r.readBatch(5, 5, NO_LIMIT);
      assertEquals(2, b.rowCount(), "the chunk ends");
      assertArrayEquals(new int[] {6, 7}, intValues(b));
      assertEquals(0, r.readBatch(7, 5, NO_LIMIT).rowCount());
    } finally {
      close(r);
    }
  }

  /**
   * A flat column under an optional group (maximum definition level 2) gives each row's level
   * beside its validity, also for rows carried over to the next batch: which of the two is null is
   * what VARIANT reconstruction and group assembly read.
   */
  @Test
  void levelsAboveOneAreKeptPerRowAndCarriedOver() throws IOException {
    ColumnDescriptor twoLevels = InMemoryPages.flat(PhysicalType.INT32, 2);
    InMemoryPages pages = new InMemoryPages(source)
        .v1(Encoding.PLAIN, 0, null, 2, new int[] {2, 1, 0, 2}, ints(1, 4))
        .v1(Encoding.PLAIN, 0, null, 2, new int[] {0, 2, 1}, ints(6));
    BatchReader r = reader(twoLevels, pages);
    try {
      ColumnBatch b = r.readBatch(0, 5, NO_LIMIT);
      assertArrayEquals(new int[] {2, 1, 0, 2, 0}, bytes(b.definitionLevels(), 5));
      assertArrayEquals(new int[] {1, 0, 0, 1, 0}, bytes(b.validity(), 5));
      r.keep(2);
      b = r.readBatch(2, 5, NO_LIMIT);
      assertEquals(5, b.rowCount());
      assertArrayEquals(new int[] {0, 2, 0, 2, 1}, bytes(b.definitionLevels(), 5));
      assertArrayEquals(new int[] {0, 1, 0, 1, 0}, bytes(b.validity(), 5));
      assertArrayEquals(new int[] {0, 4, 0, 6, 0}, intValues(b));
    } finally {
      close(r);
    }
    BatchReader one = reader(OPTIONAL_INT, optionalInts());
    try {
      assertNull(one.readBatch(0, 5, NO_LIMIT).definitionLevels(), "a level of at most one is the validity");
    } finally {
      close(one);
    }
  }

  @Test
  void keptRowsStartTheNextBatch() throws IOException {
    BatchReader r = reader(OPTIONAL_INT, optionalInts());
    try {
      r.readBatch(0, 5, NO_LIMIT);
      r.keep(2);
      assertEquals(2, r.batch.rowCount());
      assertEquals(1, r.batch.nonNullCount());
      assertFalse(r.canSkipTo(4), "rows 2..4 are carried over");
      assertTrue(r.canSkipTo(5));

      ColumnBatch b = r.readBatch(2, 4, NO_LIMIT);
      assertEquals(4, b.rowCount());
      assertEquals(3, b.nonNullCount());
      assertArrayEquals(new int[] {3, 0, 5, 6}, intValues(b));
      assertArrayEquals(new int[] {1, 0, 1, 1}, bytes(b.validity(), 4));

      b = r.readBatch(6, 4, NO_LIMIT);
      assertArrayEquals(new int[] {7}, intValues(b));
    } finally {
      close(r);
    }
  }

  @Test
  void droppedCarryLetsTheScanSkipAhead() throws IOException {
    BatchReader r = reader(OPTIONAL_INT, optionalInts());
    try {
      r.readBatch(0, 3, NO_LIMIT);
      r.keep(1);
      r.dropCarriedRows();
      ColumnBatch b = r.readBatch(5, 4, NO_LIMIT);
      assertArrayEquals(new int[] {6, 7}, intValues(b));
    } finally {
      close(r);
    }
  }

  @Test
  void seekPassesOverWholePagesAndSkipsWithinOne() throws IOException {
    InMemoryPages pages = new InMemoryPages(source)
        .v1Required(Encoding.PLAIN, 3, ints(0, 1, 2))
        .v1Required(Encoding.PLAIN, 3, ints(3, 4, 5))
        .v1Required(Encoding.PLAIN, 3, ints(6, 7, 8));
    BatchReader r = reader(REQUIRED_INT, pages);
    try {
      ColumnBatch b = r.readBatch(1, 2, NO_LIMIT);
      assertArrayEquals(new int[] {1, 2}, intValues(b));
      b = r.readBatch(7, 5, NO_LIMIT);
      assertArrayEquals(new int[] {7, 8}, intValues(b));
      assertNull(b.validity(), "a required column has no validity");
      assertEquals(2, metrics.dataPages(), "the middle page is passed over undecoded");
    } finally {
      close(r);
    }
  }

  @Test
  void cannotMoveWithRowsCarriedOver() throws IOException {
    BatchReader r = reader(OPTIONAL_INT, optionalInts());
    try {
      r.readBatch(0, 4, NO_LIMIT);
      r.keep(2);
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> r.readBatch(5, 2, NO_LIMIT));
      assertEquals("[memory.parquet] row group 0 column x: cannot move from row 2 to row 5 with rows carried over",
          e.getMessage());
    } finally {
      close(r);
    }
  }

  @Test
  void seekPastTheChunkIsCorruption() {
    BatchReader r = reader(OPTIONAL_INT, optionalInts());
    try {
      ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class, () -> r.readBatch(9, 2, NO_LIMIT));
      assertTrue(e.getMessage().endsWith("page at offset 200: the column chunk ends before row 9"), e.getMessage());
    } finally {
      close(r);
    }
  }

  @Test
  void byteLimitEndsAVariableWidthBatchEarlyButReadsOneRow() throws IOException {
    ColumnDescriptor column = InMemoryPages.flat(PhysicalType.BYTE_ARRAY, 0);
    InMemoryPages pages = new InMemoryPages(source)
        .v1Required(Encoding.PLAIN, 5, strings("aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc", "dddddddddd", "eeeeeeeeee"));
    BatchReader r = reader(column, pages);
    try {
      ColumnBatch b = r.readBatch(0, 5, 35);
      assertArrayEquals(new String[] {"aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc"}, stringValues(b));
      b = r.readBatch(3, 5, 5);
      assertArrayEquals(new String[] {"dddddddddd"}, stringValues(b), "one row, over the limit");
      b = r.readBatch(4, 5, NO_LIMIT);
      assertArrayEquals(new String[] {"eeeeeeeeee"}, stringValues(b));
    } finally {
      close(r);
    }
  }

  @Test
  void dictionaryStringsWithNulls() throws IOException {
    ColumnDescriptor column = InMemoryPages.flat(PhysicalType.BYTE_ARRAY, 1);
    InMemoryPages pages = new InMemoryPages(source)
        .dictionary(2, strings("x", "yy"))
        .v1(Encoding.RLE_DICTIONARY, 0, null, 1, new int[] {1, 0, 0, 1, 1}, dictionaryIndices(1, 1, 0, 1));
    BatchReader r = reader(column, pages);
    try {
      ColumnBatch b = r.readBatch(0, 10, NO_LIMIT);
      assertEquals(List.of("yy", "", "", "x", "yy"), List.of(stringValues(b)));
      assertArrayEquals(new int[] {1, 0, 0, 1, 1}, bytes(b.validity(), 5));
      assertEquals(3, b.nonNullCount());
    } finally {
      close(r);
    }
  }
}
