package io.turboparquet.scan;

import io.turboparquet.format.PhysicalType;
import io.turboparquet.format.Repetition;
import io.turboparquet.format.SchemaNode;
import io.turboparquet.format.VariantException;
import io.turboparquet.format.VariantMetadata;
import io.turboparquet.format.VariantValue;
import io.turboparquet.format.VariantWriter;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Rebuilds the values of one VARIANT-annotated group from its leaf columns as VariantShredding.md
 * defines it: the row's {@code metadata}, then its value from the residual {@code value} and the
 * shredded {@code typed_value} (objects with partially shredded fields, arrays, every primitive).
 * The result is the Variant binary, metadata followed by value, or null where the group is null.
 *
 * <p>The shredding schema is judged when built; a shape the specification does not allow fails the
 * first value asked for, so the error can name the row group. Values are judged as they are rebuilt:
 * a residual {@code value} is checked in full ({@link VariantValue}); {@code value} and a primitive or
 * array {@code typed_value} both set, a non-object {@code value} beside shredded fields, and a key
 * both shredded and in the residual object are refused (the specification lets readers refuse or
 * prefer {@code typed_value}; we refuse, since either other choice silently drops data).
 */
public final class VariantRebuilder {
  private final SchemaNode schema;
  private final int def; // definition level of a present variant
  private final int metadata; // leaf position of `metadata`
  private final Group root;
  private final String schemaError;

  /** A group of {@code value} and {@code typed_value}: the variant itself, an array element, an object field. */
  private record Group(int def, int value, Typed typed) {}

  private sealed interface Typed permits Primitive, ObjectShape, ArrayShape {}

  private record Primitive(int leaf, PhysicalType physical, String logical, int length) implements Typed {}

  private record ObjectShape(int def, int driver, List<String> names, List<Group> fields) implements Typed {}

  private record ArrayShape(int def, int repDef, int rep, int driver, List<Integer> leaves, Group element) implements Typed {}

  /**
   * @param variant the VARIANT-annotated group
   * @param def its definition level when present; {@code rep} its repetition level
   * @param position the batch position of each projected leaf column (by column index); every leaf
   *     below {@code variant} must be projected
   */
  public VariantRebuilder(SchemaNode variant, int def, int rep, Map<Integer, Integer> position) {
    this.schema = variant;
    this.def = def;
    int meta = -1;
    Group g = null;
    String error = null;
    try {
      SchemaNode m = child(variant, "metadata");
      check(m != null && m.isLeaf() && m.repetition() == Repetition.REQUIRED
          && m.column().physicalType() == PhysicalType.BYTE_ARRAY, "no required binary 'metadata' field");
      meta = leaf(m, position);
      g = group(variant, def, rep, position);
      check(g.value >= 0 || g.typed != null, "neither 'value' nor 'typed_value'");
    } catch (VariantException e) {
      error = e.getMessage();
    }
    this.metadata = meta;
    this.root = g;
    this.schemaError = error;
  }

  /** The group's name, for messages. */
  public String name() {
    return schema.name();
  }

  private static void check(boolean condition, String what) {
    if (!condition) {
      throw new VariantException(what);
    }
  }

  private static SchemaNode child(SchemaNode n, String name) {
    for (SchemaNode c : n.children()) {
      if (c.name().equals(name)) {
        return c;
      }
    }
    return null;
  }

  private static int leaf(SchemaNode n, Map<Integer, Integer> position) {
    Integer p = position.get(n.column().index());
    check(p != null, "column " + n.column().dottedPath() + " is not projected");
    return p;
  }

  private static int levelOf(SchemaNode n, int parentDef) {
    return parentDef + (n.repetition() == Repetition.REQUIRED ? 0 : 1);
  }

  /** A value/typed_value group whose own definition level is {@code def}. */
  private static Group group(SchemaNode n, int def, int rep, Map<Integer, Integer> position) {
    check(!n.isLeaf(), n.name() + " is not a group");
    SchemaNode v = child(n, "value");
    SchemaNode t = child(n, "typed_value");
    int value = -1;
    if (v != null) {
      check(v.isLeaf() && v.column().physicalType() == PhysicalType.BYTE_ARRAY && v.repetition() != Repetition.REPEATED,
          "'value' of " + n.name() + " is not a binary");
      value = leaf(v, position);
    }
    Typed typed = t == null ? null : typed(t, levelOf(t, def), rep, position);
    return new Group(def, value, typed);
  }

  private static Typed typed(SchemaNode t, int def, int rep, Map<Integer, Integer> position) {
    check(t.repetition() != Repetition.REPEATED, "'typed_value' is repeated");
    if (t.isLeaf()) {
      var c = t.column();
      check(primitiveType(c.physicalType(), c.logicalType(), c.typeLength()) >= 0,
          "unsupported shredded type of typed_value: " + c.physicalType()
              + (c.physicalType() == PhysicalType.FIXED_LEN_BYTE_ARRAY ? "(" + c.typeLength() + ")" : "")
              + (c.logicalType() == null ? "" : " " + c.logicalType()));
      return new Primitive(leaf(t, position), c.physicalType(), c.logicalType(), c.typeLength());
    }
    if ("LIST".equals(t.logicalType())) {
      check(t.children().size() == 1, "the LIST typed_value has " + t.children().size() + " fields");
      SchemaNode list = t.children().get(0);
      check(list.repetition() == Repetition.REPEATED && !list.isLeaf() && list.children().size() == 1,
          "the LIST typed_value is not a three-level list");
      SchemaNode element = list.children().get(0);
      int listDef = def + 1;
      Group e = group(element, levelOf(element, listDef), rep + 1, position);
      List<Integer> leaves = new ArrayList<>();
      collect(list, position, leaves);
      return new ArrayShape(def, listDef, rep + 1, leaves.get(0), leaves, e);
    }
    check(t.logicalType() == null, "unsupported shredded type of typed_value: group " + t.logicalType());
    List<String> names = new ArrayList<>();
    List<Group> fields = new ArrayList<>();
    for (SchemaNode f : t.children()) {
      check(f.repetition() != Repetition.REPEATED, "shredded field " + f.name() + " is repeated");
      names.add(f.name());
      fields.add(group(f, levelOf(f, def), rep, position));
    }
    check(!fields.isEmpty(), "an object typed_value without fields");
    List<Integer> leaves = new ArrayList<>();
    collect(t, position, leaves);
    return new ObjectShape(def, leaves.get(0), names, fields);
  }

  private static void collect(SchemaNode n, Map<Integer, Integer> position, List<Integer> out) {
    if (n.isLeaf()) {
      out.add(leaf(n, position));
    } else {
      for (SchemaNode c : n.children()) {
        collect(c, position, out);
      }
    }
  }

  /** The Variant primitive type id a shredded column's values become, or -1 when the spec allows none. */
  private static int primitiveType(PhysicalType p, String logical, int length) {
    String l = logical == null ? "" : logical;
    return switch (p) {
      case BOOLEAN -> l.isEmpty() ? 1 : -1;
      case INT32 -> switch (l) {
        case "", "INTEGER(32,true)", "INT_32" -> 5;
        case "INTEGER(8,true)", "INT_8" -> 3;
        case "INTEGER(16,true)", "INT_16" -> 4;
        case "DATE" -> 11;
        default -> l.startsWith("DECIMAL(") ? 8 : -1;
      };
      case INT64 -> switch (l) {
        case "", "INTEGER(64,true)", "INT_64" -> 6;
        case "TIME(MICROS,false)" -> 17;
        case "TIMESTAMP(MICROS,true)" -> 12;
        case "TIMESTAMP(MICROS,false)" -> 13;
        case "TIMESTAMP(NANOS,true)" -> 18;
        case "TIMESTAMP(NANOS,false)" -> 19;
        default -> l.startsWith("DECIMAL(") ? 9 : -1;
      };
      case FLOAT -> l.isEmpty() ? 14 : -1;
      case DOUBLE -> l.isEmpty() ? 7 : -1;
      case BYTE_ARRAY -> l.isEmpty() ? 15 : l.equals("STRING") || l.equals("UTF8") ? 16
          : l.startsWith("DECIMAL(") ? 10 : -1;
      case FIXED_LEN_BYTE_ARRAY -> l.equals("UUID") && length == 16 ? 20 : l.startsWith("DECIMAL(") ? 10 : -1;
      default -> -1;
    };
  }

  /**
   * The Variant binary of the instance whose entries are {@code [from[p], to[p])} for each leaf
   * position {@code p}, or null when the group is null there.
   *
   * @throws VariantException when the schema or the values are not a valid shredded variant
   */
  public byte[] rebuild(LeafEntries[] leaves, int[] from, int[] to) {
    if (schemaError != null) {
      throw new VariantException(schemaError);
    }
    LeafEntries m = leaves[metadata];
    int e = from[metadata];
    if (m.def(e) < def) {
      return null;
    }
    check(m.defined(e), "the variant is present but its metadata is null");
    VariantMetadata meta = VariantMetadata.parse(m.values(), m.valueOffset(e), m.valueLength(e));
    check(meta.length() == m.valueLength(e), "metadata has " + (m.valueLength(e) - meta.length()) + " bytes after its dictionary");
    byte[] value = value(root, leaves, from, to, meta);
    if (value == null) {
      value = VariantWriter.NULL; // missing at the top: a Variant null, as for array elements
    }
    byte[] out = Arrays.copyOfRange(m.values(), m.valueOffset(e), m.valueOffset(e) + m.valueLength(e) + value.length);
    System.arraycopy(value, 0, out, m.valueLength(e), value.length);
    return out;
  }

  /** The value of group {@code g}'s instance, or null when missing (both columns null). */
  private byte[] value(Group g, LeafEntries[] leaves, int[] from, int[] to, VariantMetadata meta) {
    VariantValue residual = null;
    if (g.value >= 0) {
      LeafEntries v = leaves[g.value];
      int e = from[g.value];
      if (v.defined(e)) {
        // Bytes after the value are ignored, as parquet-java's reader does: its 1.18.1 writer leaves
        // the bytes of the later elements of an array after an element it could not shred.
        residual = VariantValue.parse(meta, v.values(), v.valueOffset(e), v.valueOffset(e) + v.valueLength(e));
      }
    }
    if (g.typed == null || !present(g.typed, leaves, from)) {
      return residual == null ? null : residual.copy();
    }
    if (g.typed instanceof Primitive p) {
      check(residual == null, "conflicting value and typed_value: both are set");
      return primitive(p, leaves[p.leaf], from[p.leaf]);
    }
    if (g.typed instanceof ArrayShape a) {
      check(residual == null, "conflicting value and typed_value: both are set for an array");
      return array(a, leaves, from, to, meta);
    }
    return object((ObjectShape) g.typed, residual, leaves, from, to, meta);
  }

  private static boolean present(Typed t, LeafEntries[] leaves, int[] from) {
    if (t instanceof Primitive p) {
      return leaves[p.leaf].defined(from[p.leaf]);
    }
    if (t instanceof ObjectShape o) {
      return leaves[o.driver].def(from[o.driver]) >= o.def;
    }
    ArrayShape a = (ArrayShape) t;
    return leaves[a.driver].def(from[a.driver]) >= a.def;
  }

  private byte[] object(ObjectShape o, VariantValue residual, LeafEntries[] leaves, int[] from, int[] to,
      VariantMetadata meta) {
    List<VariantWriter.Field> fields = new ArrayList<>();
    Set<String> shredded = new HashSet<>(o.names);
    for (int i = 0; i < o.fields.size(); i++) {
      Group f = o.fields.get(i);
      byte[] v = value(f, leaves, from, to, meta);
      if (v != null) {
        String name = o.names.get(i);
        int id = meta.find(name);
        check(id >= 0, "shredded field '" + name + "' is not in the metadata's dictionary");
        fields.add(new VariantWriter.Field(id, name, v));
      }
    }
    if (residual != null) {
      check(residual.basicType() == VariantValue.OBJECT,
          "non-object value with shredded fields: value is not an object while typed_value is");
      for (int i = 0; i < residual.count(); i++) {
        String key = residual.key(i);
        check(!shredded.contains(key), "conflicting field '" + key + "': in both value and typed_value");
        fields.add(new VariantWriter.Field(residual.fieldId(i), key, residual.element(i).copy()));
      }
    }
    return VariantWriter.object(fields);
  }

  private byte[] array(ArrayShape a, LeafEntries[] leaves, int[] from, int[] to, VariantMetadata meta) {
    List<byte[]> elements = new ArrayList<>();
    int d = a.driver;
    if (from[d] < to[d] && leaves[d].def(from[d]) >= a.repDef) {
      int count = Integer.MAX_VALUE;
      int[][] starts = new int[leaves.length][];
      for (int leaf : a.leaves) {
        starts[leaf] = leaves[leaf].elementStarts(from[leaf], to[leaf], a.rep);
        count = Math.min(count, starts[leaf].length);
      }
      for (int k = 0; k < count; k++) {
        int[] f = from.clone();
        int[] t = to.clone();
        for (int leaf : a.leaves) {
          f[leaf] = starts[leaf][k];
          t[leaf] = k + 1 < starts[leaf].length ? starts[leaf][k + 1] : to[leaf];
        }
        byte[] v = leaves[d].def(f[d]) >= a.element.def ? value(a.element, leaves, f, t, meta) : null;
        elements.add(v == null ? VariantWriter.NULL : v); // arrays hold no missing elements
      }
    }
    return VariantWriter.array(elements);
  }

  private static byte[] primitive(Primitive p, LeafEntries l, int e) {
    byte[] b = l.values();
    int at = l.valueOffset(e);
    int len = l.valueLength(e);
    int type = primitiveType(p.physical, p.logical, p.length);
    return switch (type) {
      case 1 -> VariantWriter.bool(b[at] != 0);
      case 3 -> VariantWriter.fixed(3, le(b, at, 4), 1);
      case 4 -> VariantWriter.fixed(4, le(b, at, 4), 2);
      case 5, 11, 14 -> VariantWriter.fixed(type, le(b, at, 4), 4);
      case 17 -> {
        long us = le(b, at, 8);
        check(us >= 0 && us < 86_400_000_000L, "shredded time " + us + " us is outside a day");
        yield VariantWriter.fixed(17, us, 8);
      }
      case 6, 7, 12, 13, 18, 19 -> VariantWriter.fixed(type, le(b, at, 8), 8);
      case 15 -> VariantWriter.binary(Arrays.copyOfRange(b, at, at + len));
      case 16 -> VariantWriter.string(Arrays.copyOfRange(b, at, at + len));
      case 20 -> VariantWriter.uuid(Arrays.copyOfRange(b, at, at + len));
      default -> decimal(p, b, at, len);
    };
  }

  private static byte[] decimal(Primitive p, byte[] b, int at, int len) {
    String[] ps = p.logical.substring("DECIMAL(".length(), p.logical.length() - 1).split(",");
    int precision = Integer.parseInt(ps[0].trim());
    int scale = Integer.parseInt(ps[1].trim());
    check(precision >= 1 && precision <= 38 && scale >= 0 && scale <= precision,
        "unsupported shredded type of typed_value: " + p.logical);
    BigInteger unscaled = switch (p.physical) {
      case INT32 -> BigInteger.valueOf((int) le(b, at, 4));
      case INT64 -> BigInteger.valueOf(le(b, at, 8));
      default -> len == 0 ? BigInteger.ZERO : new BigInteger(Arrays.copyOfRange(b, at, at + len));
    };
    return VariantWriter.decimal(unscaled, scale, precision);
  }

  private static long le(byte[] b, int at, int bytes) {
    long v = 0;
    for (int i = 0; i < bytes; i++) {
      v |= (long) (b[at + i] & 0xff) << (8 * i);
    }
    return v;
  }
}
