package io.turboparquet.drill;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import io.turboparquet.filter.Filter;
import io.turboparquet.filter.Predicate;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.scan.ReadAheadAllowance;
import io.turboparquet.scan.RowGroupPipeline;
import io.turboparquet.scan.RowGroupRead;
import io.turboparquet.scan.ScanContext;
import io.turboparquet.scan.ScanMetrics;
import io.turboparquet.scan.ScanOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import org.apache.drill.common.config.DrillConfig;
import org.apache.drill.common.exceptions.ExecutionSetupException;
import org.apache.drill.common.exceptions.UserException;
import org.apache.drill.common.expression.LogicalExpression;
import org.apache.drill.exec.ops.ExecutorFragmentContext;
import org.apache.drill.exec.ops.OperatorContext;
import org.apache.drill.exec.physical.impl.BatchCreator;
import org.apache.drill.exec.physical.impl.ScanBatch;
import org.apache.drill.exec.record.RecordBatch;
import org.apache.drill.exec.server.DrillbitContext;
import org.apache.drill.exec.store.ColumnExplorer;
import org.apache.drill.exec.store.dfs.DrillFileSystem;
import org.apache.drill.exec.store.parquet.RowGroupReadEntry;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the scan operator of a fragment: one {@link TurboParquetRecordReader} per row group, footers
 * from the drillbit's {@link FooterCache} (planning has usually decoded them; the files' statuses and
 * footers are fetched side by side on the scan pool), implicit and partition
 * columns from Drill's {@link ColumnExplorer}, and one {@link RowGroupPipeline} over every reader's
 * row group, which reads ahead across them and which the operator ({@link TurboParquetScanBatch})
 * closes. Row groups are pruned at planning time by Drill, and here again by the filter the planner
 * leaves on the scan ({@link RuntimePruner}), as Drill's own scan does. That filter also reaches
 * the pipeline, translated per file ({@link DrillPredicates}): row groups its equalities rule out
 * by dictionary or bloom filter are not read, and of the others only the pages the page index says
 * may match. Drill's filter above the scan still decides every row.
 */
public final class TurboParquetScanBatchCreator implements BatchCreator<TurboParquetRowGroupScan> {
  private static final Logger logger = LoggerFactory.getLogger(TurboParquetScanBatchCreator.class);
  static final String READ_AHEAD_MAX_BYTES = "turbo-parquet.read-ahead.max-bytes";
  private static final Cache<DrillbitContext, ReadAheadAllowance> READ_AHEAD =
      CacheBuilder.newBuilder().weakKeys().build();

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
    List<RowGroupReadEntry> entries = rowGroupScan.getRowGroupReadEntries();
    Map<Path, FileFooter> footers = footers(entries, FooterCache.of(scan.getFormatPlugin().getContext()), fs,
        scan.getFormatPlugin().getFsConf(), operator.getScanExecutor());
    Map<Path, Optional<Filter>> filters = new HashMap<>();
    Map<Path, DrillPredicates.Reading> readings = new HashMap<>(); // per file: dates differ
    DrillPredicates.Reading session = DrillPredicates.Reading.of(context.getOptions(),
        scan.getFormatPlugin().getConfig());
    List<TurboParquetRecordReader> readers = new ArrayList<>();
    List<RowGroupRead> reads = new ArrayList<>();
    List<Map<String, String>> implicitColumns = new ArrayList<>();
    Map<String, String> widest = new LinkedHashMap<>();
    RuntimePruner pruner = RuntimePruner.of(context, rowGroupScan);
    long pruned = 0;
    for (RowGroupReadEntry entry : entries) {
      FileFooter footer = footers.get(entry.getPath());
      FileMetadata metadata = footer.metadata();
      boolean last = entry == entries.get(entries.size() - 1);
      long rows = entry.getNumRecordsToRead();
      if (pruner != null && pruner.prunes(entry, metadata, footer.status())) {
        pruned++;
        if (!last || !readers.isEmpty()) {
          continue;
        }
        rows = 0; // every row group pruned: one reader still gives the schema, as Drill's does
      }
      DrillPredicates.Reading reading = readings.computeIfAbsent(entry.getPath(),
          p -> reading(session, p, metadata, rowGroupScan));
      TurboParquetRecordReader reader = new TurboParquetRecordReader(context.getOptions(), scan.getFormatConfig(),
          reading, entry.getPath(), metadata, entry.getRowGroupIndex(), rows, rowGroupScan.getColumns());
      Filter filter = filters.computeIfAbsent(entry.getPath(),
          p -> Optional.ofNullable(filter(rowGroupScan.getFilter(), metadata, reading))).orElse(null);
      reads.add(reader.plan(filter));
      readers.add(reader);
      Map<String, String> implicit = explorer.populateColumns(entry.getPath(),
          rowGroupScan.getPartitionValues(entry), rowGroupScan.supportsFileImplicitColumns(), fs,
          entry.getRowGroupIndex(), entry.getStart(), entry.getLength());
      implicitColumns.add(implicit);
      if (implicit.size() > widest.size()) {
        widest = implicit;
      }
    }
    ScanOptions options = DrillScanOptions.ofScan(context.getOptions(), scan.getFormatConfig(), fs.getUri());
    ScanMetrics metrics = new ScanMetrics();
    // The pools are the drillbit's; every read's buffers come from the scan operator's allocator.
    ScanContext scanContext = new ScanContext(StoreFileSystem.of(fs), options,
        new DrillBufferSource(operator.getAllocator()), operator.getScanExecutor(), operator.getScanDecodeExecutor(),
        metrics).withReadAhead(readAhead(context.getDrillbitContext()));
    RowGroupPipeline pipeline = new RowGroupPipeline(scanContext, reads);
    for (int i = 0; i < readers.size(); i++) {
      readers.get(i).attach(pipeline, i);
    }
    // Every reader must carry the same implicit columns: the missing ones are null.
    for (Map<String, String> implicit : implicitColumns) {
      for (String key : widest.keySet()) {
        implicit.putIfAbsent(key, null);
      }
    }
    ScanOptions reported = reads.stream().filter(r -> !r.projection().isEmpty()).map(RowGroupRead::options)
        .findFirst().orElse(options);
    return new TurboParquetScanBatch(context, operator, readers, implicitColumns, pipeline, metrics, reported,
        entries.size(), pruned);
  }

  /**
   * What all scans of the drillbit may hold ahead of their consumers (row groups, batches), sized
   * from its configuration on first use.
   */
  static ReadAheadAllowance readAhead(DrillbitContext drillbit) {
    try {
      return READ_AHEAD.get(drillbit, () -> new ReadAheadAllowance(readAheadBytes(drillbit.getConfig())));
    } catch (ExecutionException e) {
      throw new IllegalStateException("turbo-parquet's read-ahead bound: " + e.getCause().getMessage(), e.getCause());
    }
  }

  /**
   * The configured bound; {@code auto} is a thirty-second of the drillbit's direct memory (32 MiB of
   * 1 GiB, 256 MiB of Drill's default 8 GiB): one scan on remote storage wants up to 32 MiB of small
   * row groups in flight (RowGroupPipeline.PREFETCH_BYTES), while eight concurrent scans each reading
   * most of a small file ahead, and a batch decoded ahead beside the one in Drill's vectors, made the
   * drillbit's peak exceed the built-in reader's (docs/benchmarks.md, "Concurrency soak").
   */
  static long readAheadBytes(com.typesafe.config.Config config) {
    return config.getString(READ_AHEAD_MAX_BYTES).equals("auto") ? DrillConfig.getMaxDirectMemory() / 32
        : config.getBytes(READ_AHEAD_MAX_BYTES);
  }

  /**
   * Drill's pushed filter as the core's, bound to the file's schema; null when no part of it can be
   * used on this file (then its pages are all read).
   */
  private static Filter filter(LogicalExpression expression, FileMetadata metadata, DrillPredicates.Reading reading) {
    Predicate predicate = DrillPredicates.of(expression, metadata.schema(), reading);
    return predicate == null ? null : Filter.bind(predicate, metadata.schema());
  }

  /** How the file's columns are read: the session's options and the file's date correction. */
  private static DrillPredicates.Reading reading(DrillPredicates.Reading session, Path path, FileMetadata metadata,
      TurboParquetRowGroupScan scan) {
    try {
      return session.withDates(DateCorrection.of(metadata, scan.getColumns(), scan.getReaderConfig()));
    } catch (IOException | RuntimeException e) {
      throw FooterCache.unreadable(path, e);
    }
  }

  /** A file's status as the fragment found it, and its footer. */
  private record FileFooter(FileStatus status, FileMetadata metadata) {}

  /**
   * The status and footer of every file the entries name, from the drillbit's cache (planning has
   * usually decoded the footers already). Each is a round trip or two on remote storage (the status,
   * the footer on a miss), so with several files they are fetched side by side on the scan pool;
   * the fragment's thread runs any a pool thread has not started. The first file that fails, in
   * entry order, fails the scan.
   */
  private static Map<Path, FileFooter> footers(List<RowGroupReadEntry> entries, FooterCache cache,
      DrillFileSystem fs, org.apache.hadoop.conf.Configuration conf, ExecutorService pool) {
    Map<Path, FutureTask<FileFooter>> tasks = new LinkedHashMap<>();
    for (RowGroupReadEntry entry : entries) {
      tasks.computeIfAbsent(entry.getPath(), path -> new FutureTask<>(() -> {
        FileStatus status = fs.getFileStatus(path);
        return new FileFooter(status, cache.get(fs, status, conf));
      }));
    }
    if (tasks.size() > 1 && pool != null) {
      for (FutureTask<FileFooter> task : tasks.values()) {
        try {
          pool.execute(task);
        } catch (RejectedExecutionException e) {
          break; // run here below
        }
      }
    }
    Map<Path, FileFooter> footers = new HashMap<>();
    try {
      for (Map.Entry<Path, FutureTask<FileFooter>> task : tasks.entrySet()) {
        task.getValue().run(); // does nothing if a pool thread has it
        try {
          footers.put(task.getKey(), task.getValue().get());
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          throw FooterCache.unreadable(task.getKey(), cause instanceof Exception ex ? ex : new IOException(cause));
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw UserException.executionError(e).message("turbo-parquet: interrupted while reading footers").build(logger);
    } finally {
      tasks.values().forEach(t -> t.cancel(false)); // those not started: the scan fails
    }
    return footers;
  }
}
