package io.turboparquet.drill;

import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.ColumnStatistics;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.format.SchemaNode;
import io.turboparquet.scan.VariantColumn;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.drill.common.expression.SchemaPath;
import org.apache.drill.exec.store.parquet.ParquetReaderConfig;
import org.apache.drill.exec.store.parquet.ParquetReaderUtility;
import org.apache.drill.exec.store.parquet.ParquetReaderUtility.DateCorruptionStatus;
import org.apache.drill.exec.store.parquet.metadata.Metadata;
import org.apache.drill.exec.store.parquet.metadata.Metadata_V4;
import org.apache.drill.exec.store.parquet.metadata.Metadata_V4.ColumnTypeMetadata_v4;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.CorruptStatistics;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.OriginalType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * Drill's planning metadata of one file ({@link Metadata_V4}: the file's row groups with each
 * column's min, max and null count, and the column types it adds to the table), made directly from
 * our decoded footer. It is what Drill's {@code FileMetadataCollector} makes of parquet-java's
 * footer of the file, value for value ({@code DrillFileMetadataTest} holds the two equal over the
 * test corpora), without building that footer.
 *
 * <p>Drill forces parquet-java's vocabulary on the model itself: its types are parquet-java's
 * {@link PrimitiveTypeName}, {@link OriginalType} and {@link Type.Repetition}, and a bound is what
 * parquet-java's {@code Statistics.genericGetMin} gives (Integer, Long, Float, Double, Boolean, or a
 * {@link Binary} for BINARY, FIXED_LEN_BYTE_ARRAY and INT96). Which bounds are usable follows
 * parquet-java's rules (below), its PARQUET-251 check ({@link CorruptStatistics}) reused as is, and
 * ours for NaN ({@link ParquetJavaFooters#boundsUsable}).
 */
record DrillFileMetadata(Metadata_V4.ParquetFileAndRowCountMetadata file,
    Map<ColumnTypeMetadata_v4.Key, ColumnTypeMetadata_v4> types) {

  /**
   * How the plugin's format properties type columns: unsigned integers and FLOAT16 as the built-in
   * reader does ({@code builtInTypes}, else {@link Planned}), a VARIANT as VARBINARY
   * ({@code variantAsBinary}) or VARCHAR.
   */
  record Typing(boolean builtInTypes, boolean variantAsBinary) {
    static Typing of(TurboParquetFormatConfig config) {
      return new Typing(config.readsBuiltInTypes(), config.readsVariantAsBinary());
    }
  }

  /** Every column's statistics, as planning collects them, each column typed as turbo-parquet reads it. */
  static DrillFileMetadata of(FileMetadata footer, FileStatus status, FileSystem fs, ParquetReaderConfig config,
      Typing typing) throws IOException {
    return new Builder(footer, config, null, typing).build(status, fs);
  }

  /**
   * Only the columns under {@code interesting} top-level names (Drill's {@code skipNonInteresting}
   * with a column set, as its run-time pruning asks), without host affinity when {@code fs} is null.
   */
  static DrillFileMetadata of(FileMetadata footer, FileStatus status, FileSystem fs, ParquetReaderConfig config,
      Typing typing, Set<SchemaPath> interesting) throws IOException {
    return new Builder(footer, config, interesting, typing).build(status, fs);
  }

  /**
   * What Drill's collector knows of one leaf: its name, types (as planned), levels and whether it is
   * collected; and how its stored bounds become the planned type's. A VARIANT group is one leaf of
   * Drill's metadata, as the reader gives it one column ({@link ConverterSchema}): every file column
   * under it maps to that leaf, which {@code column}, the group's first, carries; it has no bounds
   * and no null count, and Drill never sees its physical columns, whose types differ from file to
   * file with the shredding.
   */
  private record Leaf(String[] name, PrimitiveTypeName primitive, ColumnTypeMetadata_v4.Key key,
      ColumnTypeMetadata_v4 type, boolean interesting, SignedOrder order, boolean typeDefinedOrder, Planned planned,
      int column, boolean variant) {}

  /** parquet-java's sort order of a column's type, which decides whether deprecated min/max are usable. */
  private enum SignedOrder { SIGNED, UNSIGNED, UNKNOWN }

  private static final class Builder {
    private final FileMetadata footer;
    private final ParquetReaderConfig config;
    private final Set<SchemaPath> interesting;
    private final Leaf[] leaves;
    /** Whether a leaf's chunks are collected at all (Drill's skipNonInteresting). */
    private final boolean skipNonInteresting;
    private final Typing typing;
    private DateCorruptionStatus dates;

    Builder(FileMetadata footer, ParquetReaderConfig config, Set<SchemaPath> interesting, Typing typing) {
      this.footer = footer;
      this.config = config;
      this.interesting = interesting;
      this.skipNonInteresting = interesting != null;
      this.typing = typing;
      this.leaves = leaves();
    }

    DrillFileMetadata build(FileStatus status, FileSystem fs) throws IOException {
      Map<ColumnTypeMetadata_v4.Key, Long> nullCounts = new HashMap<>();
      Map<ColumnTypeMetadata_v4.Key, ColumnTypeMetadata_v4> types = new HashMap<>();
      List<Metadata_V4.RowGroupMetadata_v4> rowGroups = new ArrayList<>(footer.rowGroups().size());
      long rows = 0;
      for (RowGroupMeta rg : footer.rowGroups()) {
        List<Metadata_V4.ColumnMetadata_v4> columns = new ArrayList<>(rg.columns().size());
        long length = 0;
        ColumnChunkMeta first = null;
        rows += rg.numRows();
        for (ColumnChunkMeta c : rg.columns()) {
          if (c == null) {
            continue; // not decoded
          }
          first = first == null ? c : first;
          Leaf leaf = leaves[c.column().index()];
          length += c.totalCompressedSize();
          if (skipNonInteresting && !leaf.interesting() || leaf.column() != c.column().index()) {
            continue;
          }
          ColumnStatistics s = c.statistics();
          long nulls = s != null && s.hasNullCount() && !leaf.variant() ? s.nullCount() : -1;
          add(leaf, nulls, bounds(leaf, c), columns, nullCounts, types);
        }
        if (rg.numRows() == 0) {
          continue; // Drill skips empty row groups (DRILL-5009), once their columns are counted
        }
        long start = startingPos(first);
        rowGroups.add(new Metadata_V4.RowGroupMetadata_v4(start, length, rg.numRows(),
            hostAffinity(fs, status, start, length), columns));
      }
      if (rowGroups.isEmpty()) {
        // Drill's fake row group of a file without rows: every leaf, no bounds, no nulls.
        List<Metadata_V4.ColumnMetadata_v4> columns = new ArrayList<>(leaves.length);
        for (int i = 0; i < leaves.length; i++) {
          Leaf leaf = leaves[i];
          if ((!skipNonInteresting || leaf.interesting()) && leaf.column() == i) {
            add(leaf, 0, null, columns, nullCounts, types);
          }
        }
        rowGroups.add(new Metadata_V4.RowGroupMetadata_v4(0L, 0L, 0L, hostAffinity(fs, status, 0, 0), columns));
      }
      Metadata_V4.ParquetFileMetadata_v4 file = new Metadata_V4.ParquetFileMetadata_v4(
          Path.getPathWithoutSchemeAndAuthority(status.getPath()), status.getLen(), rowGroups);
      return new DrillFileMetadata(new Metadata_V4.ParquetFileAndRowCountMetadata(file, nullCounts, rows), types);
    }

    /** One chunk's column metadata, and its leaf's type and null count for the file (Drill's addColumnMetadata). */
    private void add(Leaf leaf, long nulls, Object[] bounds, List<Metadata_V4.ColumnMetadata_v4> columns,
        Map<ColumnTypeMetadata_v4.Key, Long> nullCounts, Map<ColumnTypeMetadata_v4.Key, ColumnTypeMetadata_v4> types)
        throws IOException {
      Long total = nullCounts.getOrDefault(leaf.key(), Metadata.DEFAULT_NULL_COUNT);
      nullCounts.put(leaf.key(), total < 0 || nulls < 0 ? Metadata.NULL_COUNT_NOT_EXISTS : total + nulls);
      if (leaf.interesting()) {
        Object min = null;
        Object max = null;
        if (bounds != null) {
          min = bounds[0];
          max = bounds[1];
          OriginalType original = leaf.type().originalType;
          if (original == OriginalType.DATE && dates() == DateCorruptionStatus.META_SHOWS_CORRUPTION) {
            min = ParquetReaderUtility.autoCorrectCorruptedDate((Integer) min);
            max = ParquetReaderUtility.autoCorrectCorruptedDate((Integer) max);
          }
          // DRILL-8241: microsecond bounds truncated to the milliseconds Drill reads them as.
          if (original == OriginalType.TIME_MICROS && !config.readTimeMicrosAsInt64()
              || original == OriginalType.TIMESTAMP_MICROS && !config.readTimestampMicrosAsInt64()) {
            min = min instanceof Number n ? Long.valueOf(n.longValue() / 1000) : min;
            max = max instanceof Number n ? Long.valueOf(n.longValue() / 1000) : max;
          }
        }
        columns.add(new Metadata_V4.ColumnMetadata_v4(leaf.name(), leaf.primitive(), min, max, nulls));
      }
      types.put(leaf.key(), leaf.type());
    }

    /**
     * The file's DRILL-4203 status, as Drill's collector decides it for the star ({@link DateCorrection}
     * runs Drill's rule), only once a DATE bound needs it.
     */
    private DateCorruptionStatus dates() throws IOException {
      if (dates == null) {
        dates = DateCorrection.of(footer, List.of(SchemaPath.STAR_COLUMN), config);
      }
      return dates;
    }

    /**
     * The chunk's min and max in Drill's value form, or null when Drill gets none: parquet-java's
     * choice of {@code min_value}/{@code max_value} (kept under the type-defined column order, or
     * when equal) over the deprecated {@code min}/{@code max} (kept for a signed sort order, or
     * when equal, and not from writers with PARQUET-251), then its NaN and signed-zero rules for
     * floating point.
     */
    private Object[] bounds(Leaf leaf, ColumnChunkMeta c) {
      ColumnStatistics s = c.statistics();
      if (s == null || leaf.variant() || !ParquetJavaFooters.boundsUsable(c, footer.columnOrder(c.column()))
          || c.column().isFloat16() && leaf.planned() == Planned.AS_STORED) { // Drill would read them as bytes
        return null;
      }
      byte[] min;
      byte[] max;
      if (s.minValue() != null && s.maxValue() != null) {
        min = s.minValue();
        max = s.maxValue();
        if (!leaf.typeDefinedOrder() && !Arrays.equals(min, max)) {
          return null;
        }
      } else {
        min = s.min();
        max = s.max();
        if (min == null || max == null) {
          return null;
        }
        PrimitiveTypeName stored = primitive(c.column());
        SignedOrder order = config.enableStringsSignedMinMax() && stored == PrimitiveTypeName.BINARY
            && stringLike(originalType(c.column().logicalType()), c.column().logicalType()) ? SignedOrder.SIGNED
            : leaf.order();
        if (CorruptStatistics.shouldIgnoreStatistics(footer.createdBy(), stored)
            || order != SignedOrder.SIGNED && !Arrays.equals(min, max)) {
          return null;
        }
      }
      if (leaf.planned() != Planned.AS_STORED) {
        return leaf.planned().bounds(min, max);
      }
      return switch (leaf.primitive()) {
        case BOOLEAN -> new Object[] {(min[0] & 0xff) != 0, (max[0] & 0xff) != 0};
        case INT32 -> new Object[] {int32(min), int32(max)};
        case INT64 -> new Object[] {int64(min), int64(max)};
        case FLOAT -> floats(Float.intBitsToFloat(int32(min)), Float.intBitsToFloat(int32(max)));
        case DOUBLE -> doubles(Double.longBitsToDouble(int64(min)), Double.longBitsToDouble(int64(max)));
        case BINARY, FIXED_LEN_BYTE_ARRAY, INT96 ->
            new Object[] {Binary.fromReusedByteArray(min), Binary.fromReusedByteArray(max)};
      };
    }

    private Leaf[] leaves() {
      List<ColumnDescriptor> columns = footer.schema().columns();
      Leaf[] out = new Leaf[columns.size()];
      // Drill's collector looks types up by path, the last leaf of a path (names ignore case) winning.
      Map<SchemaPath, Leaf> byPath = new HashMap<>();
      walk(footer.schema().root(), new ArrayList<>(), new ArrayList<>(), 0, 0, typing, out);
      for (Leaf leaf : out) {
        byPath.put(SchemaPath.getCompoundPath(leaf.name()), leaf);
      }
      for (int i = 0; i < out.length; i++) {
        Leaf own = out[i];
        SchemaPath path = SchemaPath.getCompoundPath(own.name());
        Leaf typed = byPath.get(path);
        boolean collected = interesting == null
            || interesting.contains(SchemaPath.getSimplePath(path.getRootSegmentPath()));
        ColumnTypeMetadata_v4 type = new ColumnTypeMetadata_v4.Builder()
            .name(own.name())
            .primitiveType(own.primitive())
            .originalType(typed.type().originalType)
            .precision(typed.type().precision)
            .scale(typed.type().scale)
            .repetitionLevel(typed.type().repetitionLevel)
            .definitionLevel(typed.type().definitionLevel)
            .totalNullCount(0)
            .interesting(collected)
            .parentTypes(typed.type().parentTypes)
            .repetition(typed.type().repetition)
            .build();
        out[i] = new Leaf(own.name(), own.primitive(), new ColumnTypeMetadata_v4.Key(own.name()), type, collected,
            own.order(), own.typeDefinedOrder(), own.planned(), own.column(), own.variant());
      }
      return out;
    }

    /**
     * Each leaf's own types and levels, with the annotations of the groups above it (Drill's
     * ColTypeInfo); {@code def} and {@code rep} are the levels of {@code node}.
     */
    private static void walk(SchemaNode node, List<String> path, List<OriginalType> parents, int def, int rep,
        Typing typing, Leaf[] out) {
      for (SchemaNode child : node.children()) {
        path.add(child.name());
        int childDef = def + (child.repetition() == io.turboparquet.format.Repetition.REQUIRED ? 0 : 1);
        int childRep = rep + (child.repetition() == io.turboparquet.format.Repetition.REPEATED ? 1 : 0);
        if (child.isLeaf()) {
          out[child.column().index()] = leaf(child, path, parents, typing.builtInTypes());
        } else if (VariantColumn.isVariant(child)) {
          List<ColumnDescriptor> columns = child.columns();
          Leaf variant = variant(child, path, parents, childDef, childRep, typing.variantAsBinary(),
              columns.get(0).index());
          columns.forEach(c -> out[c.index()] = variant);
        } else {
          OriginalType original = originalType(child.logicalType());
          if (original == OriginalType.MAP && !logicalMap(child) || original == OriginalType.LIST && !logicalList(child)) {
            original = null;
          }
          parents.add(original);
          walk(child, path, parents, childDef, childRep, typing, out);
          parents.remove(parents.size() - 1);
        }
        path.remove(path.size() - 1);
      }
    }

    /** A VARIANT group as the one BINARY leaf the reader makes of it: UTF8 for its JSON, or bare bytes. */
    private static Leaf variant(SchemaNode group, List<String> path, List<OriginalType> parents, int def, int rep,
        boolean asBinary, int column) {
      ColumnTypeMetadata_v4 type = new ColumnTypeMetadata_v4.Builder()
          .name(path.toArray(new String[0]))
          .primitiveType(PrimitiveTypeName.BINARY)
          .originalType(asBinary ? null : OriginalType.UTF8)
          .repetitionLevel(rep)
          .definitionLevel(def)
          .parentTypes(new ArrayList<>(parents))
          .repetition(repetition(group, parents))
          .build();
      return new Leaf(type.name, PrimitiveTypeName.BINARY, null, type, true, SignedOrder.UNKNOWN, false,
          Planned.AS_STORED, column, true);
    }

    private static Leaf leaf(SchemaNode node, List<String> path, List<OriginalType> parents, boolean builtInTypes) {
      ColumnDescriptor c = node.column();
      String annotation = c.logicalType();
      OriginalType original = originalType(annotation);
      int precision = 0;
      int scale = 0;
      if (annotation != null && annotation.startsWith("DECIMAL(")) {
        String[] args = annotation.substring(8, annotation.length() - 1).split(",");
        precision = Integer.parseInt(args[0]);
        scale = Integer.parseInt(args[1]);
      }
      Planned planned = Planned.of(c, builtInTypes);
      PrimitiveTypeName primitive = primitive(c);
      SignedOrder order = sortOrder(primitive, annotation); // of the stored type: which stored bounds are usable
      if (planned != Planned.AS_STORED) {
        primitive = planned.primitive;
        original = planned.original;
        precision = planned.precision;
      }
      Type.Repetition repetition = repetition(node, parents);
      ColumnTypeMetadata_v4 type = new ColumnTypeMetadata_v4.Builder()
          .name(path.toArray(new String[0]))
          .primitiveType(primitive)
          .originalType(original)
          .precision(precision)
          .scale(scale)
          .repetitionLevel(c.maxRepetitionLevel())
          .definitionLevel(c.maxDefinitionLevel())
          .parentTypes(new ArrayList<>(parents))
          .repetition(repetition)
          .build();
      // parquet-java's default column order: undefined for INT96 and INTERVAL, else type-defined.
      boolean typeDefined = primitive != PrimitiveTypeName.INT96 && original != OriginalType.INTERVAL;
      return new Leaf(type.name, primitive, null, type, true, order, typeDefined, planned, c.index(), false);
    }

    /**
     * A node's repetition as Drill's collector gives a leaf's: REPEATED for an array element, two levels
     * under a LIST (ParquetReaderUtility.isLogicalListType's shape).
     */
    private static Type.Repetition repetition(SchemaNode node, List<OriginalType> parents) {
      int list = parents.size() - 2;
      return list >= 0 && parents.get(list) == OriginalType.LIST ? Type.Repetition.REPEATED
          : Type.Repetition.valueOf(node.repetition().name());
    }

    /** {@code ParquetReaderUtility.isLogicalListType}: one repeated, unannotated group child of one field. */
    private static boolean logicalList(SchemaNode group) {
      if (group.children().size() != 1) {
        return false;
      }
      SchemaNode child = group.children().get(0);
      return child.repetition() == io.turboparquet.format.Repetition.REPEATED && !child.isLeaf()
          && originalType(child.logicalType()) == null && child.children().size() == 1;
    }

    /** {@code ParquetReaderUtility.isLogicalMapType}: one repeated group child of two fields. */
    private static boolean logicalMap(SchemaNode group) {
      if (group.children().size() != 1) {
        return false;
      }
      SchemaNode child = group.children().get(0);
      return child.repetition() == io.turboparquet.format.Repetition.REPEATED && !child.isLeaf()
          && child.children().size() == 2;
    }
  }

  private static PrimitiveTypeName primitive(ColumnDescriptor c) {
    return switch (c.physicalType()) {
      case BOOLEAN -> PrimitiveTypeName.BOOLEAN;
      case INT32 -> PrimitiveTypeName.INT32;
      case INT64 -> PrimitiveTypeName.INT64;
      case INT96 -> PrimitiveTypeName.INT96;
      case FLOAT -> PrimitiveTypeName.FLOAT;
      case DOUBLE -> PrimitiveTypeName.DOUBLE;
      case BYTE_ARRAY -> PrimitiveTypeName.BINARY;
      case FIXED_LEN_BYTE_ARRAY -> PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
    };
  }

  /**
   * parquet-java's {@code OriginalType} of an annotation as our decoder keeps it: a logical type
   * ("STRING", "TIMESTAMP(MICROS,true)", "INTEGER(8,false)") or, where the file had only a converted
   * type, its name. Logical types without a converted form (UUID, FLOAT16, nanosecond times,
   * UNKNOWN) have none.
   */
  static OriginalType originalType(String annotation) {
    if (annotation == null) {
      return null;
    }
    int open = annotation.indexOf('(');
    String name = open < 0 ? annotation : annotation.substring(0, open);
    String[] args = open < 0 ? new String[0] : annotation.substring(open + 1, annotation.length() - 1).split(",");
    return switch (name) {
      case "STRING", "UTF8" -> OriginalType.UTF8;
      case "MAP" -> OriginalType.MAP;
      case "LIST" -> OriginalType.LIST;
      case "ENUM" -> OriginalType.ENUM;
      case "DATE" -> OriginalType.DATE;
      case "JSON" -> OriginalType.JSON;
      case "BSON" -> OriginalType.BSON;
      case "DECIMAL" -> OriginalType.DECIMAL;
      case "TIME" -> switch (args[0]) {
        case "MILLIS" -> OriginalType.TIME_MILLIS;
        case "MICROS" -> OriginalType.TIME_MICROS;
        default -> null;
      };
      case "TIMESTAMP" -> switch (args[0]) {
        case "MILLIS" -> OriginalType.TIMESTAMP_MILLIS;
        case "MICROS" -> OriginalType.TIMESTAMP_MICROS;
        default -> null;
      };
      case "INTEGER" -> {
        boolean signed = Boolean.parseBoolean(args[1]);
        yield switch (args[0]) {
          case "8" -> signed ? OriginalType.INT_8 : OriginalType.UINT_8;
          case "16" -> signed ? OriginalType.INT_16 : OriginalType.UINT_16;
          case "32" -> signed ? OriginalType.INT_32 : OriginalType.UINT_32;
          case "64" -> signed ? OriginalType.INT_64 : OriginalType.UINT_64;
          default -> null;
        };
      }
      case "MAP_KEY_VALUE", "TIME_MILLIS", "TIME_MICROS", "TIMESTAMP_MILLIS", "TIMESTAMP_MICROS", "UINT_8", "UINT_16",
          "UINT_32", "UINT_64", "INT_8", "INT_16", "INT_32", "INT_64", "INTERVAL" -> OriginalType.valueOf(name);
      default -> null; // UUID, FLOAT16, UNKNOWN, and annotations parquet-java does not know
    };
  }

  /**
   * parquet-java's sort order of a column (ParquetMetadataConverter.sortOrder): by the annotation
   * where it decides one (unsigned for strings, enums, JSON, BSON, UUID and unsigned integers;
   * unknown for decimals, intervals, maps and lists; signed for dates, times, signed integers and
   * FLOAT16), else by the physical type (signed numbers, unsigned bytes, unknown INT96).
   */
  private static SignedOrder sortOrder(PrimitiveTypeName primitive, String annotation) {
    OriginalType original = originalType(annotation);
    if (original != null) {
      switch (original) {
        case UTF8, ENUM, JSON, BSON, UINT_8, UINT_16, UINT_32, UINT_64:
          return SignedOrder.UNSIGNED;
        case DECIMAL, INTERVAL, MAP, MAP_KEY_VALUE, LIST:
          return SignedOrder.UNKNOWN;
        default:
          return SignedOrder.SIGNED; // DATE, TIME_*, TIMESTAMP_*, INT_*
      }
    }
    String name = annotation == null ? "" : annotation.replaceFirst("\\(.*", "");
    switch (name) {
      case "UUID":
        return SignedOrder.UNSIGNED;
      case "FLOAT16", "TIME", "TIMESTAMP":
        return SignedOrder.SIGNED; // FLOAT16, and nanosecond times (no converted type)
      case "INTEGER":
        return annotation.endsWith(",true)") ? SignedOrder.SIGNED : SignedOrder.UNSIGNED;
      default:
        return switch (primitive) {
          case BOOLEAN, INT32, INT64, FLOAT, DOUBLE -> SignedOrder.SIGNED;
          case BINARY, FIXED_LEN_BYTE_ARRAY -> SignedOrder.UNSIGNED;
          case INT96 -> SignedOrder.UNKNOWN;
        };
    }
  }

  /**
   * Whether parquet-java's signed string min/max option applies: strings, enums, JSON, or no
   * annotation parquet-java knows (UNKNOWN, converted types from the future).
   */
  private static boolean stringLike(OriginalType original, String annotation) {
    if (annotation == null || original == OriginalType.UTF8 || original == OriginalType.ENUM
        || original == OriginalType.JSON) {
      return true;
    }
    String name = annotation.replaceFirst("\\(.*", "");
    return original == null && !List.of("UUID", "FLOAT16", "TIME", "TIMESTAMP", "INTEGER").contains(name);
  }

  /** parquet-java's float bounds: none when either is NaN, zeros widened to -0.0 and +0.0. */
  static Object[] floats(float min, float max) {
    if (Float.isNaN(min) || Float.isNaN(max)) {
      return null;
    }
    return new Object[] {Float.compare(min, 0.0f) == 0 ? -0.0f : min, Float.compare(max, -0.0f) == 0 ? 0.0f : max};
  }

  private static Object[] doubles(double min, double max) {
    if (Double.isNaN(min) || Double.isNaN(max)) {
      return null;
    }
    return new Object[] {Double.compare(min, 0.0) == 0 ? -0.0 : min, Double.compare(max, -0.0) == 0 ? 0.0 : max};
  }

  static short int16(byte[] b) {
    return (short) ((b[1] & 0xff) << 8 | b[0] & 0xff);
  }

  /** Little-endian, as parquet-java's BytesUtils (which fails on fewer than 4 bytes too). */
  static int int32(byte[] b) {
    return (b[3] & 0xff) << 24 | (b[2] & 0xff) << 16 | (b[1] & 0xff) << 8 | b[0] & 0xff;
  }

  static long int64(byte[] b) {
    long v = 0;
    for (int i = 7; i >= 0; i--) {
      v = v << 8 | b[i] & 0xff;
    }
    return v;
  }

  /** parquet-java's ColumnChunkMetaData.getStartingPos of a row group's first chunk. */
  private static long startingPos(ColumnChunkMeta first) {
    long dictionary = first.dictionaryPageOffset();
    return dictionary > 0 && dictionary < first.dataPageOffset() ? dictionary : first.dataPageOffset();
  }

  /** Drill's FileMetadataCollector.getHostAffinity: each host's share of the row group's bytes. */
  private static Map<String, Float> hostAffinity(FileSystem fs, FileStatus file, long start, long length)
      throws IOException {
    Map<String, Float> affinity = new HashMap<>();
    if (fs == null) {
      return affinity;
    }
    for (BlockLocation block : fs.getFileBlockLocations(file, start, length)) {
      for (String host : block.getHosts()) {
        float share;
        if (length == 0) {
          share = 0.0F;
        } else {
          float blockStart = block.getOffset();
          float blockEnd = blockStart + block.getLength();
          float rowGroupEnd = start + length;
          float calcStart = blockStart < start ? start - blockStart : 0;
          float calcEnd = blockEnd > rowGroupEnd ? blockEnd - rowGroupEnd : 0;
          share = (block.getLength() - calcStart - calcEnd) / length;
        }
        affinity.merge(host, share, Float::sum);
      }
    }
    return affinity;
  }
}
