package io.turboparquet.scan;

import io.netty.buffer.ByteBuf;
import io.turboparquet.io.BufferSource;
import io.turboparquet.page.ChunkLocation;
import java.io.IOException;

/**
 * The read loop of a nested column (under a repeated field): the levels of every entry and the
 * defined values densely. Rows are records, which start at repetition level 0, so a batch ends
 * only at a record start and a seek counts records on the levels of every page on the way.
 */
final class NestedColumnReader extends BatchReader {
  private ByteBuf repOut;
  private ByteBuf defOut;

  NestedColumnReader(ChunkLocation location, PageCursor cursor, BufferSource source) {
    super(location, cursor, source);
  }

  @Override
  void read(int rows) throws IOException {
    int rowsDone = carry.rows();
    int entries = carry.entries();
    int nonNull = carry.nonNull();
    if (rowsDone > 0) {
      restoreCarry();
    }
    while (true) {
      if (cursor.entryIndex() == cursor.pageEntries() && (rowsDone == rows && cursor.indexedPages()
          || !cursor.nextDataPage())) {
        break; // a next page from an offset index starts a record: it is not read for a record that goes on
      }
      int start = cursor.entryIndex();
      int pageEntries = cursor.pageEntries();
      int i = start;
      byte[] r = cursor.reps();
      int spanRows = 0;
      while (i < pageEntries) {
        if (r[i] == 0) {
          if (rowsDone + spanRows == rows) {
            break;
          }
          spanRows++;
        }
        i++;
      }
      boolean partial = false;
      if (i > start && !budget.nestedFits(i - start)) {
        int cut = budget.fitNested(start, i, rowsDone);
        if (cut < i) {
          spanRows = 0;
          for (int j = start; j < cut; j++) {
            spanRows += r[j] == 0 ? 1 : 0;
          }
          partial = true;
          i = cut;
        }
      }
      int k = i - start;
      if (k > 0) {
        nonNull += copyLevels(start, k, entries);
        entries += k;
        cursor.advance(k);
      }
      rowsDone += spanRows;
      if (partial && k > 0) {
        continue; // near the limit, a few records at a time, while the next record's bound fits
      }
      if (i < pageEntries) {
        break; // the next row starts here and the batch is full
      }
    }
    batch.set(rowsDone, entries, nonNull, null, repOut, defOut);
  }

  /** Copies levels {@code [start, start + k)} of the page to the batch and decodes their values. */
  private int copyLevels(int start, int k, int at) {
    repOut = ensure(repOut, at + k);
    repOut.setBytes(at, cursor.reps(), start, k);
    int defined = cursor.definedIn(start, start + k);
    defOut = ensure(defOut, at + k);
    defOut.setBytes(at, cursor.defs(), start, k);
    if (defined > 0) {
      cursor.decoder().read(sink, defined);
    }
    return defined;
  }

  /**
   * The records before the target are passed over by their repetition levels and their defined
   * values skipped by the decoder. Every page on the way is decoded for its levels: only they (or
   * an offset index, checked against them) give a nested page's rows.
   */
  @Override
  void seek(long from, long target) throws IOException {
    long row = from; // the row of the next record start at or after the cursor's entry
    while (true) {
      if (cursor.entryIndex() == cursor.pageEntries()) {
        if (!cursor.nextDataPage(target)) {
          throw location.corruption(cursor.pageOffset(), "the column chunk ends before row " + target, null);
        }
        long first = cursor.pageFirstRow();
        if (first < row || first > target) {
          throw location.corruption(cursor.pageOffset(), "the page starts at row " + first + ", but the scan is at row "
              + row + " and wants row " + target, null);
        }
        row = first; // later than `row` after pages an offset index let the scan pass over
      }
      byte[] r = cursor.reps();
      int end = cursor.pageEntries();
      int i = cursor.entryIndex();
      while (i < end) {
        if (r[i] == 0) {
          if (row == target) {
            break;
          }
          row++;
        }
        i++;
      }
      cursor.skipEntriesTo(i);
      if (i < end) {
        break;
      }
    }
  }

  /** Never: a nested page's rows are known only from its levels. */
  @Override
  boolean canSkipTo(long row) {
    return false;
  }

  @Override
  void restoreCarry() {
    repOut = ensure(repOut, carry.entries());
    defOut = ensure(defOut, carry.entries());
    carry.restore(sink, null, repOut, defOut);
  }

  @Override
  int takeCarry(int rows) {
    return carry.take(batch, sink, null, repOut, defOut, rows);
  }

  @Override
  void releaseBuffers() {
    for (ByteBuf b : new ByteBuf[] {repOut, defOut}) {
      if (b != null) {
        b.release();
      }
    }
    repOut = defOut = null;
  }
}
