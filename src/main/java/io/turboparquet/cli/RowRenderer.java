package io.turboparquet.cli;

import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.format.Repetition;
import io.turboparquet.format.SchemaNode;
import io.turboparquet.format.VariantJson;
import io.turboparquet.scan.Batch;
import io.turboparquet.scan.ColumnBatch;
import io.turboparquet.scan.LeafEntries;
import io.turboparquet.scan.VariantColumn;
import io.turboparquet.scan.VariantRebuilder;
import java.io.UncheckedIOException;
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
 * fields, except a VARIANT-annotated group whose leaves are all projected: the JSON of its value,
 * rebuilt from its shredded columns ({@link VariantRebuilder}, {@link VariantJson}). Whether an optional group is null is read from the definition levels of a projected
 * leaf below it ({@link LeafEntries}: exact for flat leaves too).
 */
final class RowRenderer {
  private final Node root;
  private final int leafCount;
  private final ValueText[] text;
  private final ColumnDescriptor[] columns;
  private final String file;
  private LeafEntries[] leaves; // the loaded batch
  private int rowGroup;
  private Batch batch;
  private int currentRow;
  private int rows;

  /**
   * @param schema the file's schema tree
   * @param projection the scanner's projected leaves, in the order of the batch's columns
   */
  RowRenderer(String file, SchemaNode schema, List<ColumnDescriptor> projection) {
    this.file = file;
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
    Node r = build(schema, 0, 0, position, true, "");
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
    int driver = -1; // the first projected leaf below: its levels say whether an instance is present
    VariantRebuilder variant; // a VARIANT group whose leaves are all projected: rendered as its JSON
    String path; // dotted, for errors

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

  private Node build(SchemaNode s, int parentDef, int parentRep, Map<Integer, Integer> position, boolean isRoot,
      String parentPath) {
    int def = isRoot ? 0 : parentDef + (s.repetition() == Repetition.REQUIRED ? 0 : 1);
    int rep = isRoot ? 0 : parentRep + (s.repetition() == Repetition.REPEATED ? 1 : 0);
    Node n = new Node(s, def, rep);
    n.path = isRoot ? "" : parentPath.isEmpty() ? s.name() : parentPath + "." + s.name();
    if (s.isLeaf()) {
      Integer p = position.get(s.column().index());
      if (p == null) {
        return null;
      }
      n.leaf = p;
      n.leaves.add(p);
      n.driver = p;
      return n;
    }
    for (SchemaNode c : s.children()) {
      Node child = build(c, def, rep, position, false, n.path);
      if (child != null) {
        n.children.add(child);
        n.leaves.addAll(child.leaves);
        if (n.driver < 0) {
          n.driver = child.driver;
        }
      }
    }
    if (VariantColumn.isVariant(s) && !n.leaves.isEmpty() && n.leaves.size() == leafCount(s)) {
      n.variant = new VariantRebuilder(s, def, rep, position);
    }
    return n.children.isEmpty() && !isRoot ? null : n;
  }

  private static int leafCount(SchemaNode s) {
    int n = s.isLeaf() ? 1 : 0;
    for (SchemaNode c : s.children()) {
      n += leafCount(c);
    }
    return n;
  }

  /** Takes the batch's levels and values (copied: the batch's buffers are valid only until the next batch). */
  void load(Batch batch) {
    List<ColumnBatch> cols = batch.columns();
    rows = batch.rows();
    rowGroup = batch.rowGroup();
    this.batch = batch; // its row numbers, for messages
    leaves = new LeafEntries[leafCount];
    for (int i = 0; i < leafCount; i++) {
      leaves[i] = new LeafEntries(cols.get(i), rows);
    }
  }

  /** Rows of the loaded batch. */
  int rows() {
    return rows;
  }

  /** Row {@code row} of the loaded batch as one JSON object; a VARIANT that is not valid fails naming where. */
  String row(int row) throws ParquetCorruptionException {
    try {
      return render(row);
    } catch (UncheckedIOException e) {
      throw (ParquetCorruptionException) e.getCause();
    }
  }

  private String render(int row) {
    currentRow = row;
    int[] from = new int[leafCount];
    int[] to = new int[leafCount];
    for (int i = 0; i < leafCount; i++) {
      from[i] = leaves[i].rowStart(row);
      to[i] = leaves[i].rowStart(row + 1);
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
    return leaves[n.driver].def(from[n.driver]) >= n.def;
  }

  private void leaf(int leaf, int entry, StringBuilder out) {
    LeafEntries l = leaves[leaf];
    if (!l.defined(entry)) {
      out.append("null");
      return;
    }
    text[leaf].append(out, l.values(), l.valueOffset(entry), l.valueLength(entry));
  }

  /** One present instance of {@code n}: a leaf's value, or a group as its annotation says. */
  private void element(Node n, int[] from, int[] to, StringBuilder out) {
    if (n.leaf >= 0) {
      leaf(n.leaf, from[n.leaf], out);
      return;
    }
    if (n.variant != null) {
      variant(n, from, to, out);
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

  /** A VARIANT group as the JSON of its rebuilt value ({@link VariantJson}). */
  private void variant(Node n, int[] from, int[] to, StringBuilder out) {
    try {
      byte[] v = VariantColumn.rebuild(n.variant, leaves, from, to, file, rowGroup, n.path, batch.row(currentRow));
      out.append(v == null ? "null" : VariantJson.of(v));
    } catch (ParquetCorruptionException e) {
      throw new UncheckedIOException(e); // through the recursion, unwrapped by row()
    }
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
    if (from[d] >= to[d] || leaves[d].def(from[d]) < n.def) {
      return out; // no instance (an empty or null list: the parent says which)
    }
    int count = Integer.MAX_VALUE;
    Map<Integer, int[]> starts = new HashMap<>();
    for (int leaf : n.leaves) {
      int[] s = leaves[leaf].elementStarts(from[leaf], to[leaf], n.rep);
      starts.put(leaf, s);
      count = Math.min(count, s.length);
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
