package io.turboparquet.drill;

import io.turboparquet.format.FileMetadata;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.drill.common.exceptions.ExecutionSetupException;
import org.apache.drill.exec.ops.ExecutorFragmentContext;
import org.apache.drill.exec.ops.OperatorContext;
import org.apache.drill.exec.physical.impl.BatchCreator;
import org.apache.drill.exec.physical.impl.ScanBatch;
import org.apache.drill.exec.record.RecordBatch;
import org.apache.drill.exec.store.ColumnExplorer;
import org.apache.drill.exec.store.RecordReader;
import org.apache.drill.exec.store.dfs.DrillFileSystem;
import org.apache.drill.exec.store.parquet.RowGroupReadEntry;
import org.apache.hadoop.fs.Path;

/**
 * Builds the scan operator of a fragment: a {@link ScanBatch} with one {@link TurboParquetRecordReader}
 * per row group, footers from the drillbit's {@link FooterCache} (planning has usually decoded them),
 * implicit and partition columns from Drill's {@link ColumnExplorer}. Each reader knows the one after it, so that it can open
 * that reader's row group while its own last batch is in use. Row groups are pruned at planning time by Drill,
 * and here again by the filter the planner leaves on the scan ({@link RuntimePruner}), as Drill's own scan does.
 */
public final class TurboParquetScanBatchCreator implements BatchCreator<TurboParquetRowGroupScan> {
  @Override
  public ScanBatch getBatch(ExecutorFragmentContext context, TurboParquetRowGroupScan scan,
      List<RecordBatch> children) throws ExecutionSetupException {
    if (!children.isEmpty()) {
      throw new ExecutionSetupException("a scan has no children");
    }
    OperatorContext operator = context.newOperatorContext(scan);
    ColumnExplorer explorer = new ColumnExplorer(context.getOptions(), scan.getColumns());
    TurboParquetRowGroupScan rowGroupScan = explorer.isStarQuery() ? scan : scan.copy(explorer.getTableColumns());

    DrillFileSystem fs;
    try {
      // Not tracking: the core reads on the scan and decode pools, not only the fragment's thread.
      fs = operator.newNonTrackingFileSystem(scan.getFormatPlugin().getFsConf());
    } catch (IOException e) {
      throw new ExecutionSetupException("turbo-parquet could not open the file system: " + e.getMessage(), e);
    }
    FooterCache footerCache = FooterCache.of(scan.getFormatPlugin().getContext());
    Map<Path, FileMetadata> footers = new HashMap<>();
    List<TurboParquetRecordReader> readers = new ArrayList<>();
    List<Map<String, String>> implicitColumns = new ArrayList<>();
    Map<String, String> widest = new LinkedHashMap<>();
    RuntimePruner pruner = RuntimePruner.of(context, rowGroupScan);
    List<RowGroupReadEntry> entries = rowGroupScan.getRowGroupReadEntries();
    long pruned = 0;
    for (RowGroupReadEntry entry : entries) {
      FileMetadata metadata = footers.computeIfAbsent(entry.getPath(), p -> readFooter(footerCache, fs, p));
      boolean last = entry == entries.get(entries.size() - 1);
      long rows = entry.getNumRecordsToRead();
      if (pruner != null && pruner.prunes(entry, metadata, fs)) {
        pruned++;
        if (!last || !readers.isEmpty()) {
          continue;
        }
        rows = 0; // every row group pruned: one reader still gives the schema, as Drill's does
      }
      TurboParquetRecordReader reader = new TurboParquetRecordReader(context.getOptions(), scan.getFormatConfig(),
          entry.getPath(), metadata, entry.getRowGroupIndex(), rows, rowGroupScan.getColumns(), fs);
      if (!readers.isEmpty()) {
        readers.get(readers.size() - 1).setSuccessor(reader); // ScanBatch runs the readers in list order
      }
      readers.add(reader);
      Map<String, String> implicit = explorer.populateColumns(entry.getPath(),
          rowGroupScan.getPartitionValues(entry), rowGroupScan.supportsFileImplicitColumns(), fs,
          entry.getRowGroupIndex(), entry.getStart(), entry.getLength());
      implicitColumns.add(implicit);
      if (implicit.size() > widest.size()) {
        widest = implicit;
      }
    }
    for (TurboParquetRecordReader reader : readers) {
      reader.rowGroupCounts(entries.size(), pruned);
    }
    // Every reader must carry the same implicit columns: the missing ones are null.
    for (Map<String, String> implicit : implicitColumns) {
      for (String key : widest.keySet()) {
        implicit.putIfAbsent(key, null);
      }
    }
    return new ScanBatch(context, operator, new ArrayList<RecordReader>(readers), implicitColumns);
  }

  /** The file's footer from the drillbit's cache: planning has usually decoded it already. */
  private static FileMetadata readFooter(FooterCache cache, DrillFileSystem fs, Path path) {
    try {
      return cache.get(fs, path);
    } catch (IOException | RuntimeException e) {
      throw FooterCache.unreadable(path, e);
    }
  }
}
