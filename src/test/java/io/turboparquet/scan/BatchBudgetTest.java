package io.turboparquet.scan;

import static io.turboparquet.scan.InMemoryPages.ints;
import static io.turboparquet.scan.InMemoryPages.location;
import static io.turboparquet.scan.InMemoryPages.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.decode.ValueSink;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.Encoding;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.io.TrackingBufferSource;
import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link BatchBudget} on a page under an in-memory {@link PageCursor}: how many rows or records fit. */
class BatchBudgetTest {
  private final TrackingBufferSource source = new TrackingBufferSource();

  @AfterEach
  void nothingLeaked() {
    assertEquals(0, source.outstanding(), "buffers leaked");
  }

  private PageCursor cursor(ColumnDescriptor column, InMemoryPages pages) {
    return new PageCursor(location(column), pages, source, ScanOptions.defaults(), new ScanMetrics());
  }

  @Test
  void flatRowsFitByTheDecodersBound() throws IOException {
    ColumnDescriptor column = InMemoryPages.flat(PhysicalType.BYTE_ARRAY, 0);
    InMemoryPages pages = new InMemoryPages(source)
        .v1Required(Encoding.PLAIN, 4, strings("aaaaaaaaaa", "b", "cccccccccc", "dddddddddd"));
    try (PageCursor c = cursor(column, pages); ValueSink sink = new ValueSink(source, ValueSink.VARIABLE)) {
      assertTrue(c.nextDataPage());
      BatchBudget budget = new BatchBudget(c, sink, 0, 0);
      budget.limit(100);
      assertEquals(4, budget.fitFlat(4, 0), "all fit: no bisection");
      budget.limit(21);
      assertEquals(3, budget.fitFlat(4, 0), "10 + 1 + 10 bytes");
      budget.limit(5);
      assertEquals(1, budget.fitFlat(4, 0), "none fits, but an empty batch takes one row");
      assertEquals(0, budget.fitFlat(4, 1), "none fits a batch that has rows");

      c.decoder().read(sink, 1); // 10 bytes in the batch
      c.advance(1);
      budget.limit(21);
      assertEquals(2, budget.fitFlat(3, 1), "1 + 10 bytes of room left");
    }
  }

  @Test
  void nestedRecordsFitAtRecordStarts() throws IOException {
    ColumnDescriptor column = InMemoryPages.list(PhysicalType.INT32);
    // Records [1, 2], null, [], [3], [4, 5]; entries 0..7, record starts at 0, 2, 3, 4, 5.
    InMemoryPages pages = new InMemoryPages(source)
        .v1(Encoding.PLAIN, 1, new int[] {0, 1, 0, 0, 0, 0, 1}, 2, new int[] {2, 2, 0, 1, 2, 2, 2}, ints(1, 2, 3, 4, 5));
    try (PageCursor c = cursor(column, pages); ValueSink sink = new ValueSink(source, 4)) {
      assertTrue(c.nextDataPage());
      BatchBudget budget = new BatchBudget(c, sink, 2, 1);
      budget.limit(8);
      assertTrue(budget.nestedFits(2));
      assertFalse(budget.nestedFits(3));
      assertEquals(4, budget.fitNested(0, 7, 0), "up to [3]: 8 bytes");
      assertEquals(7, budget.fitNested(5, 7, 4), "[4, 5] alone fits");
      budget.limit(12);
      assertEquals(5, budget.fitNested(0, 7, 0));
      budget.limit(1);
      assertEquals(2, budget.fitNested(0, 7, 0), "the first record whatever its size");
      assertEquals(4, budget.fitNested(2, 7, 1), "records without values add no bytes");
      assertEquals(4, budget.fitNested(4, 7, 1), "no record fits a batch that has one: end before it");
    }
  }
}
