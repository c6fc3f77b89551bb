package io.turboparquet.scan;

import java.util.List;

/**
 * Rows {@code [firstRow, firstRow + rows)} of one row group for the projected columns, every column
 * holding exactly {@code rows} rows. Valid until the scanner's next batch.
 */
public record Batch(int rowGroup, long firstRow, int rows, List<ColumnBatch> columns) {
  public Batch {
    columns = List.copyOf(columns);
  }
}
