package io.turboparquet.drill;

import io.turboparquet.scan.ScanMetrics;
import io.turboparquet.scan.ScanOptions;
import org.apache.drill.exec.ops.OperatorStats;

/**
 * Adds one record reader's counters to its scan operator's profile. A scan operator runs one
 * reader per row group, so counters are added; the options are the same for every reader of a
 * fragment and are set.
 */
final class ProfileMetrics {
  private ProfileMetrics() {
  }

  /**
   * @param rowGroups row groups the scan was given, pruned ones included (the same in every
   *     reader of the scan, as Drill's reader sets it)
   * @param pruned row groups the scan pruned at run time
   * @param rows rows it returned
   * @param fixedWidthNanos time copying fixed-width columns into vectors
   * @param variableWidthNanos time copying variable-width columns into vectors
   * @param processNanos wall time in the reader's setup and next()
   */
  static void report(OperatorStats stats, ScanMetrics m, ScanOptions options, long rowGroups, long pruned,
      long rows, long fixedWidthNanos, long variableWidthNanos, long processNanos) {
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
    stats.addLongStat(ScanMetric.TIME_FIXEDCOLUMN_READ, fixedWidthNanos);
    stats.addLongStat(ScanMetric.TIME_VARCOLUMN_READ, variableWidthNanos);
    stats.addLongStat(ScanMetric.TIME_PROCESS, processNanos);
    stats.addLongStat(ScanMetric.NUM_READ_CALLS, m.readCalls());
    stats.addLongStat(ScanMetric.TOTAL_READ_BYTES, m.bytesRead());
    stats.addLongStat(ScanMetric.TOTAL_DECOMPRESSED_BYTES, m.bytesDecompressed());
    stats.addLongStat(ScanMetric.NUM_ROWS, rows);
    stats.addLongStat(ScanMetric.NUM_COALESCED_RANGES, m.coalescedRanges());
    stats.addLongStat(ScanMetric.NUM_STORE_REQUESTS, m.storeRequests());
    stats.addLongStat(ScanMetric.TOTAL_STORE_BYTES, m.storeBytes());
    if (options != null) {
      stats.setLongStat(ScanMetric.OPTION_ASYNC_PAGE_READS, options.asyncPageReads() ? 1 : 0);
      stats.setLongStat(ScanMetric.OPTION_BUFFERED_READS, options.bufferedReads() ? 1 : 0);
      stats.setLongStat(ScanMetric.OPTION_BUFFER_SIZE, options.bufferSize());
      stats.setLongStat(ScanMetric.OPTION_READ_AHEAD_HINT, options.readAheadHint() ? 1 : 0);
      stats.setLongStat(ScanMetric.OPTION_QUEUE_DEPTH, options.queueDepth());
      stats.setLongStat(ScanMetric.OPTION_PARALLEL_DECODE, options.parallelDecode() ? 1 : 0);
      stats.setLongStat(ScanMetric.OPTION_BATCH_ROWS, options.batchSize());
      stats.setLongStat(ScanMetric.OPTION_MEMORY_BUDGET, options.memoryBudget());
      stats.setLongStat(ScanMetric.OPTION_COALESCED_READS, options.coalescedReads() ? 1 : 0);
      stats.setLongStat(ScanMetric.OPTION_DECODE_AHEAD, options.decodeAhead() && options.parallelDecode() ? 1 : 0);
    }
  }
}
