package io.turboparquet.format;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A file's schema: the tree and its leaves in schema order. */
public final class Schema {
  private final SchemaNode root;
  private final List<ColumnDescriptor> columns;
  /** Built on first use: most readers never look a column up by name, and wide footers have many. */
  private volatile Map<String, ColumnDescriptor> byPath;

  public Schema(SchemaNode root, List<ColumnDescriptor> columns) {
    this.root = root;
    this.columns = List.copyOf(columns);
  }

  public SchemaNode root() {
    return root;
  }

  public List<ColumnDescriptor> columns() {
    return columns;
  }

  public ColumnDescriptor column(String dottedPath) {
    Map<String, ColumnDescriptor> m = byPath;
    if (m == null) { // two threads may both build it: the same immutable map
      m = new HashMap<>();
      for (ColumnDescriptor c : columns) {
        m.put(c.dottedPath(), c);
      }
      byPath = m = Collections.unmodifiableMap(m);
    }
    return m.get(dottedPath);
  }

  /**
   * The leaves named by {@code names}, in schema order. A name selects the leaf with that dotted
   * path, or every leaf under the group with that path. Null or empty selects all leaves.
   *
   * @throws IllegalArgumentException naming the first name that matches nothing
   */
  public List<ColumnDescriptor> project(List<String> names) {
    if (names == null || names.isEmpty()) {
      return columns;
    }
    boolean[] chosen = new boolean[columns.size()];
    for (String name : names) {
      boolean found = false;
      for (ColumnDescriptor c : columns) {
        String p = c.dottedPath();
        if (p.equals(name) || p.startsWith(name + ".")) {
          chosen[c.index()] = true;
          found = true;
        }
      }
      if (!found) {
        throw new IllegalArgumentException("no column " + name + " in the schema");
      }
    }
    List<ColumnDescriptor> out = new ArrayList<>();
    for (ColumnDescriptor c : columns) {
      if (chosen[c.index()]) {
        out.add(c);
      }
    }
    return out;
  }
}
