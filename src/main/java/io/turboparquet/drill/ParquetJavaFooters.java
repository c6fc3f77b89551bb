package io.turboparquet.drill;

import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.ColumnOrder;
import io.turboparquet.format.ColumnStatistics;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.format.SchemaNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.format.BsonType;
import org.apache.parquet.format.CompressionCodec;
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.DateType;
import org.apache.parquet.format.DecimalType;
import org.apache.parquet.format.EnumType;
import org.apache.parquet.format.Float16Type;
import org.apache.parquet.format.IntType;
import org.apache.parquet.format.JsonType;
import org.apache.parquet.format.KeyValue;
import org.apache.parquet.format.ListType;
import org.apache.parquet.format.LogicalType;
import org.apache.parquet.format.MapType;
import org.apache.parquet.format.MicroSeconds;
import org.apache.parquet.format.MilliSeconds;
import org.apache.parquet.format.NanoSeconds;
import org.apache.parquet.format.NullType;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.Statistics;
import org.apache.parquet.format.StringType;
import org.apache.parquet.format.TimeType;
import org.apache.parquet.format.TimeUnit;
import org.apache.parquet.format.TimestampType;
import org.apache.parquet.format.Type;
import org.apache.parquet.format.UUIDType;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.PrimitiveType;

/**
 * parquet-java's footer ({@link ParquetMetadata}) of a file, made from our decoded footer for the
 * two parts of Drill whose API takes nothing else: its nested reader's converters
 * ({@code DrillParquetRecordMaterializer}, {@code ParquetReaderUtility.containsComplexColumn} take
 * parquet-java's schema and footer; {@link ComplexRowGroupReader}) and its DRILL-4203 rule
 * ({@code ParquetReaderUtility.detectCorruptDates} reads the footer's key-values and first row
 * group's date statistics; {@link DateCorrection}). Planning and run-time pruning do not come here:
 * {@link DrillFileMetadata} makes Drill's metadata directly (and the test that holds it equal to
 * Drill's collector over this footer uses this class as its oracle).
 *
 * <p>Only the Thrift wire decoding is ours; the meaning is parquet-java's: the schema is rebuilt as
 * parquet-format's Thrift schema elements and converted by parquet-java's
 * {@link ParquetMetadataConverter} (converted and logical types, column orders), and each chunk's
 * statistics by the same converter (sort orders, the PARQUET-251 created_by check, NaN bounds,
 * signed string min/max), as for the built-in reader.
 *
 * <p>Not passed on: page encoding stats, bloom filter offsets and page index offsets (our model
 * keeps them for its own pruning; no Drill code that takes this footer reads them), and what our
 * model does not keep: field ids, row-group ordinals, and a converted type that disagrees with the
 * logical type (the logical type is kept). Column orders are not passed either: a chunk whose bounds
 * Drill must not use gets its statistics without them ({@link #boundsUsable}), so parquet-java's
 * type-defined default is right for what remains.
 */
final class ParquetJavaFooters {
  private ParquetJavaFooters() {}

  /**
   * The footer as parquet-java reads it with {@code options}. With {@code rootColumns} non-null, row
   * groups carry only the chunks of columns under those top-level names (and always the first
   * chunk, which fixes each row group's starting position): enough for those columns' statistics
   * (DateCorrection's date columns).
   */
  static ParquetMetadata of(FileMetadata footer, ParquetReadOptions options, Set<String> rootColumns)
      throws IOException {
    ParquetMetadataConverter converter = new ParquetMetadataConverter(options);
    // Schema, key-values and created_by through parquet-java's converter; the row groups are
    // built here, chunk by chunk, with parquet-java's statistics conversion: handing it Thrift row
    // groups to convert costs four times our decode (a path lookup and interning per chunk).
    org.apache.parquet.format.FileMetaData thrift = new org.apache.parquet.format.FileMetaData(1,
        schema(footer.schema().root()), footer.numRows(), List.of());
    thrift.setCreated_by(footer.createdBy());
    if (!footer.keyValues().isEmpty()) {
      List<KeyValue> keyValues = new ArrayList<>(footer.keyValues().size());
      for (Map.Entry<String, String> e : footer.keyValues().entrySet()) {
        keyValues.add(new KeyValue(e.getKey()).setValue(e.getValue()));
      }
      thrift.setKey_value_metadata(keyValues);
    }
    org.apache.parquet.hadoop.metadata.FileMetaData file = converter.fromParquetMetadata(thrift).getFileMetaData();
    List<org.apache.parquet.column.ColumnDescriptor> leaves = file.getSchema().getColumns();
    ColumnPath[] paths = new ColumnPath[leaves.size()];
    for (int i = 0; i < paths.length; i++) {
      paths[i] = ColumnPath.get(leaves.get(i).getPath());
    }
    Map<List<io.turboparquet.format.Encoding>, Set<org.apache.parquet.column.Encoding>> encodings = new HashMap<>();
    List<BlockMetaData> blocks = new ArrayList<>(footer.rowGroups().size());
    for (RowGroupMeta rg : footer.rowGroups()) {
      BlockMetaData block = new BlockMetaData();
      block.setRowCount(rg.numRows());
      block.setTotalByteSize(rg.totalByteSize());
      for (ColumnChunkMeta c : rg.columns()) {
        if (c != null && (rootColumns == null || block.getColumns().isEmpty()
            || rootColumns.contains(c.column().path().get(0)))) {
          int leaf = c.column().index();
          block.addColumn(chunk(c, paths[leaf], leaves.get(leaf).getPrimitiveType(), footer.createdBy(), converter,
              encodings, boundsUsable(c, footer.columnOrder(c.column())) && !c.column().isFloat16())); // Drill: bytes
        }
      }
      blocks.add(block);
    }
    return new ParquetMetadata(file, blocks);
  }

  private static List<SchemaElement> schema(SchemaNode root) {
    List<SchemaElement> out = new ArrayList<>();
    SchemaElement element = new SchemaElement(root.name());
    element.setNum_children(root.children().size());
    out.add(element);
    for (SchemaNode child : root.children()) {
      addNode(child, out);
    }
    return out;
  }

  private static void addNode(SchemaNode node, List<SchemaElement> out) {
    SchemaElement e = new SchemaElement(node.name());
    e.setRepetition_type(org.apache.parquet.format.FieldRepetitionType.findByValue(node.repetition().ordinal()));
    if (node.isLeaf()) {
      ColumnDescriptor c = node.column();
      e.setType(Type.findByValue(c.physicalType().ordinal()));
      if (c.typeLength() > 0) {
        e.setType_length(c.typeLength());
      }
    } else {
      e.setNum_children(node.children().size());
    }
    annotate(e, node.logicalType());
    out.add(e);
    for (SchemaNode child : node.children()) {
      addNode(child, out);
    }
  }

  /**
   * Sets the annotation our decoder kept as text: a logical type ("STRING", "DECIMAL(9,2)",
   * "TIMESTAMP(MICROS,true)") or, where the file had only a converted type, that ("UTF8", "INT_8").
   */
  private static void annotate(SchemaElement e, String annotation) {
    if (annotation == null) {
      return;
    }
    int open = annotation.indexOf('(');
    String name = open < 0 ? annotation : annotation.substring(0, open);
    String[] args = open < 0 ? new String[0] : annotation.substring(open + 1, annotation.length() - 1).split(",");
    LogicalType logical = switch (name) {
      case "STRING" -> LogicalType.STRING(new StringType());
      case "MAP" -> LogicalType.MAP(new MapType());
      case "LIST" -> LogicalType.LIST(new ListType());
      case "ENUM" -> LogicalType.ENUM(new EnumType());
      case "DATE" -> LogicalType.DATE(new DateType());
      case "JSON" -> LogicalType.JSON(new JsonType());
      case "BSON" -> LogicalType.BSON(new BsonType());
      case "UUID" -> LogicalType.UUID(new UUIDType());
      case "FLOAT16" -> LogicalType.FLOAT16(new Float16Type());
      case "UNKNOWN" -> LogicalType.UNKNOWN(new NullType());
      case "DECIMAL" -> {
        int precision = Integer.parseInt(args[0]);
        int scale = Integer.parseInt(args[1]);
        // As parquet-java writes it: the logical type, the converted type and the element's own fields.
        e.setConverted_type(ConvertedType.DECIMAL);
        e.setPrecision(precision);
        e.setScale(scale);
        yield LogicalType.DECIMAL(new DecimalType(scale, precision));
      }
      case "TIME" -> LogicalType.TIME(new TimeType(Boolean.parseBoolean(args[1]), unit(args[0])));
      case "TIMESTAMP" -> LogicalType.TIMESTAMP(new TimestampType(Boolean.parseBoolean(args[1]), unit(args[0])));
      case "INTEGER" -> LogicalType.INTEGER(new IntType(Byte.parseByte(args[0]), Boolean.parseBoolean(args[1])));
      default -> null;
    };
    if (logical != null) {
      e.setLogicalType(logical);
      return;
    }
    try {
      e.setConverted_type(ConvertedType.valueOf(name)); // UTF8, MAP_KEY_VALUE, TIME_MILLIS, INT_8, INTERVAL...
    } catch (IllegalArgumentException unknown) {
      // an annotation parquet-java does not know either: unannotated, as it would read it
    }
  }

  private static TimeUnit unit(String name) {
    return switch (name) {
      case "MILLIS" -> TimeUnit.MILLIS(new MilliSeconds());
      case "MICROS" -> TimeUnit.MICROS(new MicroSeconds());
      default -> TimeUnit.NANOS(new NanoSeconds());
    };
  }

  /** One chunk as parquet-java's converter makes it from a Thrift ColumnMetaData. */
  private static ColumnChunkMetaData chunk(ColumnChunkMeta c, ColumnPath path, PrimitiveType type, String createdBy,
      ParquetMetadataConverter converter,
      Map<List<io.turboparquet.format.Encoding>, Set<org.apache.parquet.column.Encoding>> encodingSets,
      boolean bounds) {
    Set<org.apache.parquet.column.Encoding> encodings = encodingSets.computeIfAbsent(c.encodings(), list -> {
      Set<org.apache.parquet.column.Encoding> set = new HashSet<>();
      for (io.turboparquet.format.Encoding e : list) {
        set.add(org.apache.parquet.column.Encoding.valueOf(e.name()));
      }
      return Collections.unmodifiableSet(set);
    });
    return ColumnChunkMetaData.get(path, type,
        CompressionCodecName.fromParquet(CompressionCodec.findByValue(c.codecId())), null, encodings,
        converter.fromParquetStatistics(createdBy, c.statistics() == null ? null : statistics(c.statistics(), bounds),
            type),
        c.dataPageOffset(), Math.max(0, c.dictionaryPageOffset()), c.numValues(), c.totalCompressedSize(),
        c.totalUncompressedSize());
  }

  /**
   * Whether Drill may prune by the chunk's min and max. Not where {@link ColumnOrder#boundsUsable}
   * says no (an order parquet-java 1.15 does not know, which Drill would read as type-ordered;
   * GEOMETRY and GEOGRAPHY), and for FLOAT, DOUBLE and FLOAT16 not where {@code nan_count} says the
   * chunk holds NaN, or, under IEEE 754 total order, where the count is missing: Drill orders NaN
   * above every number but no bound counts NaN, so such a chunk would be pruned by filters its NaN
   * rows pass ({@code f > 3.5}). FLOAT and DOUBLE chunks of writers that write no count keep their
   * bounds, as for the built-in reader; FLOAT16 ones do not (no writer's NaN rule is known for them).
   * The one rule for both forms of the footer Drill gets ({@link DrillFileMetadata}'s too).
   */
  static boolean boundsUsable(ColumnChunkMeta c, ColumnOrder order) {
    ColumnDescriptor column = c.column();
    if (!order.boundsUsable(column)) {
      return false;
    }
    if (!column.isFloating()) {
      return true;
    }
    long nan = c.statistics() == null ? -1 : c.statistics().nanCount();
    return nan == 0 || nan < 0 && order == ColumnOrder.TYPE_DEFINED && !column.isFloat16();
  }

  /** The Thrift statistics of {@code s}; its bounds only if {@code bounds}. */
  private static Statistics statistics(ColumnStatistics s, boolean bounds) {
    Statistics out = new Statistics();
    if (s.hasNullCount()) {
      out.setNull_count(s.nullCount());
    }
    if (s.hasDistinctCount()) {
      out.setDistinct_count(s.distinctCount());
    }
    if (!bounds) {
      return out;
    }
    if (s.max() != null) {
      out.setMax(ByteBuffer.wrap(s.max()));
    }
    if (s.min() != null) {
      out.setMin(ByteBuffer.wrap(s.min()));
    }
    if (s.maxValue() != null) {
      out.setMax_value(ByteBuffer.wrap(s.maxValue()));
    }
    if (s.minValue() != null) {
      out.setMin_value(ByteBuffer.wrap(s.minValue()));
    }
    return out;
  }
}
