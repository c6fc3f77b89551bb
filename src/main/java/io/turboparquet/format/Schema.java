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
    boolean[] found = new boolean[names.size()];
    String[] groups = new String[names.size()];
    for (int i = 0; i < groups.length; i++) {
      groups[i] = names.get(i) + ".";
    }
    for (ColumnDescriptor c : columns) { // each leaf's path built once: wide schemas have thousands
      String p = c.dottedPath();
      for (int i = 0; i < groups.length; i++) {
        if (p.equals(names.get(i)) || p.startsWith(groups[i])) {
          chosen[c.index()] = true;
          found[i] = true;
        }
      }
    }
    for (int i = 0; i < found.length; i++) {
      if (!found[i]) {
        throw new IllegalArgumentException("no column " + names.get(i) + " in the schema");
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
