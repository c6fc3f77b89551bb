package io.turboparquet.drill;

import com.google.common.collect.LinkedListMultimap;
import com.google.common.collect.Multimap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.drill.common.expression.SchemaPath;
import org.apache.drill.common.types.TypeProtos;
import org.apache.drill.exec.record.metadata.TupleMetadata;
import org.apache.drill.exec.record.metadata.TupleSchema;
import org.apache.drill.exec.store.parquet.ParquetReaderUtility;
import org.apache.drill.exec.store.parquet.ParquetTableMetadataUtils;
import org.apache.drill.exec.store.parquet.metadata.MetadataBase;
import org.apache.drill.metastore.metadata.MetadataInfo;
import org.apache.drill.metastore.metadata.MetadataType;
import org.apache.drill.metastore.metadata.RowGroupMetadata;
import org.apache.drill.metastore.metadata.TableInfo;
import org.apache.drill.metastore.statistics.BaseStatisticsKind;
import org.apache.drill.metastore.statistics.ColumnStatistics;
import org.apache.drill.metastore.statistics.ColumnStatisticsKind;
import org.apache.drill.metastore.statistics.ExactStatisticsConstants;
import org.apache.drill.metastore.statistics.Statistic;
import org.apache.drill.metastore.statistics.StatisticsHolder;
import org.apache.drill.metastore.statistics.TableStatisticsKind;
import org.apache.drill.metastore.util.SchemaPathUtils;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.schema.OriginalType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * Drill's planning metadata of every row group of a table (a {@link RowGroupMetadata} each: schema,
 * column statistics, row count, start, length), equal to what Drill's
 * {@code ParquetTableMetadataUtils.getRowGroupsMetadata} makes of the same table metadata.
 *
 * <p>Drill resolves each column's path, types and mode from the table's type map once per row group,
 * and builds each row group's schema anew: on a table of 50 files x 20 row groups x 1,000 columns
 * that is a million lookups and a thousand identical schemas, most of its planning time. Here that
 * work is done once per distinct column list ({@link Columns}), which every row group of a file,
 * and usually every file of a table, shares; only the statistics are built per row group. Row
 * groups whose columns differ in any way from the list they are matched against get their own.
 */
final class RowGroupsMetadata {
  private static final MetadataInfo ROW_GROUP = MetadataInfo.builder().type(MetadataType.ROW_GROUP).build();
  private static final BaseStatisticsKind<Long> START = new BaseStatisticsKind<>(ExactStatisticsConstants.START, true);
  private static final BaseStatisticsKind<Long> LENGTH = new BaseStatisticsKind<>(ExactStatisticsConstants.LENGTH, true);

  private final MetadataBase.ParquetTableMetadataBase table;
  /** The column lists seen so far; a table rarely has more than a few. */
  private final List<Columns> known = new ArrayList<>();

  private RowGroupsMetadata(MetadataBase.ParquetTableMetadataBase table) {
    this.table = table;
  }

  /** Every row group of the table, by file path (without scheme), in the table's file order. */
  static Multimap<Path, RowGroupMetadata> of(MetadataBase.ParquetTableMetadataBase table) {
    RowGroupsMetadata builder = new RowGroupsMetadata(table);
    Multimap<Path, RowGroupMetadata> rowGroups = LinkedListMultimap.create();
    for (MetadataBase.ParquetFileMetadata file : table.getFiles()) {
      Path path = Path.getPathWithoutSchemeAndAuthority(file.getPath());
      List<? extends MetadataBase.RowGroupMetadata> groups = file.getRowGroups();
      int index = 0;
      for (MetadataBase.RowGroupMetadata group : groups) {
        int indexInFile;
        if (group.isEmpty()) {
          // Drill's rule: an empty file has one fake row group, indexed -1.
          if (groups.size() != 1) {
            throw new IllegalStateException("Only one empty / fake row group is allowed per file: " + path);
          }
          indexInFile = -1;
        } else {
          indexInFile = index++;
        }
        rowGroups.put(path, builder.rowGroup(group, indexInFile, path));
      }
    }
    return rowGroups;
  }

  private RowGroupMetadata rowGroup(MetadataBase.RowGroupMetadata group, int indexInFile, Path path) {
    List<? extends MetadataBase.ColumnMetadata> columns = group.getColumns();
    Columns shape = shapeOf(group, columns);
    Map<SchemaPath, ColumnStatistics<?>> statistics = new HashMap<>(columns.size() * 4 / 3 + 1);
    for (int i = 0; i < columns.size(); i++) {
      MetadataBase.ColumnMetadata column = columns.get(i);
      Long nulls = column.getNulls();
      // Drill's rule (hasInvalidStatistics): no null count, or a required column with a min or max missing.
      if (!column.isNumNullsSet()
          || ((column.getMinValue() == null || column.getMaxValue() == null) && nulls == 0 && shape.required[i])) {
        nulls = Statistic.NO_COLUMN_STATS;
      }
      PrimitiveTypeName primitive = shape.primitive[i];
      OriginalType original = shape.original[i];
      List<StatisticsHolder<?>> holders = List.of(
          new StatisticsHolder<>(ParquetTableMetadataUtils.getValue(column.getMinValue(), primitive, original),
              ColumnStatisticsKind.MIN_VALUE),
          new StatisticsHolder<>(ParquetTableMetadataUtils.getValue(column.getMaxValue(), primitive, original),
              ColumnStatisticsKind.MAX_VALUE),
          new StatisticsHolder<>(nulls, ColumnStatisticsKind.NULLS_COUNT));
      statistics.put(shape.path[i], new ColumnStatistics<>(holders, shape.minor[i]));
    }
    List<StatisticsHolder<?>> rowGroupStatistics = new ArrayList<>(3);
    rowGroupStatistics.add(new StatisticsHolder<>(group.getRowCount(), TableStatisticsKind.ROW_COUNT));
    rowGroupStatistics.add(new StatisticsHolder<>(group.getStart(), START));
    rowGroupStatistics.add(new StatisticsHolder<>(group.getLength(), LENGTH));
    return RowGroupMetadata.builder()
        .tableInfo(TableInfo.UNKNOWN_TABLE_INFO)
        .metadataInfo(ROW_GROUP)
        .schema(shape.schema)
        .columnsStatistics(statistics)
        .metadataStatistics(rowGroupStatistics)
        .hostAffinity(group.getHostAffinity())
        .rowGroupIndex(indexInFile)
        .path(path)
        .build();
  }

  /** The known column list this row group has, or a new one made from it. */
  private Columns shapeOf(MetadataBase.RowGroupMetadata group, List<? extends MetadataBase.ColumnMetadata> columns) {
    for (Columns shape : known) {
      if (shape.matches(columns)) {
        return shape;
      }
    }
    Columns shape = new Columns(table, group, columns);
    known.add(shape);
    return shape;
  }

  /**
   * What Drill derives from a row group's column list and the table's type map: each column's path,
   * types and whether it is required, and the row group's schema. Shared by the row groups with that
   * list (the schema too: Drill's planner only reads row-group schemas).
   */
  private static final class Columns {
    private final String[][] names;
    private final PrimitiveTypeName[] ownPrimitive;
    private final OriginalType[] ownOriginal;
    final SchemaPath[] path;
    final PrimitiveTypeName[] primitive;
    final OriginalType[] original;
    final TypeProtos.MinorType[] minor;
    final boolean[] required;
    final TupleMetadata schema;

    Columns(MetadataBase.ParquetTableMetadataBase table, MetadataBase.RowGroupMetadata group,
        List<? extends MetadataBase.ColumnMetadata> columns) {
      int n = columns.size();
      names = new String[n][];
      ownPrimitive = new PrimitiveTypeName[n];
      ownOriginal = new OriginalType[n];
      path = new SchemaPath[n];
      primitive = new PrimitiveTypeName[n];
      original = new OriginalType[n];
      minor = new TypeProtos.MinorType[n];
      required = new boolean[n];
      for (int i = 0; i < n; i++) {
        MetadataBase.ColumnMetadata column = columns.get(i);
        names[i] = column.getName();
        ownPrimitive[i] = column.getPrimitiveType();
        ownOriginal[i] = column.getOriginalType();
        path[i] = SchemaPath.getCompoundPath(names[i]);
        primitive[i] = ParquetTableMetadataUtils.getPrimitiveTypeName(table, column);
        original[i] = ParquetTableMetadataUtils.getOriginalType(table, column);
        minor[i] = ParquetReaderUtility.getMinorType(primitive[i], original[i]);
        required[i] = table.getRepetition(names[i]) == Type.Repetition.REQUIRED;
      }
      Map<SchemaPath, TypeProtos.MajorType> fields = ParquetTableMetadataUtils.getRowGroupFields(table, group);
      Map<SchemaPath, TypeProtos.MajorType> intermediate = ParquetTableMetadataUtils.getIntermediateFields(table, group);
      TupleSchema tuple = new TupleSchema();
      fields.forEach((column, type) -> SchemaPathUtils.addColumnMetadata(tuple, column, type, intermediate));
      schema = tuple;
    }

    /** Whether a row group's columns are these: the same names and the same types of their own, in order. */
    boolean matches(List<? extends MetadataBase.ColumnMetadata> columns) {
      if (columns.size() != names.length) {
        return false;
      }
      for (int i = 0; i < names.length; i++) {
        MetadataBase.ColumnMetadata column = columns.get(i);
        if (column.getPrimitiveType() != ownPrimitive[i] || column.getOriginalType() != ownOriginal[i]
            || !Arrays.equals(column.getName(), names[i])) {
          return false;
        }
      }
      return true;
    }
  }
}
