package io.turboparquet.format;

import java.util.List;
import java.util.Map;

/** What a file's footer says, in the core's own model. */
public record FileMetadata(
    String file,
    long fileLength,
    int footerLength,
    long numRows,
    String createdBy,
    Schema schema,
    List<RowGroupMeta> rowGroups,
    Map<String, String> keyValues,
    List<ColumnOrder> columnOrders) {

  /** @param columnOrders one per leaf of {@code schema}, or empty when the footer declares none */
  public FileMetadata {
    rowGroups = List.copyOf(rowGroups);
    keyValues = Map.copyOf(keyValues);
    columnOrders = List.copyOf(columnOrders);
    if (!columnOrders.isEmpty() && columnOrders.size() != schema.columns().size()) {
      throw new IllegalArgumentException(columnOrders.size() + " column orders for " + schema.columns().size()
          + " leaves");
    }
  }

  /** The order of {@code column}'s statistics. */
  public ColumnOrder columnOrder(ColumnDescriptor column) {
    return columnOrders.isEmpty() ? ColumnOrder.TYPE_DEFINED : columnOrders.get(column.index());
  }
}
