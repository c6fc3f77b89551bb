package io.turboparquet.format.thrift;

import static io.turboparquet.format.thrift.ThriftCursor.BINARY;
import static io.turboparquet.format.thrift.ThriftCursor.BYTE;
import static io.turboparquet.format.thrift.ThriftCursor.I32;
import static io.turboparquet.format.thrift.ThriftCursor.STRUCT;
import static io.turboparquet.format.thrift.ThriftCursor.boolField;
import static io.turboparquet.format.thrift.ThriftCursor.fieldId;
import static io.turboparquet.format.thrift.ThriftCursor.fieldType;
import static io.turboparquet.format.thrift.ThriftCursor.isBool;

import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.format.Repetition;
import io.turboparquet.format.Schema;
import io.turboparquet.format.SchemaNode;
import java.util.ArrayList;
import java.util.List;

/** FileMetaData.schema: the depth-first list of SchemaElement, rebuilt into our schema tree. */
final class SchemaDecoder {
  private static final int UNSET = Integer.MIN_VALUE;
  /** Deeper nesting is hostile (and would overflow the stack of this recursive builder). */
  private static final int MAX_NESTING = 1000;

  /** One SchemaElement as stored; ints are {@link #UNSET} when absent. */
  private record Element(String name, int type, int typeLength, int repetition, int numChildren, String logical) {}

  private final ThriftCursor r;
  private final int size; // elements in the list
  private final List<ColumnDescriptor> leaves = new ArrayList<>();
  private int next; // elements read

  private SchemaDecoder(ThriftCursor r, int size) {
    this.r = r;
    this.size = size;
  }

  /** Reads the list whose header comes next and builds the schema. */
  static Schema read(ThriftCursor r) throws ParquetCorruptionException {
    int list = r.readList("FileMetaData.schema");
    int size = ThriftCursor.listSize(list);
    if (size == 0) {
      throw r.corrupt("FileMetaData.schema is missing");
    }
    if (ThriftCursor.listType(list) != STRUCT) {
      throw r.corrupt("FileMetaData.schema is a list of wire type " + ThriftCursor.listType(list));
    }
    return new SchemaDecoder(r, size).build();
  }

  private static Element element(ThriftCursor r) throws ParquetCorruptionException {
    String name = null;
    int type = UNSET;
    int typeLength = UNSET;
    int repetition = UNSET;
    int numChildren = UNSET;
    int converted = UNSET;
    int scale = UNSET;
    int precision = UNSET;
    String logical = null;
    for (int f = r.readField(0); f >= 0; ) { // fields in id order, see ThriftCursor.skipField
      int at = r.position();
      if (f == (1 << 4 | I32)) {
        type = r.readI32();
        f = r.readField(1);
      }
      if (f == (2 << 4 | I32)) {
        typeLength = r.readI32();
        f = r.readField(2);
      }
      if (f == (3 << 4 | I32)) {
        repetition = r.readI32();
        f = r.readField(3);
      }
      if (f == (4 << 4 | BINARY)) {
        name = r.readString("SchemaElement.name");
        f = r.readField(4);
      }
      if (f == (5 << 4 | I32)) {
        numChildren = r.readI32();
        f = r.readField(5);
      }
      if (f == (6 << 4 | I32)) {
        converted = r.readI32();
        f = r.readField(6);
      }
      if (f == (7 << 4 | I32)) {
        scale = r.readI32();
        f = r.readField(7);
      }
      if (f == (8 << 4 | I32)) {
        precision = r.readI32();
        f = r.readField(8);
      }
      if (f == (10 << 4 | STRUCT)) {
        logical = logicalType(r);
        f = r.readField(10);
      }
      f = r.position() == at ? r.skipField(f) : f;
    }
    r.require(name != null, "SchemaElement.name");
    // parquet-java writes INTERVAL as converted type INTERVAL with logical type UNKNOWN: the
    // LogicalType union has no interval member, so the converted type says more.
    if ((logical == null || "UNKNOWN".equals(logical)) && converted != UNSET) {
      logical = ThriftEnums.convertedType(converted); // unknown ids fall through as unannotated
      if ("DECIMAL".equals(logical)) {
        logical = "DECIMAL(" + orZero(precision) + "," + orZero(scale) + ")";
      }
    }
    return new Element(name, type, typeLength, repetition, numChildren, logical);
  }

  private static int orZero(int v) {
    return v == UNSET ? 0 : v;
  }

  /** The LogicalType union as text, or null for a member this reader does not know. */
  private static String logicalType(ThriftCursor r) throws ParquetCorruptionException {
    String out = null;
    int last = 0;
    for (int f = r.readField(last); f >= 0; f = r.readField(last)) {
      last = fieldId(f);
      if (fieldType(f) != STRUCT) { // the members are structs: anything else is skipped
        r.skip(fieldType(f));
        continue;
      }
      out = switch (last) {
        case 1 -> empty(r, "STRING");
        case 2 -> empty(r, "MAP");
        case 3 -> empty(r, "LIST");
        case 4 -> empty(r, "ENUM");
        case 5 -> decimal(r);
        case 6 -> empty(r, "DATE");
        case 7 -> timeOrTimestamp(r, "TIME");
        case 8 -> timeOrTimestamp(r, "TIMESTAMP");
        case 10 -> integer(r);
        case 11 -> empty(r, "UNKNOWN");
        case 12 -> empty(r, "JSON");
        case 13 -> empty(r, "BSON");
        case 14 -> empty(r, "UUID");
        case 15 -> empty(r, "FLOAT16");
        case 16 -> variant(r);
        case 17 -> geospatial(r, "GEOMETRY");
        case 18 -> geospatial(r, "GEOGRAPHY");
        default -> {
          r.skip(STRUCT);
          yield out;
        }
      };
    }
    return out;
  }

  /** A member without fields of its own (future fields are skipped). */
  private static String empty(ThriftCursor r, String name) throws ParquetCorruptionException {
    r.skip(STRUCT);
    return name;
  }

  /** "VARIANT", or "VARIANT(v)" with the specification version the writer names. */
  private static String variant(ThriftCursor r) throws ParquetCorruptionException {
    int version = UNSET;
    int last = 0;
    for (int f = r.readField(last); f >= 0; f = r.readField(last)) {
      last = fieldId(f);
      if (f == (1 << 4 | BYTE)) {
        version = r.readI8();
      } else {
        r.skip(fieldType(f));
      }
    }
    return version == UNSET ? "VARIANT" : "VARIANT(" + version + ")";
  }

  /**
   * "GEOMETRY", "GEOGRAPHY", or with the CRS (and the edge algorithm) in parentheses where the
   * writer stored either, the spec's defaults (OGC:CRS84, SPHERICAL) filling in: as parquet-java
   * 1.18 names them.
   */
  private static String geospatial(ThriftCursor r, String name) throws ParquetCorruptionException {
    String crs = null;
    String algorithm = null;
    int last = 0;
    for (int f = r.readField(last); f >= 0; f = r.readField(last)) {
      last = fieldId(f);
      if (f == (1 << 4 | BINARY)) {
        crs = r.readString(name + "Type.crs");
      } else if (f == (2 << 4 | I32) && name.equals("GEOGRAPHY")) {
        algorithm = ThriftEnums.edgeAlgorithm(r.readI32());
      } else {
        r.skip(fieldType(f));
      }
    }
    if (crs == null && algorithm == null) {
      return name;
    }
    crs = crs == null ? "OGC:CRS84" : crs;
    return name.equals("GEOGRAPHY") ? name + "(" + crs + "," + (algorithm == null ? "SPHERICAL" : algorithm) + ")"
        : name + "(" + crs + ")";
  }

  private static String decimal(ThriftCursor r) throws ParquetCorruptionException {
    int scale = UNSET;
    int precision = UNSET;
    for (int f = r.readField(0); f >= 0; ) { // fields in id order, see ThriftCursor.skipField
      int at = r.position();
      if (f == (1 << 4 | I32)) {
        scale = r.readI32();
        f = r.readField(1);
      }
      if (f == (2 << 4 | I32)) {
        precision = r.readI32();
        f = r.readField(2);
      }
      f = r.position() == at ? r.skipField(f) : f;
    }
    r.require(scale != UNSET, "DecimalType.scale");
    r.require(precision != UNSET, "DecimalType.precision");
    return "DECIMAL(" + precision + "," + scale + ")";
  }

  private static String timeOrTimestamp(ThriftCursor r, String name) throws ParquetCorruptionException {
    Boolean utc = null;
    String unit = null;
    for (int f = r.readField(0); f >= 0; ) { // fields in id order, see ThriftCursor.skipField
      int at = r.position();
      if (fieldId(f) == 1 && isBool(f)) {
        utc = boolField(f);
        f = r.readField(1);
      }
      if (f == (2 << 4 | STRUCT)) {
        unit = timeUnit(r);
        f = r.readField(2);
      }
      f = r.position() == at ? r.skipField(f) : f;
    }
    r.require(utc != null, name + "Type.isAdjustedToUTC");
    r.require(unit != null, name + "Type.unit");
    return name + "(" + unit + "," + utc + ")";
  }

  private static String timeUnit(ThriftCursor r) throws ParquetCorruptionException {
    String unit = "NANOS"; // what the Thrift-generated conversion reports for an unknown unit
    int last = 0;
    for (int f = r.readField(last); f >= 0; f = r.readField(last)) {
      last = fieldId(f);
      if (last == 1 || last == 2) {
        unit = last == 1 ? "MILLIS" : "MICROS";
      }
      r.skip(fieldType(f));
    }
    return unit;
  }

  private static String integer(ThriftCursor r) throws ParquetCorruptionException {
    int bitWidth = UNSET;
    Boolean signed = null;
    for (int f = r.readField(0); f >= 0; ) { // fields in id order, see ThriftCursor.skipField
      int at = r.position();
      if (f == (1 << 4 | BYTE)) {
        bitWidth = r.readI8();
        f = r.readField(1);
      }
      if (fieldId(f) == 2 && isBool(f)) {
        signed = boolField(f);
        f = r.readField(2);
      }
      f = r.position() == at ? r.skipField(f) : f;
    }
    r.require(bitWidth != UNSET, "IntType.bitWidth");
    r.require(signed != null, "IntType.isSigned");
    return "INTEGER(" + bitWidth + "," + signed + ")";
  }

  private Schema build() throws ParquetCorruptionException {
    Element rootElement = element(r); // each element is read as the tree reaches it
    next = 1;
    List<SchemaNode> children = children(orZero(rootElement.numChildren()), List.of(), 0, 0);
    if (next != size) {
      throw r.corrupt("FileMetaData.schema has " + size + " elements but the tree uses " + next);
    }
    SchemaNode root = new SchemaNode(rootElement.name(), Repetition.REQUIRED, null, children, null);
    return new Schema(root, leaves);
  }

  private List<SchemaNode> children(int count, List<String> parentPath, int def, int rep)
      throws ParquetCorruptionException {
    if (count < 0 || count > size - next) {
      throw r.corrupt("SchemaElement.num_children " + count + " exceeds the remaining " + (size - next)
          + " schema elements");
    }
    List<SchemaNode> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      out.add(node(parentPath, def, rep));
    }
    return out;
  }

  private SchemaNode node(List<String> parentPath, int def, int rep) throws ParquetCorruptionException {
    if (parentPath.size() >= MAX_NESTING) {
      throw r.corrupt("the schema nests groups more than " + MAX_NESTING + " levels deep");
    }
    if (next >= size) { // siblings' subtrees used up the elements their parent counted on
      throw r.corrupt("SchemaElement.num_children of " + (parentPath.isEmpty() ? "the root" : String.join(".", parentPath))
          + " counts more children than the " + size + " schema elements hold");
    }
    Element e = element(r);
    next++;
    String[] names = parentPath.toArray(new String[parentPath.size() + 1]);
    names[parentPath.size()] = e.name();
    List<String> path = List.of(names); // immutable: the column keeps it as it is
    Repetition repetition;
    try {
      repetition = e.repetition() == UNSET ? Repetition.OPTIONAL : Repetition.fromThriftId(e.repetition());
    } catch (IllegalArgumentException unknown) {
      throw r.corrupt("SchemaElement.repetition_type of " + String.join(".", path) + ": " + unknown.getMessage());
    }
    int d = def + (repetition == Repetition.REQUIRED ? 0 : 1);
    int rp = rep + (repetition == Repetition.REPEATED ? 1 : 0);
    if (e.numChildren() != UNSET && e.numChildren() > 0) {
      return new SchemaNode(e.name(), repetition, e.logical(), children(e.numChildren(), path, d, rp), null);
    }
    if (e.type() == UNSET) {
      throw r.corrupt("SchemaElement.type is missing for leaf " + String.join(".", path));
    }
    PhysicalType type;
    try {
      type = PhysicalType.fromThriftId(e.type());
    } catch (IllegalArgumentException unknown) {
      throw r.corrupt("SchemaElement.type of leaf " + String.join(".", path) + ": " + unknown.getMessage());
    }
    int typeLength = 0;
    if (type == PhysicalType.FIXED_LEN_BYTE_ARRAY) {
      if (e.typeLength() == UNSET || e.typeLength() <= 0) {
        throw r.corrupt("SchemaElement.type_length must be positive for FIXED_LEN_BYTE_ARRAY column "
            + String.join(".", path));
      }
      // Every row, null or not, takes a slot of this width in a batch: a value no footer string may
      // be as long as is a claim only the schema makes, and it would cost its memory on every row.
      if (e.typeLength() > r.maxStringLength()) {
        throw r.corrupt("SchemaElement.type_length " + e.typeLength() + " of FIXED_LEN_BYTE_ARRAY column "
            + String.join(".", path) + " is above the limit of " + r.maxStringLength() + " (FooterOptions.maxStringLength)");
      }
      typeLength = e.typeLength();
    }
    ColumnDescriptor column = new ColumnDescriptor(leaves.size(), path, type, typeLength, repetition, d, rp,
        e.logical());
    leaves.add(column);
    return new SchemaNode(e.name(), repetition, e.logical(), List.of(), column);
  }
}
