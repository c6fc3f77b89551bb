package io.turboparquet.scan;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/**
 * The rows of a batch that a filter keeps, as ascending runs {@code [start, end)} of its rows, and
 * the compaction of the batch's flat columns to them, in place: the engine then gets only those
 * rows, so that its own filter and the operators above it see fewer. Runs rather than a list of
 * rows, because a selection is either sparse (few runs) or dense with long runs, and both move in
 * one bulk copy per run. Reused batch after batch by its scanner.
 */
final class RowSelection {
  private int[] starts = new int[16];
  private int[] ends = new int[16];
  private int runs;
  private int selected;
  private int span;

  /** Starts a selection over a batch of {@code span} rows, none kept yet. */
  void clear(int span) {
    this.span = span;
    runs = 0;
    selected = 0;
  }

  /** Keeps rows {@code [from, to)}, which come after every row kept so far. */
  void add(int from, int to) {
    if (runs > 0 && ends[runs - 1] == from) {
      ends[runs - 1] = to;
    } else {
      if (runs == starts.length) {
        starts = Arrays.copyOf(starts, 2 * runs);
        ends = Arrays.copyOf(ends, 2 * runs);
      }
      starts[runs] = from;
      ends[runs] = to;
      runs++;
    }
    selected += to - from;
  }

  /** Rows kept. */
  int selected() {
    return selected;
  }

  /** Rows of the batch the selection is over. */
  int span() {
    return span;
  }

  /** This selection as it is now, for a batch to keep after the scanner has moved on. */
  RowSelection copy() {
    RowSelection c = new RowSelection();
    c.starts = Arrays.copyOf(starts, runs);
    c.ends = Arrays.copyOf(ends, runs);
    c.runs = runs;
    c.selected = selected;
    c.span = span;
    return c;
  }

  /** The batch row (before compaction) of kept row {@code i}. */
  int rowAt(int i) {
    int run = 0;
    int before = 0;
    while (before + ends[run] - starts[run] <= i) {
      before += ends[run] - starts[run];
      run++;
    }
    return starts[run] + i - before;
  }

  /**
   * Moves the kept rows of a flat column's batch to its front (values, validity, definition
   * levels) and sets its counts to them. Nulls stay as the readers leave them (zero or empty slots).
   */
  void compact(ColumnBatch batch) {
    if (!batch.column().isFlat() || batch.rowCount() != span) {
      throw new IllegalStateException("compacting " + batch.rowCount() + " rows of " + batch.column().dottedPath()
          + (batch.column().isFlat() ? "" : " (nested)") + " to a selection over " + span);
    }
    batch.values().keepRuns(starts, ends, runs);
    ByteBuf validity = batch.validity();
    int nonNull = selected;
    if (validity != null) {
      compactBytes(validity);
      nonNull = 0;
      for (int r = 0; r < selected; r++) {
        nonNull += validity.getByte(r) != 0 ? 1 : 0;
      }
    }
    if (batch.definitionLevels() != null) {
      compactBytes(batch.definitionLevels());
    }
    batch.set(selected, selected, nonNull, validity, null, batch.definitionLevels());
  }

  /** One byte per row, the kept ones moved to the front. */
  private void compactBytes(ByteBuf perRow) {
    int out = 0;
    for (int i = 0; i < runs; i++) {
      int n = ends[i] - starts[i];
      if (out != starts[i]) {
        perRow.setBytes(out, perRow, starts[i], n);
      }
      out += n;
    }
  }
}
