package io.turboparquet.scan;

import static io.turboparquet.scan.InMemoryPages.dictionaryIndices;
import static io.turboparquet.scan.InMemoryPages.ints;
import static io.turboparquet.scan.InMemoryPages.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.filter.Filter;
import io.turboparquet.filter.Predicate;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.Encoding;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.format.Schema;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.turboparquet.io.BufferSource;
import io.turboparquet.io.TrackingBufferSource;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Dictionary ids through the flat column reader (pages in memory): whatever a chunk's pages and the
 * batches do (nulls, a switch to plain pages, a second dictionary page, rows carried over to the
 * next batch), the filter judges every row as its value says, by ids where the batch has them.
 */
class DictionaryIdsTest {
  private final TrackingBufferSource source = new TrackingBufferSource();
  private final ScanMetrics metrics = new ScanMetrics();

  /**
   * A batch cut by its byte limit right after a second dictionary page holds ids of the first,
   * which that page closed: it is judged on its values (it used to fail on the closed buffers).
   */
  @Test
  void aBatchEndingAtASecondDictionaryPageIsJudgedOnItsValues() throws Exception {
    ColumnDescriptor column = InMemoryPages.flat(PhysicalType.BYTE_ARRAY, 0);
    InMemoryPages pages = new InMemoryPages(source)
        .dictionary(2, strings("aa", "bb"))
        .v1Required(Encoding.RLE_DICTIONARY, 4, dictionaryIndices(1, 0, 1, 0, 1))
        .dictionary(2, strings("cccccccc", "dddddddd"))
        .v1Required(Encoding.RLE_DICTIONARY, 4, dictionaryIndices(1, 0, 1, 0, 1));
    BatchReader reader = pages.reader(column, metrics);
    reader.sink.keepDictionaryIds();
    try {
      ColumnBatch first = reader.readBatch(0, 8, 10);
      assertEquals(4, first.rowCount());
      assertEquals(null, first.values().idDictionary());
      assertEquals(List.of(1, 3), select("x LIKE 'b%'", column, first));
      ColumnBatch second = reader.readBatch(4, 8, 100);
      assertEquals(4, second.rowCount());
      assertTrue(second.values().idDictionary() != null);
      assertEquals(List.of(0, 2), select("x = 'cccccccc'", column, second));
    } finally {
      InMemoryPages.close(reader);
    }
    assertEquals(0, source.outstanding());
  }

  /**
   * Random optional INT32 chunks (a dictionary, dictionary pages with nulls, a switch to plain
   * pages that may fall inside a batch), random batch sizes and rows carried over: every batch's
   * selection equals a comparison of its values, and the ids judge many batches. In direct
   * buffers (unchecked writes of the ids) and on the heap (their checked fallback).
   */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void idsJudgeAsValuesDo(boolean direct) throws Exception {
    List<ByteBuf> heap = new ArrayList<>();
    BufferSource source = direct ? this.source : capacity -> {
      ByteBuf b = Unpooled.buffer(Math.max(1, capacity));
      heap.add(b);
      return b;
    };
    SplittableRandom random = new SplittableRandom(5);
    ColumnDescriptor column = InMemoryPages.flat(PhysicalType.INT32, 1);
    int byIds = 0;
    int batches = 0;
    for (int trial = 0; trial < 300; trial++) {
      int size = 1 + random.nextInt(6);
      int[] dictionary = new int[size];
      for (int i = 0; i < size; i++) {
        dictionary[i] = random.nextInt(-5, 6);
      }
      InMemoryPages pages = new InMemoryPages(source).dictionary(size, ints(dictionary));
      List<Integer> expected = new ArrayList<>(); // a null row as null
      boolean plain = false;
      for (int p = 1 + random.nextInt(4); p > 0; p--) {
        plain |= random.nextInt(4) == 0;
        int n = 1 + random.nextInt(12);
        int[] defs = new int[n];
        List<Integer> ids = new ArrayList<>();
        List<Integer> values = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          defs[i] = random.nextInt(4) == 0 ? 0 : 1;
          if (defs[i] == 0) {
            expected.add(null);
            continue;
          }
          int id = random.nextInt(size);
          ids.add(id);
          values.add(plain ? random.nextInt(-5, 6) : dictionary[id]);
          expected.add(values.get(values.size() - 1));
        }
        byte[] body = plain ? ints(values.stream().mapToInt(Integer::intValue).toArray())
            : dictionaryIndices(3, ids.stream().mapToInt(Integer::intValue).toArray());
        pages.v1(plain ? Encoding.PLAIN : Encoding.RLE_DICTIONARY, 0, null, 1, defs, body);
      }
      BatchReader reader = pages.reader(column, metrics);
      reader.sink.keepDictionaryIds();
      try {
        for (long at = 0; at < expected.size(); ) {
          ColumnBatch batch = reader.readBatch(at, 1 + random.nextInt(15), Long.MAX_VALUE);
          if (batch.rowCount() > 1 && random.nextBoolean()) {
            reader.keep(1 + random.nextInt(batch.rowCount() - 1)); // the rest carried over to the next batch
          }
          int rows = batch.rowCount();
          byIds += batch.values().idDictionary() != null && batch.values().idDictionary().size() <= rows ? 1 : 0;
          batches++;
          int literal = random.nextInt(-5, 6);
          List<Integer> want = new ArrayList<>();
          for (int i = 0; i < rows; i++) {
            Integer v = expected.get((int) at + i);
            if (v != null && v > literal) {
              want.add(i);
            }
          }
          assertEquals(want, select("x > " + literal, column, batch), "trial " + trial + " at row " + at);
          at += rows;
        }
      } finally {
        InMemoryPages.close(reader);
      }
    }
    assertTrue(byIds > batches / 5, byIds + " of " + batches + " batches judged by ids");
    assertEquals(0, this.source.outstanding());
    assertTrue(heap.stream().allMatch(b -> b.refCnt() == 0), "heap buffers leaked");
  }

  private static List<Integer> select(String predicate, ColumnDescriptor column, ColumnBatch batch) {
    BatchFilter filter = BatchFilter.of(Filter.bind(Predicate.parse(predicate), new Schema(null, List.of(column))),
        List.of(column), batch.rowCount());
    RowSelection selection = new RowSelection();
    filter.select(new ColumnBatch[] {batch}, batch.rowCount(), selection);
    List<Integer> kept = new ArrayList<>();
    for (int k = 0; k < selection.selected(); k++) {
      kept.add(selection.rowAt(k));
    }
    return kept;
  }
}
