package io.turboparquet.drill;

import io.turboparquet.scan.ScanMetrics;
import io.turboparquet.scan.ScanOptions;
import org.apache.drill.exec.ops.OperatorStats;

/**
 * Writes a scan operator's counters into its profile: the pipeline's once, when the scan closes
 * ({@link #reportScan}), and each record reader's (one per row group) added as it closes
 * ({@link #reportReader}).
 */
final class ProfileMetrics {
  private ProfileMetrics() {
  }

  /**
   * @param rowGroups row groups the scan was given, pruned ones included (as Drill's reader reports it)
   * @param pruned row groups the scan pruned at run time
   * @param options the options the scan read with (null: it read nothing)
   */
  static void reportScan(OperatorStats stats, ScanMetrics m, ScanOptions options, long rowGroups, long pruned) {
    stats.setLongStat(ScanMetric.NUM_ROWGROUPS, rowGroups);
    stats.setLongStat(ScanMetric.ROWGROUPS_PRUNED, pruned);
    stats.addLongStat(ScanMetric.NUM_DICT_PAGE_LOADS, m.dictionaryPages());
    stats.addLongStat(ScanMetric.NUM_DATA_PAGE_lOADS, m.dataPages());
    stats.addLongStat(ScanMetric.NUM_DATA_PAGES_DECODED, m.dataPages());
    stats.addLongStat(ScanMetric.NUM_DICT_PAGES_DECOMPRESSED, m.dictionaryPages());
    stats.addLongStat(ScanMetric.NUM_DATA_PAGES_DECOMPRESSED, m.dataPages());
    stats.addLongStat(ScanMetric.TIME_DATA_PAGE_DECODE, m.decodeNanos());
    stats.addLongStat(ScanMetric.TIME_DATA_PAGES_DECOMPRESSED, m.decompressNanos());
    stats.addLongStat(ScanMetric.TIME_DISK_SCAN_WAIT, m.pageReaderWaitNanos());
    stats.addLongStat(ScanMetric.TIME_DISK_SCAN, m.diskReadNanos());
    stats.addLongStat(ScanMetric.NUM_READ_CALLS, m.readCalls());
    stats.addLongStat(ScanMetric.TOTAL_READ_BYTES, m.bytesRead());
    stats.addLongStat(ScanMetric.TOTAL_DECOMPRESSED_BYTES, m.bytesDecompressed());
    stats.addLongStat(ScanMetric.NUM_COALESCED_RANGES, m.coalescedRanges());
    stats.addLongStat(ScanMetric.NUM_STORE_REQUESTS, m.storeRequests());
    stats.addLongStat(ScanMetric.TOTAL_STORE_BYTES, m.storeBytes());
    stats.addLongStat(ScanMetric.NUM_PREFETCHED_ROWGROUPS, m.prefetchedRowGroups());
    stats.addLongStat(ScanMetric.NUM_PAGES_SKIPPED, m.pagesSkipped());
    stats.addLongStat(ScanMetric.NUM_ROWS_SKIPPED, m.rowsSkipped());
    stats.addLongStat(ScanMetric.TOTAL_BYTES_SKIPPED, m.bytesSkipped());
    stats.addLongStat(ScanMetric.TOTAL_PAGE_INDEX_BYTES, m.pageIndexBytes());
    stats.addLongStat(ScanMetric.NUM_PAGE_INDEX_FALLBACKS, m.pageIndexFallbacks());
    stats.addLongStat(ScanMetric.NUM_ROWGROUPS_PRUNED_BY_DICTIONARY, m.rowGroupsPrunedByDictionary());
    stats.addLongStat(ScanMetric.NUM_ROWGROUPS_PRUNED_BY_BLOOM_FILTER, m.rowGroupsPrunedByBloomFilter());
    stats.addLongStat(ScanMetric.TOTAL_PRUNING_BYTES, m.dictionaryPruningBytes() + m.bloomFilterBytes());
    stats.addLongStat(ScanMetric.NUM_LATE_SKIPPED_ROWS, m.lateSkippedRows());
    stats.addLongStat(ScanMetric.NUM_FILTERED_ROWS, m.filteredRows());
    if (options != null) {
      stats.setLongStat(ScanMetric.OPTION_ASYNC_PAGE_READS, options.io().asyncPageReads() ? 1 : 0);
      stats.setLongStat(ScanMetric.OPTION_BUFFERED_READS, options.io().bufferedReads() ? 1 : 0);
      stats.setLongStat(ScanMetric.OPTION_BUFFER_SIZE, options.io().bufferSize());
      stats.setLongStat(ScanMetric.OPTION_READ_AHEAD_HINT, options.io().readAheadHint() ? 1 : 0);
      stats.setLongStat(ScanMetric.OPTION_QUEUE_DEPTH, options.io().queueDepth());
      stats.setLongStat(ScanMetric.OPTION_PARALLEL_DECODE, options.decode().parallelDecode() ? 1 : 0);
      stats.setLongStat(ScanMetric.OPTION_BATCH_ROWS, options.decode().batchSize());
      stats.setLongStat(ScanMetric.OPTION_MEMORY_BUDGET, options.io().memoryBudget());
      stats.setLongStat(ScanMetric.OPTION_COALESCED_READS, options.io().coalescedReads() ? 1 : 0);
      stats.setLongStat(ScanMetric.OPTION_DECODE_AHEAD,
          options.decode().decodeAhead() && options.decode().parallelDecode() ? 1 : 0);
    }
  }

  /**
   * @param rows rows the reader returned
   * @param fixedWidthNanos time copying fixed-width columns into vectors
   * @param variableWidthNanos time copying variable-width columns into vectors
   * @param processNanos wall time in the reader's setup and next()
   */
  static void reportReader(OperatorStats stats, long rows, long fixedWidthNanos, long variableWidthNanos,
      long processNanos) {
    stats.addLongStat(ScanMetric.NUM_ROWS, rows);
    stats.addLongStat(ScanMetric.TIME_FIXEDCOLUMN_READ, fixedWidthNanos);
    stats.addLongStat(ScanMetric.TIME_VARCOLUMN_READ, variableWidthNanos);
    stats.addLongStat(ScanMetric.TIME_PROCESS, processNanos);
  }
}
