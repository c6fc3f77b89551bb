package io.turboparquet.scan;

import static io.turboparquet.scan.InMemoryPages.bytes;
import static io.turboparquet.scan.InMemoryPages.intValues;
import static io.turboparquet.scan.InMemoryPages.ints;
import static io.turboparquet.scan.InMemoryPages.location;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link NestedColumnReader} over in-memory pages of an optional list of ints, records
 * [1, 2], null, [], [3], [4, 5, 6], the last continuing from one V1 page into the next.
 */
class NestedColumnReaderTest {
  private static final ColumnDescriptor LIST = InMemoryPages.list(PhysicalType.INT32);
  private static final long NO_LIMIT = Long.MAX_VALUE;

  private final TrackingBufferSource source = new TrackingBufferSource();
  private final ScanMetrics metrics = new ScanMetrics();

  @AfterEach
  void nothingLeaked() {
    assertEquals(0, source.outstanding(), "buffers leaked");
  }

  private InMemoryPages lists() {
    return new InMemoryPages(source)
        .v1(Encoding.PLAIN, 1, new int[] {0, 1, 0, 0, 0, 0, 1}, 2, new int[] {2, 2, 0, 1, 2, 2, 2}, ints(1, 2, 3, 4, 5))
        .v1(Encoding.PLAIN, 1, new int[] {1}, 2, new int[] {2}, ints(6));
  }

  private BatchReader reader(InMemoryPages pages) {
    return pages.reader(LIST, metrics);
  }

  private static void close(BatchReader reader) {
    InMemoryPages.close(reader);
  }

  @Test
  void readsLevelsAndDenseValuesEndingAtRecordStarts() throws IOException {
    BatchReader r = reader(lists());
    try {
      assertTrue(r instanceof NestedColumnReader, r.getClass().getName());
      ColumnBatch b = r.readBatch(0, 2, NO_LIMIT);
      assertEquals(2, b.rowCount());
      assertEquals(3, b.entryCount());
      assertEquals(2, b.nonNullCount());
      assertArrayEquals(new int[] {0, 1, 0}, bytes(b.repetitionLevels(), 3));
      assertArrayEquals(new int[] {2, 2, 0}, bytes(b.definitionLevels(), 3));
      assertArrayEquals(new int[] {1, 2}, intValues(b));
      assertNull(b.validity());

      b = r.readBatch(2, 10, NO_LIMIT);
      assertEquals(3, b.rowCount(), "the last record continues into the second page");
      assertArrayEquals(new int[] {0, 0, 0, 1, 1}, bytes(b.repetitionLevels(), 5));
      assertArrayEquals(new int[] {1, 2, 2, 2, 2}, bytes(b.definitionLevels(), 5));
      assertArrayEquals(new int[] {3, 4, 5, 6}, intValues(b));
      assertEquals(0, r.readBatch(5, 10, NO_LIMIT).rowCount());
    } finally {
      close(r);
    }
  }

  @Test
  void keptRecordsStartTheNextBatch() throws IOException {
    BatchReader r = reader(lists());
    try {
      r.readBatch(0, 4, NO_LIMIT);
      r.keep(1);
      assertEquals(1, r.batch.rowCount());
      assertEquals(2, r.batch.entryCount());
      assertFalse(r.canSkipTo(5), "a nested column never passes over rows undecoded");

      ColumnBatch b = r.readBatch(1, 10, NO_LIMIT);
      assertEquals(4, b.rowCount());
      assertArrayEquals(new int[] {0, 0, 0, 0, 1, 1}, bytes(b.repetitionLevels(), 6));
      assertArrayEquals(new int[] {0, 1, 2, 2, 2, 2}, bytes(b.definitionLevels(), 6));
      assertArrayEquals(new int[] {3, 4, 5, 6}, intValues(b));
    } finally {
      close(r);
    }
  }

  @Test
  void seekCountsRecordsOnTheLevelsAndSkipsTheirValues() throws IOException {
    BatchReader r = reader(lists());
    try {
      ColumnBatch b = r.readBatch(3, 10, NO_LIMIT);
      assertEquals(2, b.rowCount());
      assertArrayEquals(new int[] {3, 4, 5, 6}, intValues(b));
      assertArrayEquals(new int[] {0, 0, 1, 1}, bytes(b.repetitionLevels(), 4));
    } finally {
      close(r);
    }
  }

  @Test
  void byteLimitEndsTheBatchAtARecordStart() throws IOException {
    BatchReader r = reader(lists());
    try {
      // [1, 2] fills 8 bytes; null and [] add none; [3] would pass the limit.
      ColumnBatch b = r.readBatch(0, 10, 8);
      assertEquals(3, b.rowCount());
      assertEquals(4, b.entryCount());
      assertArrayEquals(new int[] {1, 2}, intValues(b));
      // A first record over the limit is read whole.
      b = r.readBatch(3, 10, 1);
      assertEquals(1, b.rowCount());
      assertArrayEquals(new int[] {3}, intValues(b));
      b = r.readBatch(4, 10, NO_LIMIT);
      assertArrayEquals(new int[] {4, 5, 6}, intValues(b));
    } finally {
      close(r);
    }
  }

  @Test
  void corruptLevelsFailTheBatchNamingThePage() {
    InMemoryPages pages = new InMemoryPages(source)
        .v1(Encoding.PLAIN, 1, new int[] {0, 1}, 2, new int[] {2, 2}, ints(1, 2))
        .v2(Encoding.PLAIN, 1, new int[] {1, 0}, 2, new int[] {2, 2}, ints(3, 4), 0, 1);
    BatchReader r = reader(pages);
    try {
      ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class, () -> r.readBatch(0, 10, NO_LIMIT));
      assertTrue(e.getMessage().startsWith("[memory.parquet] row group 0 column a.list.element: the V2 data page at"
          + " offset 200 starts with repetition level 1, not at a record"), e.getMessage());
    } finally {
      close(r);
    }
  }
}
