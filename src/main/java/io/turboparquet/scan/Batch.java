package io.turboparquet.scan;

import java.util.List;

/**
 * Rows of one row group for the projected columns, every column holding exactly {@link #rows}
 * rows: rows {@code [firstRow, firstRow + rows)}, or, where the scan judged a filter on the rows,
 * those of a longer stretch from {@code firstRow} on that may match ({@link #row} gives each one's
 * place). Its buffers are valid until the scanner's next batch.
 *
 * <p>Only a batch the scan {@link #judged} holds none of the rows its filter rules out: the scan
 * hands on a batch whole where its filter would keep most of it, and the engine's filter decides.
 */
public final class Batch {
  private final int rowGroup;
  private final long firstRow;
  private final int rows;
  private final List<ColumnBatch> columns;
  /** The rows kept of the stretch, or null when the batch holds all of it. */
  private final RowSelection kept;
  private final boolean judged;

  Batch(int rowGroup, long firstRow, int rows, List<ColumnBatch> columns, RowSelection kept, boolean judged) {
    this.rowGroup = rowGroup;
    this.firstRow = firstRow;
    this.rows = rows;
    this.columns = List.copyOf(columns);
    this.kept = kept;
    this.judged = judged;
  }

  public int rowGroup() {
    return rowGroup;
  }

  /** The row group's row the batch starts at. */
  public long firstRow() {
    return firstRow;
  }

  public int rows() {
    return rows;
  }

  public List<ColumnBatch> columns() {
    return columns;
  }

  /** Whether the scan judged its filter on every row and dropped those it rules out. */
  boolean judged() {
    return judged;
  }

  /** The row group's row that row {@code i} of the batch is (for messages). */
  public long row(int i) {
    return firstRow + (kept == null ? i : kept.rowAt(i));
  }
}
