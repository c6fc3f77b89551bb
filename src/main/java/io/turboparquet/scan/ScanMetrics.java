package io.turboparquet.scan;

import io.turboparquet.io.StoreReads;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of one scan, safe to update from the scan and decode pools. Each column reader adds its
 * own totals, and each stream the scan opens what the store served it; nothing else writes here.
 */
public final class ScanMetrics {
  private final LongAdder pageReaderWaitNanos = new LongAdder();
  private final LongAdder diskReadNanos = new LongAdder();
  private final LongAdder decompressNanos = new LongAdder();
  private final LongAdder decodeNanos = new LongAdder();
  private final LongAdder dataPages = new LongAdder();
  private final LongAdder dictionaryPages = new LongAdder();
  private final LongAdder bytesRead = new LongAdder();
  private final LongAdder readCalls = new LongAdder();
  private final LongAdder bytesDecompressed = new LongAdder();
  private final LongAdder rowGroups = new LongAdder();
  private final LongAdder rows = new LongAdder();
  private final LongAdder fetchWaitNanos = new LongAdder();
  private final LongAdder coalescedRanges = new LongAdder();
  private final LongAdder prefetchedRowGroups = new LongAdder();
  private final LongAdder pagesSkipped = new LongAdder();
  private final LongAdder rowsSkipped = new LongAdder();
  private final LongAdder lateSkippedRows = new LongAdder();
  private final LongAdder filteredRows = new LongAdder();
  private final LongAdder bytesSkipped = new LongAdder();
  private final LongAdder pageIndexBytes = new LongAdder();
  private final LongAdder pageIndexFallbacks = new LongAdder();
  private final LongAdder rowGroupsPrunedByDictionary = new LongAdder();
  private final LongAdder rowGroupsPrunedByBloomFilter = new LongAdder();
  private final LongAdder rowGroupsPrunedByGeospatialStatistics = new LongAdder();
  private final LongAdder dictionaryPruningBytes = new LongAdder();
  private final LongAdder bloomFilterBytes = new LongAdder();
  private final LongAdder storeRequests = new LongAdder();
  private final LongAdder storeBytes = new LongAdder();

  public void addPageReaderWait(long nanos) {
    pageReaderWaitNanos.add(nanos);
  }

  public void addDiskRead(long nanos, long bytes, long calls) {
    diskReadNanos.add(nanos);
    bytesRead.add(bytes);
    readCalls.add(calls);
  }

  public void addDecompress(long nanos, long bytes) {
    decompressNanos.add(nanos);
    bytesDecompressed.add(bytes);
  }

  public void addDecode(long nanos) {
    decodeNanos.add(nanos);
  }

  public void addDataPage() {
    dataPages.increment();
  }

  public void addDictionaryPage() {
    dictionaryPages.increment();
  }

  public void addRowGroup(long rowCount) {
    rowGroups.increment();
    rows.add(rowCount);
  }

  /** Time decoding threads waited for a row group's coalesced reads (part of the page-reader wait). */
  public void addFetchWait(long nanos) {
    fetchWaitNanos.add(nanos);
  }

  /** Ranges a row group's coalesced reads were planned into. */
  public void addCoalescedRanges(long n) {
    coalescedRanges.add(n);
  }

  /** A row group whose reads started while the previous one was still being decoded. */
  public void addPrefetchedRowGroup() {
    prefetchedRowGroups.increment();
  }

  /**
   * Page-index skipping planned for a row group: data pages of projected columns not read, rows
   * not returned, and stored bytes of projected chunks not read.
   */
  public void addPageIndexSkip(long pages, long rows, long bytes) {
    pagesSkipped.add(pages);
    rowsSkipped.add(rows);
    bytesSkipped.add(bytes);
  }

  /** Bytes of column and offset indexes read to plan skipping (also counted in bytes read). */
  public void addPageIndexRead(long bytes) {
    pageIndexBytes.add(bytes);
  }

  /** A row group the filter could have skipped pages of, read whole because a projected column is nested. */
  public void addPageIndexFallback() {
    pageIndexFallbacks.increment();
  }

  /**
   * A row group of {@code rows} rows that no row can match, as its dictionaries ({@code byDictionary}),
   * bloom filters ({@code byBloomFilter}) and geospatial bounding boxes ({@code byGeospatial}) showed
   * (each that decided part of the filter): not read, its rows counted as skipped.
   */
  public void addRowGroupPruned(long rows, boolean byDictionary, boolean byBloomFilter, boolean byGeospatial) {
    if (byDictionary) {
      rowGroupsPrunedByDictionary.increment();
    }
    if (byBloomFilter) {
      rowGroupsPrunedByBloomFilter.increment();
    }
    if (byGeospatial) {
      rowGroupsPrunedByGeospatialStatistics.increment();
    }
    rowsSkipped.add(rows);
  }

  /** Stored bytes of dictionary pages read to decide pruning (also counted in bytes read). */
  public void addDictionaryPruningRead(long bytes) {
    dictionaryPruningBytes.add(bytes);
  }

  /** Bytes of bloom filters (headers and bitsets) read to decide pruning (also counted in bytes read). */
  public void addBloomFilterRead(long bytes) {
    bloomFilterBytes.add(bytes);
  }

  public long rowGroupsPrunedByDictionary() {
    return rowGroupsPrunedByDictionary.sum();
  }

  public long rowGroupsPrunedByBloomFilter() {
    return rowGroupsPrunedByBloomFilter.sum();
  }

  public long rowGroupsPrunedByGeospatialStatistics() {
    return rowGroupsPrunedByGeospatialStatistics.sum();
  }

  public long dictionaryPruningBytes() {
    return dictionaryPruningBytes.sum();
  }

  public long bloomFilterBytes() {
    return bloomFilterBytes.sum();
  }

  public long pagesSkipped() {
    return pagesSkipped.sum();
  }

  /** Rows of a batch none of which may match, by the filter columns' values: not returned, the other columns not decoded. */
  /** Rows of decoded batches that the filter ruled out, not handed on. */
  public void addFilteredRows(long rows) {
    filteredRows.add(rows);
  }

  public long filteredRows() {
    return filteredRows.sum();
  }

  public void addLateSkippedRows(long rows) {
    lateSkippedRows.add(rows);
    rowsSkipped.add(rows);
  }

  public long lateSkippedRows() {
    return lateSkippedRows.sum();
  }

  public long rowsSkipped() {
    return rowsSkipped.sum();
  }

  public long bytesSkipped() {
    return bytesSkipped.sum();
  }

  public long pageIndexBytes() {
    return pageIndexBytes.sum();
  }

  public long pageIndexFallbacks() {
    return pageIndexFallbacks.sum();
  }

  /** What an object store served one of the scan's streams (footer, chunk or coalesced reads), before it closed. */
  public void addStoreReads(StoreReads reads) {
    storeRequests.add(reads.requests());
    storeBytes.add(reads.bytes());
  }

  /** GET requests the object store served this scan (0 where the file system counts none). */
  public long storeRequests() {
    return storeRequests.sum();
  }

  /** Bytes those requests delivered. */
  public long storeBytes() {
    return storeBytes.sum();
  }

  public long fetchWaitNanos() {
    return fetchWaitNanos.sum();
  }

  public long coalescedRanges() {
    return coalescedRanges.sum();
  }

  public long prefetchedRowGroups() {
    return prefetchedRowGroups.sum();
  }

  /**
   * Of the time decoding threads spent on this scan, the share they waited for storage (page reads
   * or coalesced reads) rather than decompressing or decoding: near 1 the scan is I/O-bound, near 0
   * CPU-bound.
   */
  public double storageWaitShare() {
    long wait = pageReaderWaitNanos();
    long busy = wait + decompressNanos() + decodeNanos();
    return busy == 0 ? 0 : (double) wait / busy;
  }

  public long pageReaderWaitNanos() {
    return pageReaderWaitNanos.sum();
  }

  public long diskReadNanos() {
    return diskReadNanos.sum();
  }

  public long decompressNanos() {
    return decompressNanos.sum();
  }

  public long decodeNanos() {
    return decodeNanos.sum();
  }

  public long dataPages() {
    return dataPages.sum();
  }

  public long dictionaryPages() {
    return dictionaryPages.sum();
  }

  public long bytesRead() {
    return bytesRead.sum();
  }

  public long readCalls() {
    return readCalls.sum();
  }

  public long bytesDecompressed() {
    return bytesDecompressed.sum();
  }

  public long rowGroups() {
    return rowGroups.sum();
  }

  public long rows() {
    return rows.sum();
  }

  /** Every counter by its documented name (times in milliseconds), in a stable order. */
  public Map<String, Long> snapshot() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("page_reader_wait_ms", pageReaderWaitNanos() / 1_000_000);
    m.put("disk_read_ms", diskReadNanos() / 1_000_000);
    m.put("decompress_ms", decompressNanos() / 1_000_000);
    m.put("decode_ms", decodeNanos() / 1_000_000);
    m.put("data_pages", dataPages());
    m.put("dictionary_pages", dictionaryPages());
    m.put("bytes_read", bytesRead());
    m.put("read_calls", readCalls());
    m.put("bytes_decompressed", bytesDecompressed());
    m.put("row_groups", rowGroups());
    m.put("fetch_wait_ms", fetchWaitNanos() / 1_000_000);
    m.put("coalesced_ranges", coalescedRanges());
    m.put("prefetched_row_groups", prefetchedRowGroups());
    m.put("pages_skipped", pagesSkipped());
    m.put("rows_skipped", rowsSkipped());
    m.put("late_skipped_rows", lateSkippedRows());
    m.put("filtered_rows", filteredRows());
    m.put("bytes_skipped", bytesSkipped());
    m.put("page_index_bytes", pageIndexBytes());
    m.put("page_index_fallbacks", pageIndexFallbacks());
    m.put("row_groups_pruned_by_dictionary", rowGroupsPrunedByDictionary());
    m.put("row_groups_pruned_by_bloom_filter", rowGroupsPrunedByBloomFilter());
    m.put("row_groups_pruned_by_geospatial_statistics", rowGroupsPrunedByGeospatialStatistics());
    m.put("dictionary_pruning_bytes", dictionaryPruningBytes());
    m.put("bloom_filter_bytes", bloomFilterBytes());
    m.put("store_requests", storeRequests());
    m.put("store_bytes", storeBytes());
    return m;
  }
}
