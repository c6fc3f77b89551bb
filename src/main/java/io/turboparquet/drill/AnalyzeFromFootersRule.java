package io.turboparquet.drill;

import java.io.IOException;
import java.math.BigDecimal;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.RelNode;
import org.apache.drill.common.expression.PathSegment;
import org.apache.drill.common.expression.SchemaPath;
import org.apache.drill.exec.expr.IsPredicate;
import org.apache.drill.exec.metastore.ColumnNamesOptions;
import org.apache.drill.exec.metastore.analyze.AnalyzeColumnUtils;
import org.apache.drill.exec.metastore.analyze.MetadataAggregateContext;
import org.apache.drill.exec.metastore.analyze.MetastoreAnalyzeConstants;
import org.apache.drill.exec.physical.base.ScanStats;
import org.apache.drill.exec.planner.logical.DrillDirectScanRel;
import org.apache.drill.exec.planner.logical.DrillRel;
import org.apache.drill.exec.planner.logical.DrillRelFactories;
import org.apache.drill.exec.planner.logical.DrillScanRel;
import org.apache.drill.exec.planner.logical.MetadataAggRel;
import org.apache.drill.exec.planner.logical.RelOptHelper;
import org.apache.drill.exec.planner.physical.PrelUtil;
import org.apache.drill.exec.record.metadata.ColumnMetadata;
import org.apache.drill.exec.record.metadata.DictColumnMetadata;
import org.apache.drill.exec.record.metadata.TupleMetadata;
import org.apache.drill.exec.store.ColumnExplorer;
import org.apache.drill.exec.store.dfs.FormatSelection;
import org.apache.drill.exec.store.direct.DirectGroupScan;
import org.apache.drill.exec.store.parquet.BaseParquetMetadataProvider;
import org.apache.drill.exec.store.pojo.DynamicPojoRecordReader;
import org.apache.drill.exec.util.ImpersonationUtil;
import org.apache.drill.exec.util.Utilities;
import org.apache.drill.metastore.metadata.MetadataType;
import org.apache.drill.metastore.metadata.RowGroupMetadata;
import org.apache.drill.metastore.statistics.ColumnStatistics;
import org.apache.drill.metastore.statistics.ColumnStatisticsKind;
import org.apache.drill.metastore.statistics.ExactStatisticsConstants;
import org.apache.drill.metastore.statistics.StatisticsKind;
import org.apache.drill.metastore.statistics.TableStatisticsKind;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code ANALYZE TABLE ... REFRESH METADATA} from the footers for turbo-parquet tables, as Drill
 * analyzes its own Parquet tables: the metadata aggregate over the table's scan becomes a direct
 * scan of one record per row group, made from the row-group metadata planning already holds (our
 * decoded footers), so no data page is read. Drill's rule for this
 * ({@code ConvertMetadataAggregateToDirectScanRule}) takes only its {@code ParquetGroupScan}; this
 * one takes ours and makes the records that rule makes (the same fields in the same order, the
 * same values), so the metastore stores what it stores for the built-in reader. Where some
 * metadata is missing (a column without statistics in a row group, a statistic no row group has)
 * the rule does nothing and Drill scans the table, as it does then for its own. It also leaves to
 * the scan a table with a statistic the direct scan's reader cannot carry (the BigInteger bounds
 * of an integer-backed DECIMAL): Drill's own rule takes those and its ANALYZE fails.
 */
final class AnalyzeFromFootersRule extends RelOptRule {
  static final AnalyzeFromFootersRule INSTANCE = new AnalyzeFromFootersRule();
  private static final Logger logger = LoggerFactory.getLogger(AnalyzeFromFootersRule.class);
  /** The value classes Drill's {@code DynamicPojoRecordReader} writes ({@code PojoWriters}). */
  private static final Set<Class<?>> RECORD_TYPES = Set.of(Integer.class, Long.class, Boolean.class, Float.class,
      Double.class, String.class, BigDecimal.class, Timestamp.class);

  private AnalyzeFromFootersRule() {
    super(RelOptHelper.some(MetadataAggRel.class, RelOptHelper.any(DrillScanRel.class)),
        DrillRelFactories.LOGICAL_BUILDER, "TurboParquetAnalyzeFromFootersRule");
  }

  @Override
  public boolean matches(RelOptRuleCall call) {
    DrillScanRel scan = call.rel(1);
    return scan.getGroupScan() instanceof TurboParquetGroupScan;
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    MetadataAggRel aggregate = call.rel(0);
    DrillScanRel scan = call.rel(1);
    TurboParquetGroupScan groupScan = (TurboParquetGroupScan) scan.getGroupScan();
    MetadataAggregateContext context = aggregate.getContext();
    List<SchemaPath> wanted = context.interestingColumns();
    List<SchemaPath> held = groupScan.getTableMetadata().getInterestingColumns();
    if (held != null && (wanted == null || !held.containsAll(wanted))) {
      return; // the table's metadata lacks statistics of columns the aggregate wants
    }
    DirectGroupScan direct;
    try {
      FormatSelection selection = (FormatSelection) Utilities.getDrillTable(scan.getTable()).getSelection();
      ColumnNamesOptions names = new ColumnNamesOptions(PrelUtil.getPlannerSettings(call.getPlanner()).getOptions());
      direct = new RowGroupRecords(groupScan, selection, names).directScan(wanted);
    } catch (IOException | RuntimeException e) {
      logger.warn("ANALYZE of {} scans the table: {}", groupScan.getSelectionRoot(), e.toString(), e);
      return;
    }
    if (direct == null) {
      logger.warn("ANALYZE of {} scans the table: its footers lack some metadata, or hold a statistic of a type "
          + "the direct scan cannot carry",
          groupScan.getSelectionRoot());
      return;
    }
    RelNode converted = new DrillDirectScanRel(scan.getCluster(), scan.getTraitSet().plus(DrillRel.DRILL_LOGICAL),
        direct, scan.getRowType());
    if (context.metadataLevel() != MetadataType.ROW_GROUP) {
      // The direct scan gives row groups; the aggregate above them makes files, segments, the table.
      converted = new MetadataAggRel(aggregate.getCluster(), aggregate.getTraitSet(), converted,
          context.toBuilder().createNewAggregations(false).build());
    }
    call.transformTo(converted);
  }

  /**
   * The records of a table's row groups: partition values, location, row-group index, each
   * interesting column's statistics, the row group's own statistics, schema, start, length and
   * the file's modification time. Fields are ordered by first appearance; a field's type is that
   * of its first non-null value (partition and internal fields are strings).
   */
  private static final class RowGroupRecords {
    private final TurboParquetGroupScan groupScan;
    private final FormatSelection selection;
    private final ColumnNamesOptions names;
    /** The table's partition columns (dir0, dir1, ...). */
    private final List<String> partitions;
    private final Set<String> fields = new LinkedHashSet<>();
    private final Map<String, Class<?>> types = new HashMap<>();
    private final List<Map<String, Object>> rows = new ArrayList<>();
    /** A statistic of a class the record reader cannot write was met. */
    private boolean unwritable;

    RowGroupRecords(TurboParquetGroupScan groupScan, FormatSelection selection, ColumnNamesOptions names) {
      this.groupScan = groupScan;
      this.selection = selection;
      this.names = names;
      this.partitions = ColumnExplorer.getPartitionColumnNames(selection.getSelection(), names);
      for (String partition : partitions) {
        types.put(partition, String.class);
      }
      for (String internal : List.of(MetastoreAnalyzeConstants.SCHEMA_FIELD, MetastoreAnalyzeConstants.LOCATION_FIELD,
          names.rowGroupIndex(), names.rowGroupStart(), names.rowGroupLength(), names.lastModifiedTime())) {
        types.put(internal, String.class);
      }
    }

    /** The direct scan of the records, or null when some metadata is missing or cannot be carried. */
    DirectGroupScan directScan(List<SchemaPath> wanted) throws IOException {
      Path root = selection.getSelection().getSelectionRoot();
      FileSystem fs = ImpersonationUtil.createFileSystem(groupScan.getUserName(),
          groupScan.formatPlugin().getFsConf());
      Map<Path, String> modified = new HashMap<>();
      // Without a list from the aggregate, the first row group's columns (as Drill's rule takes
      // them): a row group without statistics of one of those leaves the table to a scan.
      Collection<SchemaPath> columns = wanted;
      for (Map.Entry<Path, RowGroupMetadata> entry
          : groupScan.getMetadataProvider().getRowGroupsMetadataMap().entries()) {
        Path file = entry.getKey();
        RowGroupMetadata rowGroup = entry.getValue();
        Map<String, Object> row = new HashMap<>();
        List<String> values = ColumnExplorer.listPartitionValues(file, root, false);
        for (int i = 0; i < values.size(); i++) {
          put(row, partitions.get(i), values.get(i));
        }
        put(row, MetastoreAnalyzeConstants.LOCATION_FIELD, ColumnExplorer.ImplicitFileColumns.FQN.getValue(file));
        put(row, names.rowGroupIndex(), String.valueOf(rowGroup.getRowGroupIndex()));
        if (columns == null) {
          columns = rowGroup.getColumnsStatistics().keySet();
        }
        for (SchemaPath column : columns) {
          if (!columnStatistics(row, rowGroup, column)) {
            return null;
          }
        }
        for (StatisticsKind<?> kind : AnalyzeColumnUtils.META_STATISTICS_FUNCTIONS.keySet()) {
          value(row, AnalyzeColumnUtils.getMetadataStatisticsFieldName(kind), rowGroup.getStatistic(kind));
        }
        put(row, MetastoreAnalyzeConstants.SCHEMA_FIELD, rowGroup.getSchema().jsonString());
        put(row, names.rowGroupStart(), Long.toString(rowGroup.getStatistic(() -> ExactStatisticsConstants.START)));
        put(row, names.rowGroupLength(), Long.toString(rowGroup.getStatistic(() -> ExactStatisticsConstants.LENGTH)));
        String time = modified.get(file);
        if (time == null) {
          time = String.valueOf(fs.getFileStatus(fs.makeQualified(file)).getModificationTime());
          modified.put(file, time);
        }
        put(row, names.lastModifiedTime(), time);
        rows.add(row);
      }
      if (unwritable) {
        return null;
      }
      LinkedHashMap<String, Class<?>> schema = new LinkedHashMap<>();
      for (String field : fields) {
        Class<?> type = types.get(field);
        if (type == null) {
          return null; // no row group has a value of it
        }
        schema.put(field, type);
      }
      List<List<Object>> records = new ArrayList<>(rows.size());
      for (Map<String, Object> row : rows) {
        List<Object> record = new ArrayList<>(schema.size());
        for (String field : schema.keySet()) {
          Object v = row.get(field);
          record.add(v == BaseParquetMetadataProvider.NULL_VALUE ? null : v);
        }
        records.add(record);
      }
      ScanStats stats = new ScanStats(ScanStats.GroupScanProperty.EXACT_ROW_COUNT, records.size(), 1, types.size());
      return new DirectGroupScan(new DynamicPojoRecordReader<>(schema, records), stats);
    }

    /**
     * Adds a column's statistics (the aggregate's kinds) to the row; false when the row group has
     * none for it. Columns in arrays are left out, as the metastore keeps no statistics of them.
     */
    private boolean columnStatistics(Map<String, Object> row, RowGroupMetadata rowGroup, SchemaPath column) {
      ColumnStatistics<?> statistics = rowGroup.getColumnsStatistics().get(column);
      if (inArray(rowGroup.getSchema(), column)) {
        return true;
      }
      if (IsPredicate.isNullOrEmpty(statistics)) {
        return false;
      }
      for (StatisticsKind<?> kind : AnalyzeColumnUtils.COLUMN_STATISTICS_FUNCTIONS.keySet()) {
        Object v;
        if (kind.getName().equalsIgnoreCase(TableStatisticsKind.ROW_COUNT.getName())) {
          v = TableStatisticsKind.ROW_COUNT.getValue(rowGroup);
        } else if (kind.getName().equalsIgnoreCase(ColumnStatisticsKind.NON_NULL_VALUES_COUNT.getName())) {
          v = TableStatisticsKind.ROW_COUNT.getValue(rowGroup) - ColumnStatisticsKind.NULLS_COUNT.getFrom(statistics);
        } else {
          v = statistics.get(kind);
        }
        value(row, AnalyzeColumnUtils.getColumnStatisticsFieldName(column.toExpr(), kind), v);
      }
      return true;
    }

    /** A statistic: its value (the field typed by the first one), or the null marker. */
    private void value(Map<String, Object> row, String field, Object v) {
      if (v != null) {
        unwritable |= !RECORD_TYPES.contains(v.getClass());
        types.putIfAbsent(field, v.getClass());
        put(row, field, v);
      } else {
        put(row, field, BaseParquetMetadataProvider.NULL_VALUE);
      }
    }

    private void put(Map<String, Object> row, String field, Object v) {
      fields.add(field);
      row.put(field, v);
    }

    /** Whether the column lies in an array (a repeated field on its path, maps and dicts followed down). */
    private static boolean inArray(TupleMetadata schema, SchemaPath column) {
      PathSegment segment = column.getRootSegment();
      ColumnMetadata field = schema.metadata(segment.getNameSegment().getPath());
      while (field != null) {
        if (field.isArray()) {
          return true;
        }
        if (field.isMap()) {
          segment = segment.getChild();
          field = field.tupleSchema().metadata(segment.getNameSegment().getPath());
        } else if (field.isDict()) {
          segment = segment.getChild();
          field = ((DictColumnMetadata) field).valueColumnMetadata();
        } else {
          return false;
        }
      }
      return false;
    }
  }
}
