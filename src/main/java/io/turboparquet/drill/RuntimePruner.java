package io.turboparquet.drill;

import io.turboparquet.format.FileMetadata;
import java.io.IOException;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.drill.common.expression.LogicalExpression;
import org.apache.drill.common.expression.SchemaPath;
import org.apache.drill.common.expression.ValueExpressions;
import org.apache.drill.common.types.TypeProtos.MajorType;
import org.apache.drill.exec.ExecConstants;
import org.apache.drill.exec.expr.FilterPredicate;
import org.apache.drill.exec.expr.stat.RowsMatch;
import org.apache.drill.exec.ops.ExecutorFragmentContext;
import org.apache.drill.exec.physical.base.AbstractGroupScanWithMetadata;
import org.apache.drill.exec.record.metadata.TupleMetadata;
import org.apache.drill.exec.record.metadata.TupleSchema;
import org.apache.drill.exec.store.parquet.FilterEvaluatorUtils;
import org.apache.drill.exec.store.parquet.ParquetTableMetadataUtils;
import org.apache.drill.exec.store.parquet.RowGroupReadEntry;
import org.apache.drill.exec.store.parquet.metadata.MetadataBase;
import org.apache.drill.exec.store.parquet.metadata.Metadata_V4;
import org.apache.drill.metastore.statistics.ColumnStatistics;
import org.apache.drill.metastore.util.SchemaPathUtils;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Run-time row-group pruning, as Drill's built-in Parquet scan does it in each fragment: the
 * filter the planner left on the row-group scan (it prunes at planning time only up to
 * {@code planner.store.parquet.rowgroup.filter.pushdown.threshold} row groups) is checked against
 * each row group's column statistics, and row groups that cannot match are not read. Drill's
 * statistics model and filter evaluation are used as they are, so the decision is the built-in
 * reader's; the statistics are Drill's metadata of the filter's columns ({@link DrillFileMetadata}),
 * made from our decoded footer (from the drillbit's {@link FooterCache}). A check that fails keeps
 * the row group, as Drill's does.
 */
final class RuntimePruner {
  private static final Logger logger = LoggerFactory.getLogger(RuntimePruner.class);

  private final ExecutorFragmentContext context;
  private final TurboParquetRowGroupScan scan;
  private final LogicalExpression filter;
  private final Set<SchemaPath> pathsInFilter;
  private final Set<SchemaPath> columnsInFilter;
  private FilterPredicate<?> predicate;
  private Path lastPath;
  private Metadata_V4.ParquetTableMetadata_v4 table;
  private Metadata_V4.ParquetFileAndRowCountMetadata file;

  private RuntimePruner(ExecutorFragmentContext context, TurboParquetRowGroupScan scan,
      Set<SchemaPath> pathsInFilter, Set<SchemaPath> columnsInFilter) {
    this.context = context;
    this.scan = scan;
    this.filter = scan.getFilter();
    this.pathsInFilter = pathsInFilter;
    this.columnsInFilter = columnsInFilter;
  }

  /** A pruner for the scan's filter; null when there is none, it is TRUE, or it names no column. */
  static RuntimePruner of(ExecutorFragmentContext context, TurboParquetRowGroupScan scan) {
    LogicalExpression filter = scan.getFilter();
    if (filter == null || filter instanceof ValueExpressions.BooleanExpression b && b.getBoolean()) {
      return null;
    }
    Set<SchemaPath> paths = filter.accept(FilterEvaluatorUtils.FieldReferenceFinder.INSTANCE, null);
    String partitionLabel = context.getOptions().getOption(ExecConstants.FILESYSTEM_PARTITION_COLUMN_LABEL).string_val;
    Set<SchemaPath> columns = new HashSet<>();
    for (SchemaPath path : paths) {
      if (!(scan.supportsFileImplicitColumns() && scan.isImplicitColumn(path, partitionLabel))) {
        columns.add(SchemaPath.getSimplePath(path.getRootSegmentPath())); // dir0, filename... are not in a file
      }
    }
    return columns.isEmpty() ? null : new RuntimePruner(context, scan, paths, columns);
  }

  /** Whether the row group cannot match the filter, by its statistics ({@code status}: its file's). */
  boolean prunes(RowGroupReadEntry rowGroup, FileMetadata metadata, FileStatus status) {
    if (rowGroup.isEmpty()) {
      return true;
    }
    try {
      if (!rowGroup.getPath().equals(lastPath)) {
        // Only the filter's columns, without host affinity (as Drill's asks, but for that).
        DrillFileMetadata m = DrillFileMetadata.of(metadata, status, null, scan.getReaderConfig(),
            DrillFileMetadata.Typing.of(scan.getFormatConfig()), columnsInFilter);
        table = new Metadata_V4.ParquetTableMetadata_v4();
        table.getColumnTypeInfoMap().putAll(m.types());
        file = m.file();
        lastPath = rowGroup.getPath();
      }
      MetadataBase.RowGroupMetadata rg = file.getFileMetadata().getRowGroups().get(rowGroup.getRowGroupIndex());
      Map<SchemaPath, ColumnStatistics<?>> statistics = ParquetTableMetadataUtils.getRowGroupColumnStatistics(table, rg);
      Map<SchemaPath, MajorType> intermediate = ParquetTableMetadataUtils.getIntermediateFields(table, rg);
      TupleMetadata schema = new TupleSchema();
      ParquetTableMetadataUtils.getRowGroupFields(table, rg)
          .forEach((path, type) -> SchemaPathUtils.addColumnMetadata(schema, path, type, intermediate));
      // The predicate for the table's schema is built once; a row group whose schema differs gets
      // its own, with the casts it needs.
      boolean tableSchema = schema.isEquivalent(scan.getSchema());
      FilterPredicate<?> p = tableSchema ? predicate : null;
      if (p == null) {
        p = AbstractGroupScanWithMetadata.getFilterPredicate(filter, context, context.getFunctionRegistry(),
            context.getOptions(), true, true, tableSchema ? scan.getSchema() : schema);
        if (tableSchema) {
          predicate = p;
        }
      }
      long rows = metadata.rowGroups().get(rowGroup.getRowGroupIndex()).numRows();
      return FilterEvaluatorUtils.matches(p, statistics, rows, schema, pathsInFilter, context) == RowsMatch.NONE;
    } catch (IOException | RuntimeException e) {
      logger.warn("turbo-parquet's run-time pruning check failed for {} row group {}, which is read: {}",
          rowGroup.getPath(), rowGroup.getRowGroupIndex(), e.toString());
      return false;
    }
  }
}
