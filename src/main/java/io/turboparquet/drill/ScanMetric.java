package io.turboparquet.drill;

import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.Map;
import org.apache.drill.exec.ops.MetricDef;
import org.apache.drill.exec.ops.OperatorMetricRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metrics a turbo-parquet scan reports in the query profile. The first entries have the ids
 * and names of Drill's own Parquet scan metrics ({@code CommonParquetRecordReader.Metric}), so the
 * Web UI lists the two readers' numbers under the same names; a metric we cannot measure with the
 * same meaning (dictionary pages' bytes and times are not split from data pages') is never set and
 * so does not appear. Ours follow. Times are nanoseconds, as Drill's.
 */
enum ScanMetric implements MetricDef {
  /** Row groups this fragment read. */
  NUM_ROWGROUPS,
  /** Row groups skipped at run time (their statistics exclude the filter). */
  ROWGROUPS_PRUNED,
  NUM_DICT_PAGE_LOADS,
  NUM_DATA_PAGE_lOADS,
  NUM_DATA_PAGES_DECODED,
  NUM_DICT_PAGES_DECOMPRESSED,
  NUM_DATA_PAGES_DECOMPRESSED,
  /** Not set: we do not split read bytes by page type (see TOTAL_READ_BYTES). */
  TOTAL_DICT_PAGE_READ_BYTES,
  /** Not set: we do not split read bytes by page type (see TOTAL_READ_BYTES). */
  TOTAL_DATA_PAGE_READ_BYTES,
  /** Not set: decompressed bytes are not split by page type (see TOTAL_DECOMPRESSED_BYTES). */
  TOTAL_DICT_DECOMPRESSED_BYTES,
  /** Not set: decompressed bytes are not split by page type (see TOTAL_DECOMPRESSED_BYTES). */
  TOTAL_DATA_DECOMPRESSED_BYTES,
  TIME_DICT_PAGE_LOADS,
  TIME_DATA_PAGE_LOADS,
  /** Decoding values and levels of every page (dictionary pages included), summed over threads. */
  TIME_DATA_PAGE_DECODE,
  TIME_DICT_PAGE_DECODE,
  TIME_DICT_PAGES_DECOMPRESSED,
  /** Decompressing every page (dictionary pages included), summed over threads. */
  TIME_DATA_PAGES_DECOMPRESSED,
  /** The decoding side waiting for pages the scan pool had not read yet. */
  TIME_DISK_SCAN_WAIT,
  /** Reading bytes from the file system, summed over threads. */
  TIME_DISK_SCAN,
  /** Copying fixed-width columns into value vectors. */
  TIME_FIXEDCOLUMN_READ,
  /** Copying variable-width columns into value vectors. */
  TIME_VARCOLUMN_READ,
  /** Wall time of the readers' setup and next() calls. */
  TIME_PROCESS,
  // ---- ours ----
  /** Read calls issued to the file system. */
  NUM_READ_CALLS,
  /** Bytes read from the file system (pages, headers and dictionaries). */
  TOTAL_READ_BYTES,
  /** Bytes that came out of decompression (all pages). */
  TOTAL_DECOMPRESSED_BYTES,
  /** Rows read. */
  NUM_ROWS,
  /** The options the scan ran with (1 = on), so a profile shows what ALTER SESSION changed. */
  OPTION_ASYNC_PAGE_READS,
  OPTION_BUFFERED_READS,
  OPTION_BUFFER_SIZE,
  OPTION_READ_AHEAD_HINT,
  OPTION_QUEUE_DEPTH,
  OPTION_PARALLEL_DECODE,
  OPTION_BATCH_ROWS,
  OPTION_MEMORY_BUDGET,
  OPTION_COALESCED_READS,
  /** Ranges read by coalesced reads (0 where row groups were read chunk by chunk). */
  NUM_COALESCED_RANGES,
  /** Whether each row group's next batch was decoded while Drill worked on the current one (1 = on). */
  OPTION_DECODE_AHEAD,
  /** GET requests the object store served the scan's streams (S3A's own count; 0 on local files and HDFS). */
  NUM_STORE_REQUESTS,
  /** Bytes those GET requests delivered. */
  TOTAL_STORE_BYTES,
  /** Row groups whose reads started while an earlier row group of the scan was decoding. */
  NUM_PREFETCHED_ROWGROUPS,
  /** Data pages not read because the page index ruled out their rows (page-index skipping). */
  NUM_PAGES_SKIPPED,
  /** Rows of read row groups that page-index skipping ruled out (never decoded). */
  NUM_ROWS_SKIPPED,
  /** Stored bytes of projected column chunks not read because of it. */
  TOTAL_BYTES_SKIPPED,
  /** Bytes of column and offset indexes read to decide. */
  TOTAL_PAGE_INDEX_BYTES,
  /** Row groups the filter could have narrowed, read whole because a projected column is nested. */
  NUM_PAGE_INDEX_FALLBACKS,
  /** Row groups not read: no entry of a dictionary-encoded chunk matches the filter's equalities. */
  NUM_ROWGROUPS_PRUNED_BY_DICTIONARY,
  /** Row groups not read: a bloom filter rules out every value of the filter's equalities. */
  NUM_ROWGROUPS_PRUNED_BY_BLOOM_FILTER,
  /** Bytes of dictionary pages and bloom filters read to decide (also in TOTAL_READ_BYTES). */
  TOTAL_PRUNING_BYTES,
  /** Rows of batches with no candidate row by the filter columns' values: other columns not decoded (late materialization). */
  NUM_LATE_SKIPPED_ROWS,
  /** Rows of decoded batches that the pushed filter ruled out: not handed to Drill. */
  NUM_FILTERED_ROWS;

  private static final Logger logger = LoggerFactory.getLogger(ScanMetric.class);

  @Override
  public int metricId() {
    return ordinal();
  }

  /**
   * Makes the profile show our metrics by name. Drill keeps metric names in a static registry that
   * only its own operators enter ({@code OperatorMetricRegistry.register} is private), so we add our
   * operator type to its map reflectively; if a future Drill changes that, profiles show metric ids
   * instead of names and nothing else changes.
   */
  static void registerNames(String operatorType) {
    if (OperatorMetricRegistry.getMetricNames(operatorType) != null) {
      return;
    }
    String[] names = Arrays.stream(values()).map(Enum::name).toArray(String[]::new);
    try {
      Field field = OperatorMetricRegistry.class.getDeclaredField("OPERATOR_METRICS");
      field.setAccessible(true);
      @SuppressWarnings("unchecked")
      Map<String, String[]> registry = (Map<String, String[]>) field.get(null);
      synchronized (registry) {
        registry.putIfAbsent(operatorType, names);
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      logger.warn("turbo-parquet could not register its metric names; profiles will show metric ids: {}",
          e.toString());
    }
  }
}
