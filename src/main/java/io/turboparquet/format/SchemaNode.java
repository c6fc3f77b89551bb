package io.turboparquet.format;

import java.util.List;

/**
 * A node of the schema tree: a group (children non-empty, column null) or a leaf (column set).
 */
public record SchemaNode(String name, Repetition repetition, String logicalType, List<SchemaNode> children,
    ColumnDescriptor column) {

  public SchemaNode {
    children = List.copyOf(children);
  }

  public boolean isLeaf() {
    return column != null;
  }
}
