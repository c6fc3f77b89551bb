package io.turboparquet.cli;

import io.netty.buffer.ByteBuf;
import io.turboparquet.decode.ValueSink;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.Repetition;
import io.turboparquet.format.SchemaNode;
import io.turboparquet.scan.Batch;
import io.turboparquet.scan.ColumnBatch;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Rows of a batch as JSON objects, one per row, keys the projected top-level fields in schema order
 * (Dremel record assembly over the level entries of the scan core's column batches; leaves through
 * {@link ValueText}).
 *
 * <p>Groups: a LIST-annotated group is an array of its elements (three-level lists, and the legacy
 * two-level shapes: the repeated field is the element when it is not a group of one field, or is
 * named {@code array} or {@code <list>_tuple}); a MAP- (or MAP_KEY_VALUE-) annotated group is an
 * object when its keys are strings, else an array of {@code {"key": .., "value": ..}}; any other
 * repeated field is an array of its instances; any other group (VARIANT too) an object of its
 * fields. Whether an optional group is null is read from the definition levels of a leaf below it
 * that is under a repeated field; the core gives leaves outside every repeated field (flat columns)
 * only a validity byte, so an optional group with only such leaves below it is null when none of
 * them is defined (a present group whose leaves are all null renders as null too).
 */
final class RowRenderer {
  private final Node root;
  private final int leafCount;
  private final ValueText[] text;
  private final ColumnDescriptor[] columns;
  // The loaded batch, per leaf: levels per entry (flat: one entry per row, definition -1 when
  // undefined), the value slot of each entry, where each row's entries start, and the values.
  private byte[][] reps;
  private int[][] defs;
  private int[][] slots;
  private int[][] rowStarts;
  private byte[][] values;
  private int[][] offsets; // variable width; null for fixed width
  private int rows;

  /**
   * @param schema the file's schema tree
   * @param projection the scanner's projected leaves, in the order of the batch's columns
   */
  RowRenderer(SchemaNode schema, List<ColumnDescriptor> projection) {
    Map<Integer, Integer> position = new HashMap<>();
    for (int i = 0; i < projection.size(); i++) {
      position.put(projection.get(i).index(), i);
    }
    this.leafCount = projection.size();
    this.columns = projection.toArray(new ColumnDescriptor[0]);
    this.text = new ValueText[leafCount];
    for (int i = 0; i < leafCount; i++) {
      text[i] = new ValueText(columns[i]);
    }
    Node r = build(schema, 0, 0, position, true);
    this.root = r == null ? new Node(schema, 0, 0) : r;
  }

  /** A schema node with what assembly needs; null when no projected leaf is below it. */
  private static final class Node {
    final SchemaNode schema;
    final int def; // definition level of a present instance
    final int rep; // repetition level of the node's own instances
    final List<Node> children = new ArrayList<>();
    final List<Integer> leaves = new ArrayList<>(); // projected leaves below (positions)
    int leaf = -1; // position of a leaf node
    int driver = -1; // a leaf below that is under a repeated field: its levels are exact

    Node(SchemaNode schema, int def, int rep) {
      this.schema = schema;
      this.def = def;
      this.rep = rep;
    }

    boolean repeated() {
      return schema.repetition() == Repetition.REPEATED;
    }

    String name() {
      return schema.name();
    }
  }

  private Node build(SchemaNode s, int parentDef, int parentRep, Map<Integer, Integer> position, boolean isRoot) {
    int def = isRoot ? 0 : parentDef + (s.repetition() == Repetition.REQUIRED ? 0 : 1);
    int rep = isRoot ? 0 : parentRep + (s.repetition() == Repetition.REPEATED ? 1 : 0);
    Node n = new Node(s, def, rep);
    if (s.isLeaf()) {
      Integer p = position.get(s.column().index());
      if (p == null) {
        return null;
      }
      n.leaf = p;
      n.leaves.add(p);
      n.driver = s.column().maxRepetitionLevel() > 0 ? p : -1;
      return n;
    }
    for (SchemaNode c : s.children()) {
      Node child = build(c, def, rep, position, false);
      if (child != null) {
        n.children.add(child);
        n.leaves.addAll(child.leaves);
        if (n.driver < 0) {
          n.driver = child.driver;
        }
      }
    }
    return n.children.isEmpty() && !isRoot ? null : n;
  }

  /** Takes the batch's levels and values (copied: the batch's buffers are valid only until the next batch). */
  void load(Batch batch) {
    List<ColumnBatch> cols = batch.columns();
    rows = batch.rows();
    reps = new byte[leafCount][];
    defs = new int[leafCount][];
    slots = new int[leafCount][];
    rowStarts = new int[leafCount][];
    values = new byte[leafCount][];
    offsets = new int[leafCount][];
    for (int i = 0; i < leafCount; i++) {
      ColumnBatch cb = cols.get(i);
      ColumnDescriptor c = columns[i];
      int entries = c.isFlat() ? cb.rowCount() : cb.entryCount();
      byte[] rep = new byte[entries];
      int[] def = new int[entries];
      int[] slot = new int[entries];
      int[] starts = new int[rows + 1];
      int max = c.maxDefinitionLevel();
      if (c.isFlat()) {
        ByteBuf validity = cb.validity();
        for (int e = 0; e < entries; e++) {
          def[e] = validity == null || validity.getByte(e) != 0 ? max : -1;
          slot[e] = e;
          starts[e] = e;
        }
        starts[rows] = entries;
      } else {
        cb.repetitionLevels().getBytes(0, rep, 0, entries);
        int next = 0;
        int row = 0;
        for (int e = 0; e < entries; e++) {
          def[e] = cb.definitionLevels().getByte(e) & 0xff;
          slot[e] = def[e] == max ? next++ : -1;
          if (rep[e] == 0 && row < rows) {
            starts[row++] = e;
          }
        }
        while (row <= rows) {
          starts[row++] = entries;
        }
      }
      ValueSink sink = cb.values();
      int n = sink.position();
      if (sink.isVariableWidth()) {
        int[] off = new int[n + 1];
        for (int k = 0; k <= n; k++) {
          off[k] = sink.offsets().getIntLE(k * 4);
        }
        values[i] = bytes(sink.values(), off[n]);
        offsets[i] = off;
      } else {
        values[i] = bytes(sink.values(), n * sink.width());
      }
      reps[i] = rep;
      defs[i] = def;
      slots[i] = slot;
      rowStarts[i] = starts;
    }
  }

  private static byte[] bytes(ByteBuf buf, int length) {
    byte[] b = new byte[length];
    if (length > 0) {
      buf.getBytes(0, b, 0, length);
    }
    return b;
  }

  /** Rows of the loaded batch. */
  int rows() {
    return rows;
  }

  /** Row {@code row} of the loaded batch as one JSON object. */
  String row(int row) {
    int[] from = new int[leafCount];
    int[] to = new int[leafCount];
    for (int i = 0; i < leafCount; i++) {
      from[i] = rowStarts[i][row];
      to[i] = rowStarts[i][row + 1];
    }
    StringBuilder out = new StringBuilder();
    object(root, from, to, out);
    return out.toString();
  }

  /** A non-repeated node within a present parent instance whose entries are {@code [from, to)} per leaf. */
  private void value(Node n, int[] from, int[] to, StringBuilder out) {
    if (n.repeated()) {
      array(n, from, to, out);
    } else if (n.leaf >= 0) {
      leaf(n.leaf, from[n.leaf], out);
    } else if (present(n, from)) {
      element(n, from, to, out);
    } else {
      out.append("null");
    }
  }

  private boolean present(Node n, int[] from) {
    if (n.schema.repetition() == Repetition.REQUIRED) {
      return true;
    }
    if (n.driver >= 0) {
      return defs[n.driver][from[n.driver]] >= n.def;
    }
    for (int leaf : n.leaves) { // only flat leaves below: present when one of them is defined
      if (defs[leaf][from[leaf]] >= 0) {
        return true;
      }
    }
    return false;
  }

  private void leaf(int leaf, int entry, StringBuilder out) {
    if (defs[leaf][entry] != columns[leaf].maxDefinitionLevel()) {
      out.append("null");
      return;
    }
    int slot = slots[leaf][entry];
    int[] off = offsets[leaf];
    if (off != null) {
      text[leaf].append(out, values[leaf], off[slot], off[slot + 1] - off[slot]);
    } else {
      int width = columns[leaf].valueWidth();
      text[leaf].append(out, values[leaf], slot * width, width);
    }
  }

  /** One present instance of {@code n}: a leaf's value, or a group as its annotation says. */
  private void element(Node n, int[] from, int[] to, StringBuilder out) {
    if (n.leaf >= 0) {
      leaf(n.leaf, from[n.leaf], out);
      return;
    }
    String logical = n.schema.logicalType();
    if ("LIST".equals(logical) && list(n, from, to, out)) {
      return;
    }
    if (("MAP".equals(logical) || "MAP_KEY_VALUE".equals(logical)) && map(n, from, to, out)) {
      return;
    }
    object(n, from, to, out);
  }

  private void object(Node n, int[] from, int[] to, StringBuilder out) {
    out.append('{');
    for (int i = 0; i < n.children.size(); i++) {
      Node c = n.children.get(i);
      if (i > 0) {
        out.append(", ");
      }
      Json.string(out, c.name());
      out.append(": ");
      value(c, from, to, out);
    }
    out.append('}');
  }

  /** A repeated node's instances within its parent instance, as a JSON array. */
  private void array(Node n, int[] from, int[] to, StringBuilder out) {
    out.append('[');
    List<int[][]> instances = instances(n, from, to);
    for (int k = 0; k < instances.size(); k++) {
      if (k > 0) {
        out.append(", ");
      }
      element(n, instances.get(k)[0], instances.get(k)[1], out);
    }
    out.append(']');
  }

  /** The {from, to} entry ranges of each instance of repeated {@code n} within its parent instance. */
  private List<int[][]> instances(Node n, int[] from, int[] to) {
    List<int[][]> out = new ArrayList<>();
    int d = n.driver;
    if (d < 0 || from[d] >= to[d] || defs[d][from[d]] < n.def) {
      return out; // no instance (an empty or null list: the parent says which)
    }
    int count = Integer.MAX_VALUE;
    Map<Integer, int[]> starts = new HashMap<>();
    for (int leaf : n.leaves) {
      int[] s = new int[to[leaf] - from[leaf]];
      int k = 0;
      for (int e = from[leaf]; e < to[leaf]; e++) {
        if (e == from[leaf] || reps[leaf][e] <= n.rep) {
          s[k++] = e;
        }
      }
      starts.put(leaf, java.util.Arrays.copyOf(s, k));
      count = Math.min(count, k);
    }
    for (int k = 0; k < count; k++) {
      int[] f = from.clone();
      int[] t = to.clone();
      for (int leaf : n.leaves) {
        int[] s = starts.get(leaf);
        f[leaf] = s[k];
        t[leaf] = k + 1 < s.length ? s[k + 1] : to[leaf];
      }
      out.add(new int[][] {f, t});
    }
    return out;
  }

  /** A LIST-annotated group as an array; false when its shape is not a list's. */
  private boolean list(Node n, int[] from, int[] to, StringBuilder out) {
    if (n.schema.children().size() != 1 || n.children.size() != 1 || !n.children.get(0).repeated()) {
      return false;
    }
    Node r = n.children.get(0);
    SchemaNode rs = r.schema;
    boolean threeLevel = !rs.isLeaf() && rs.children().size() == 1 && !rs.name().equals("array")
        && !rs.name().equals(n.name() + "_tuple");
    out.append('[');
    List<int[][]> instances = instances(r, from, to);
    for (int k = 0; k < instances.size(); k++) {
      if (k > 0) {
        out.append(", ");
      }
      if (threeLevel) {
        value(r.children.get(0), instances.get(k)[0], instances.get(k)[1], out);
      } else {
        element(r, instances.get(k)[0], instances.get(k)[1], out);
      }
    }
    out.append(']');
    return true;
  }

  /** A MAP-annotated group as an object (string keys) or array of key and value; false when not a map's shape. */
  private boolean map(Node n, int[] from, int[] to, StringBuilder out) {
    if (n.schema.children().size() != 1 || n.children.size() != 1 || !n.children.get(0).repeated()) {
      return false;
    }
    Node kv = n.children.get(0);
    if (kv.schema.isLeaf() || kv.schema.children().size() > 2
        || kv.children.get(0).schema != kv.schema.children().get(0) || kv.children.get(0).leaf < 0) {
      return false; // the key is the first field, a primitive, and must be projected
    }
    Node key = kv.children.get(0);
    Node value = kv.children.size() > 1 ? kv.children.get(1) : null;
    boolean object = text[key.leaf].isString();
    out.append(object ? '{' : '[');
    List<int[][]> instances = instances(kv, from, to);
    for (int k = 0; k < instances.size(); k++) {
      int[] f = instances.get(k)[0];
      int[] t = instances.get(k)[1];
      if (k > 0) {
        out.append(", ");
      }
      if (object) {
        int at = out.length();
        leaf(key.leaf, f[key.leaf], out);
        if (out.charAt(at) != '"') { // a null key (the spec forbids it) as the key "null"
          out.insert(at, '"').append('"');
        }
        out.append(": ");
      } else {
        out.append("{\"key\": ");
        leaf(key.leaf, f[key.leaf], out);
        out.append(", \"value\": ");
      }
      if (value == null) {
        out.append("null");
      } else {
        value(value, f, t, out);
      }
      if (!object) {
        out.append('}');
      }
    }
    out.append(object ? '}' : ']');
    return true;
  }
}
