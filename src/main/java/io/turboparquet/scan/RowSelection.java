package io.turboparquet.scan;

import io.netty.buffer.ByteBuf;
import io.turboparquet.decode.ValueSink;
import java.util.Arrays;

/**
 * The rows of a batch that a filter keeps, as their ascending indices, and the compaction of the
 * batch's flat columns to them, in place: the engine then gets only those rows, so that its own
 * filter and the operators above it see fewer. Indices rather than runs: a filter that keeps half
 * the rows keeps them in runs of a row or two, whose lengths no branch predicts, while a list
 * built and gathered without branches costs the same whatever the pattern. Reused batch after
 * batch by its scanner.
 */
final class RowSelection {
  private int[] rows = new int[BatchFilter.BLOCK];
  private int selected;
  private int span;

  /** Starts a selection over a batch of {@code span} rows, none kept yet. */
  void clear(int span) {
    this.span = span;
    selected = 0;
    if (rows.length < span) {
      rows = new int[span];
    }
  }

  /** Keeps each row {@code first + i} whose {@code mask[i]} is set, {@code i < n}; rows come in ascending order. */
  void add(int first, boolean[] mask, int n) {
    if (first < (selected == 0 ? 0 : rows[selected - 1] + 1) || first + n > span) {
      throw new IllegalArgumentException("rows [" + first + ", " + (first + n) + ") of " + span + " after "
          + (selected == 0 ? "none" : "row " + rows[selected - 1]));
    }
    int[] rows = this.rows;
    int kept = selected;
    for (int i = 0; i < n; i++) {
      rows[kept] = first + i;
      kept += mask[i] ? 1 : 0;
    }
    selected = kept;
  }

  /** Rows kept. */
  int selected() {
    return selected;
  }

  /** This selection as it is now, for a batch to keep after the scanner has moved on. */
  RowSelection copy() {
    RowSelection c = new RowSelection();
    c.rows = Arrays.copyOf(rows, selected);
    c.selected = selected;
    c.span = span;
    return c;
  }

  /** The batch row (before compaction) of kept row {@code i}. */
  int rowAt(int i) {
    return rows[i];
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
    batch.values().keepSlots(rows, selected);
    ByteBuf validity = batch.validity();
    int nonNull = validity != null ? ValueSink.keepBytes(validity, rows, selected) : selected;
    if (batch.definitionLevels() != null) {
      ValueSink.keepBytes(batch.definitionLevels(), rows, selected);
    }
    batch.set(selected, selected, nonNull, validity, null, batch.definitionLevels());
  }
}
