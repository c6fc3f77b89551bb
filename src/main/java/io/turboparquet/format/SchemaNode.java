package io.turboparquet.format;

import java.util.ArrayList;
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

  /** The leaf columns under this node (itself, for a leaf), in schema order. */
  public List<ColumnDescriptor> columns() {
    List<ColumnDescriptor> out = new ArrayList<>();
    collect(this, out);
    return out;
  }

  private static void collect(SchemaNode n, List<ColumnDescriptor> out) {
    if (n.isLeaf()) {
      out.add(n.column());
    }
    for (SchemaNode c : n.children()) {
      collect(c, out);
    }
  }
}
