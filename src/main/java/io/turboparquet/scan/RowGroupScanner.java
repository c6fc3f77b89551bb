package io.turboparquet.scan;

import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.filter.Filter;
import io.turboparquet.filter.RowRanges;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.OffsetIndex;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.io.ChunkInput;
import io.turboparquet.io.ErrorContext;
import io.turboparquet.io.Failures;
import io.turboparquet.io.FileOpener;
import io.turboparquet.io.StoreReads;
import io.turboparquet.page.AsyncPageReader;
import io.turboparquet.page.ChunkLocation;
import io.turboparquet.page.IndexedPageReader;
import io.turboparquet.page.PageReader;
import io.turboparquet.page.PageSource;
import io.turboparquet.page.PrefetchBudget;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;

/**
 * Scans one row group over a projection, batch by batch. With coalesced reads, when the projected
 * chunks fit the memory budget, they are read up front by a {@link RowGroupFetch} and each column
 * reads its pages from memory; otherwise each column has its own stream and page source (async or
 * not). Each column has its own reader; with parallel decoding the columns of a batch are decoded
 * as separate tasks on the decode pool ({@link BatchDecoder}), and every column must come back
 * with the batch's row count.
 *
 * <p>Batches are bounded in bytes per column ({@link ScanOptions.Decode#batchBytes}): flat fixed-width
 * columns by fewer rows per batch, computed once; variable-width and nested columns end a batch
 * early at a record boundary. All columns decode at once (in parallel or not) and the batch then
 * has the fewest rows any column returned; the columns that read further keep their extra rows
 * for the next batch ({@link ColumnChunkReader#keep}), so a projection without variable-width or
 * nested columns pays nothing.
 *
 * <p>With a {@link PageSelection} (page-index skipping), batches cover only its row ranges, each
 * batch within one range ({@link Batch#firstRow} is its first row in the row group); each column
 * reads only its selected pages ({@link IndexedPageReader}) and skips to every range's first row.
 */
final class RowGroupScanner implements AutoCloseable {
  private final ScanContext context;
  private final String file;
  private final RowGroupMeta rowGroup;
  private final List<ColumnChunkReader> readers = new ArrayList<>();
  private final List<FSDataInputStream> streams = new ArrayList<>();
  private RowGroupFetch fetch;
  /** Decodes the batches' columns (in parallel or not). */
  private final BatchDecoder decoder;
  /** Rows per batch: the batch size, lowered so that the widest flat fixed-width column fits the byte limit. */
  private final int batchRows;
  /** The row after the last batch's rows. */
  private long rowsDone;
  /** The rows to return: all, or a page selection's. */
  private final RowRanges ranges;
  private int rangeIndex;
  private final boolean filtered;
  /** The next batch's tasks (every column's), submitted by {@link #decodeAhead}; null when none are. */
  private DecodeTask[] pending;
  /** Bytes the pending batch took from the shared {@link ReadAheadAllowance}, given back when it is collected. */
  private long pendingTaken;
  /** Bytes of the largest batch returned: what a batch decoded ahead is expected to take. */
  private long batchBytes;
  /**
   * The filter judged on each batch's rows; a batch of which it keeps at most half is compacted to
   * them ({@link RowSelection}), one of which it keeps more is handed on whole, for the engine's
   * own filter: gathering most of a batch costs more than the engine saves on the few rows dropped.
   * Null when off (the option of late materialization) or impossible (see {@link BatchFilter#of}),
   * and for the rest of the row group once the first {@link #JUDGE_TRIAL_BATCHES} batches judged
   * were all handed on whole.
   */
  private BatchFilter rowFilter;
  private final RowSelection selection = new RowSelection();
  private int batchesJudged;
  private boolean anyCompacted;
  private static final int JUDGE_TRIAL_BATCHES = 8;
  /**
   * Late materialization: the filter's columns are decoded first, the others only for the rows
   * from a batch's first candidate row to its last. Null when there is no row filter or no column
   * outside its own, or when given up because most rows judged were decoded anyway.
   */
  private BatchFilter late;
  private boolean[] isFilterColumn;
  /** Whether late materialization skipped rows of this row group (then only the filter's columns were read through). */
  private boolean lateSkipped;
  private int lateDecisions;
  private long lateRowsJudged;
  private long lateRowsDecoded;
  /** Decisions (rows passed over, or a batch returned) before late materialization may be given up. */
  private static final int LATE_TRIAL_DECISIONS = 8;
  /**
   * A batch with candidates is cut to the rows from its first candidate to its last when the rows
   * before or after them are at least this share (1/n) of it: the other columns pass over them
   * undecoded, so a lookup decodes the rows around its match, not the whole batch. A shorter cut
   * would cost the filter columns a carry-over for little.
   */
  private static final int TRIM_SHARE = 4;
  private boolean checkedEnd;

  /** Scans a row group, reading it coalesced when the options ask for that and it fits the budget. */
  RowGroupScanner(ScanContext context, FileMetadata meta, Path path, int rowGroupIndex,
      List<ColumnDescriptor> projection) throws IOException {
    this(context, meta, path, rowGroupIndex, projection,
        startFetch(context, meta, path, rowGroupIndex, projection, 0, null, false), null, null);
  }

  /**
   * Scans a row group over the reads of {@code fetch} (started earlier, e.g. while the previous row
   * group decoded), or chunk by chunk when it is null. Takes ownership of the fetch.
   */
  RowGroupScanner(ScanContext context, FileMetadata meta, Path path, int rowGroupIndex,
      List<ColumnDescriptor> projection, RowGroupFetch fetch, PageSelection selection, Filter filter)
      throws IOException {
    this.context = context;
    this.file = meta.file();
    this.rowGroup = meta.rowGroups().get(rowGroupIndex);
    this.fetch = fetch;
    this.filtered = selection != null;
    this.ranges = selection == null ? RowRanges.all(rowGroup.numRows()) : selection.rows();
    ScanOptions options = context.options();
    ScanOptions.Io io = options.io();
    int maxPageBytes = options.limits().maxPageBytes();
    int bufferSize = io.bufferSizeFor(projection.size());
    PrefetchBudget prefetch = new PrefetchBudget(io.prefetchBudget());
    try {
      for (int i = 0; i < projection.size(); i++) {
        ColumnChunkMeta chunk = rowGroup.column(projection.get(i).index());
        if (chunk.decryptor() != null) {
          chunk.decryptor().requireKey(); // before the chunk's input is made, which nothing would then close
        }
        ChunkLocation location = new ChunkLocation(file, rowGroupIndex, chunk);
        List<ChunkInput> inputs;
        PageSource pages;
        OffsetIndex index = selection == null ? null : selection.offsetIndex(i);
        if (fetch != null) {
          // Pages come from memory: slices of the fetched range, no read-ahead task needed.
          if (index != null) {
            List<IndexedPageReader.Segment> segments = fetch.segments(i);
            inputs = segments.stream().map(IndexedPageReader.Segment::input).toList();
            pages = new IndexedPageReader(location, segments, index, selection.selectedPages(i), rowGroup.numRows(),
                maxPageBytes, context.buffers());
          } else {
            ChunkInput input = fetch.input(i);
            inputs = List.of(input);
            pages = new PageReader(input, location, maxPageBytes, context.buffers());
          }
        } else {
          FSDataInputStream in = FileOpener.open(context.fileSystem(), path, meta.fileLength(),
              io.readAheadHint(), chunk.startOffset(), chunk.totalCompressedSize());
          streams.add(in);
          ChunkInput input = ChunkInput.open(in, file, meta.fileLength(), chunk.startOffset(),
              chunk.totalCompressedSize(), io.bufferedReads(), bufferSize, context.buffers());
          inputs = List.of(input);
          PageSource pageReader = index == null ? new PageReader(input, location, maxPageBytes, context.buffers())
              : new IndexedPageReader(location, List.of(new IndexedPageReader.Segment(chunk.startOffset(),
                  chunk.startOffset() + chunk.totalCompressedSize(), input)), index, selection.selectedPages(i),
                  rowGroup.numRows(), maxPageBytes, context.buffers()); // one stream over the chunk, skipping unselected pages
          pages = io.asyncPageReads()
              ? new AsyncPageReader(pageReader, context.scanPool(), io.queueDepth(), prefetch)
              : pageReader;
        }
        readers.add(new ColumnChunkReader(location, pages, inputs, context.buffers(), options,
            context.metrics()));
      }
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
    decoder = new BatchDecoder(context, file, rowGroup, projection, readers);
    int widest = 0;
    for (ColumnDescriptor c : projection) {
      if (c.isFlat() && c.valueWidth() > 0) {
        widest = Math.max(widest, c.valueWidth());
      }
    }
    long fitting = widest == 0 ? Long.MAX_VALUE : Math.max(1, options.decode().batchBytes() / widest);
    batchRows = (int) Math.min(options.decode().batchSize(), fitting);
    rowFilter = options.pruning().lateMaterialization() ? BatchFilter.of(filter, projection, ranges.rowCount()) : null;
    if (rowFilter != null) {
      for (int i : rowFilter.filterColumns()) {
        readers.get(i).keepDictionaryIds();
      }
    }
    late = rowFilter != null && rowFilter.filterColumns().length < projection.size() ? rowFilter : null;
    if (late != null) {
      isFilterColumn = new boolean[projection.size()];
      for (int i : late.filterColumns()) {
        isFilterColumn[i] = true;
      }
    }
  }

  /**
   * The coalesced reads of a row group (of a page selection's bytes only, when given one), started,
   * when the options ask for them, they fit the memory budget (with {@code alsoHeld} bytes of other
   * fetches still in memory) and they find room in the {@link ReadAheadAllowance} the scans share
   * ({@code ahead}: read ahead of its turn, else at its turn, see {@link ReadAheadAllowance#tryTakeTurn});
   * else null, and the row group is read chunk by chunk at its turn.
   */
  static RowGroupFetch startFetch(ScanContext context, FileMetadata meta, Path path, int rowGroupIndex,
      List<ColumnDescriptor> projection, long alsoHeld, PageSelection selection, boolean ahead) {
    ScanOptions options = context.options();
    if (!options.io().coalescedReads() || projection.isEmpty()) {
      return null;
    }
    long bytes = fetchBytes(meta, rowGroupIndex, projection, selection);
    if (bytes + alsoHeld > options.io().memoryBudget() || bytes > Integer.MAX_VALUE) {
      return null;
    }
    ReadAheadAllowance shared = context.readAhead();
    if (!(ahead ? shared.tryTake(bytes) : shared.tryTakeTurn(bytes))) {
      return null;
    }
    return RowGroupFetch.start(context, meta, path, rowGroupIndex, projection, selection, bytes);
  }

  /** Bytes the coalesced reads of a row group's {@code projection} (its {@code selection}'s pages, if any) take. */
  static long fetchBytes(FileMetadata meta, int rowGroupIndex, List<ColumnDescriptor> projection,
      PageSelection selection) {
    return selection != null ? selection.bytes() : RowGroupFetch.projectedBytes(meta, rowGroupIndex, projection);
  }

  /** Bytes this scanner's coalesced reads hold in memory (0 when it reads chunk by chunk). */
  public long fetchedBytes() {
    return fetch == null ? 0 : fetch.bytes();
  }

  public RowGroupMeta rowGroup() {
    return rowGroup;
  }

  /**
   * The next batch, or null when the row group is done. Invalidates the previous batch. A failure is
   * the same whatever the batch size (up to {@link ScanOptions#DEFAULT_BATCH_SIZE}) or the threads:
   * when column j fails, the columns before it are read on to the end of j's batch of that largest
   * size (on this thread, on the error path only) and the first of them that fails too is reported
   * instead, since a scan with such batches would have met its error in the same batch as j's, and
   * reported it first.
   */
  public Batch next() throws IOException {
    failedColumn = -1;
    try {
      return nextBatch();
    } catch (IOException | RuntimeException e) {
      Failures.rethrow(firstInColumnOrder(e));
      throw e; // not reached
    }
  }

  /** The column whose failure the batch being read threw, or -1 when not a column's. */
  private int failedColumn = -1;

  private Batch nextBatch() throws IOException {
    ErrorContext where = ErrorContext.of(file).inRowGroup(rowGroup.index());
    while (true) {
      context.checkCancelled(where); // late materialization may pass over many batches in one call
      long start = nextStart();
      if (start < 0) {
        if (!checkedEnd && !filtered) { // once the last batch is done with: no column may hold values past the rows
          checkedEnd = true;
          for (int i = 0; i < readers.size(); i++) {
            if (!lateSkipped || isFilterColumn[i]) { // columns that passed over skipped rows did not read to the end
              readers.get(i).checkExhausted();
            }
          }
        }
        return null;
      }
      long remaining = ranges.to(rangeIndex) - start;
      int rows = (int) Math.min(batchRows, remaining);
      ColumnBatch[] columns;
      if (pending != null) {
        DecodeTask[] tasks = pending;
        pending = null;
        giveBackPending();
        columns = decoder.finish(tasks);
      } else if (late != null) {
        columns = new ColumnBatch[readers.size()];
        decoder.decode(columns, isFilterColumn, true, start, rows);
        int candidates = fewest(columns, start, remaining, rows);
        int first = late.firstMatch(columns, 0, candidates);
        if (first > 0 && first >= candidates / TRIM_SHARE && othersCanSkipTo(start + first)) {
          // No candidate before `first` (none at all when it is `candidates`): pass over those rows.
          for (int i : late.filterColumns()) {
            if (columns[i].rowCount() > first) {
              readers.get(i).keep(first);
            }
          }
          rowsDone = start + first;
          lateSkipped = true;
          context.metrics().addLateSkippedRows(first);
          judged(first, 0);
          continue; // the other columns skip these rows when they next read
        }
        int end = late.lastMatch(columns, first, candidates) + 1;
        if (candidates - end < candidates / TRIM_SHARE) {
          end = candidates; // a short tail without candidates is not worth carrying over
        }
        decoder.decode(columns, isFilterColumn, false, start, end);
        rows = fewest(columns, start, remaining, end);
        judged(rows, rows); // the rows after them are judged again with the next batch
      } else {
        columns = new ColumnBatch[readers.size()];
        decoder.decode(columns, null, true, start, rows);
      }
      rows = fewest(columns, start, remaining, rows);
      for (int i = 0; i < columns.length; i++) {
        if (columns[i].rowCount() > rows) {
          readers.get(i).keep(rows);
        }
      }
      rowsDone = start + rows;
      batchBytes = Math.max(batchBytes, bytesOf(columns)); // before compaction: what decoding the batch held
      if (rowFilter == null) {
        return new Batch(rowGroup.index(), start, rows, Arrays.asList(columns), null, false);
      }
      rowFilter.select(columns, rows, selection);
      int kept = selection.selected();
      boolean compact = 2 * kept <= rows;
      anyCompacted |= compact;
      if (++batchesJudged == JUDGE_TRIAL_BATCHES && !anyCompacted) {
        rowFilter = null;
      }
      if (!compact) {
        return new Batch(rowGroup.index(), start, rows, Arrays.asList(columns), null, kept == rows);
      }
      context.metrics().addFilteredRows(rows - kept);
      if (kept == 0) {
        continue;
      }
      for (ColumnBatch c : columns) {
        selection.compact(c);
      }
      return new Batch(rowGroup.index(), start, kept, Arrays.asList(columns), selection.copy(), true);
    }
  }

  /**
   * The fewest rows any of the decoded columns returned (columns end early at their byte limit),
   * at most {@code asked}; a column that returned none where rows remain is corrupt (a chunk that
   * ends early shows so, at the latest one batch later).
   */
  private int fewest(ColumnBatch[] columns, long start, long remaining, int asked) throws IOException {
    int rows = asked;
    for (int i = 0; i < columns.length; i++) {
      ColumnBatch c = columns[i];
      if (c != null) {
        if (c.rowCount() <= 0) {
          failedColumn = i;
          throw endsEarly(c, start, remaining);
        }
        rows = Math.min(rows, c.rowCount());
      }
    }
    return rows;
  }

  private ParquetCorruptionException endsEarly(ColumnBatch c, long start, long remaining) {
    return new ParquetCorruptionException(ErrorContext.of(file).inRowGroup(rowGroup.index())
        .column(c.column().dottedPath()), "has " + c.rowCount() + " rows at row " + start
        + " where the row group promises " + remaining + " more");
  }

  /**
   * {@code e}, or the error of a column before the one that threw it, read on to the end of the
   * failing batch as the largest batches cut it: the first column in order that fails. Bounded by
   * one such batch per column, so that a crafted page cannot make the error path long. Only where
   * every column reads every row in order (no page selection, no rows passed over by late
   * materialization), and not for an interrupt.
   */
  private Exception firstInColumnOrder(Exception e) {
    int failed = failedColumn >= 0 ? failedColumn : decoder.failedColumn();
    if (failed <= 0 || filtered || lateSkipped || e instanceof InterruptedIOException) {
      return e;
    }
    long window = Math.max(batchRows, ScanOptions.DEFAULT_BATCH_SIZE);
    long end = Math.min(rowGroup.numRows(), (readers.get(failed).rowPosition() / window + 1) * window);
    long byteLimit = context.options().decode().batchBytes();
    for (int i = 0; i < failed; i++) {
      ColumnChunkReader r = readers.get(i);
      try {
        for (long at = r.rowPosition(); at < end; ) {
          context.checkCancelled(ErrorContext.of(file).inRowGroup(rowGroup.index()));
          ColumnBatch c = r.readBatch(at, (int) Math.min(batchRows, end - at), byteLimit);
          if (c.rowCount() <= 0) {
            throw endsEarly(c, at, end - at);
          }
          at += c.rowCount();
        }
        if (end == rowGroup.numRows()) {
          r.checkExhausted();
        }
      } catch (IOException | RuntimeException earlier) {
        return earlier;
      }
    }
    return e;
  }

  /**
   * Whether the columns outside the filter can pass over the rows up to {@code row} undecoded; if
   * so, drops the rows they kept from the last batch (all before it).
   */
  private boolean othersCanSkipTo(long row) {
    for (int i = 0; i < readers.size(); i++) {
      if (!isFilterColumn[i] && !readers.get(i).canSkipTo(row)) {
        return false;
      }
    }
    for (int i = 0; i < readers.size(); i++) {
      if (!isFilterColumn[i]) {
        readers.get(i).dropCarriedRows();
      }
    }
    return true;
  }

  /**
   * Counts a decision of late materialization: {@code rows} rows judged, {@code decoded} of them
   * decoded in every column. After {@link #LATE_TRIAL_DECISIONS} decisions, gives late
   * materialization up for the rest of the row group when more than half the rows judged were
   * decoded anyway, so that a filter that skips little costs no more than the first few batches
   * (and decoding ahead comes back).
   */
  private void judged(int rows, int decoded) {
    lateDecisions++;
    lateRowsJudged += rows;
    lateRowsDecoded += decoded;
    if (lateDecisions == LATE_TRIAL_DECISIONS && 2 * lateRowsDecoded > lateRowsJudged) {
      late = null;
    }
  }

  /** Direct bytes a batch's columns hold: values, offsets, and a byte per entry of validity or levels. */
  private static long bytesOf(ColumnBatch[] columns) {
    long bytes = 0;
    for (ColumnBatch c : columns) {
      bytes += c.values().byteSize() + (long) c.entryCount() * ((c.validity() != null ? 1 : 0)
          + (c.definitionLevels() != null ? 1 : 0) + (c.repetitionLevels() != null ? 1 : 0));
    }
    return bytes;
  }

  /** Bytes of the largest batch returned so far (0 before the first). */
  long batchBytes() {
    return batchBytes;
  }

  private void giveBackPending() {
    context.readAhead().giveBack(pendingTaken);
    pendingTaken = 0;
  }

  /** Whether rows are left for another batch. */
  public boolean hasNext() {
    return nextStart() >= 0;
  }

  /** The first row of the next batch, or -1 when no rows are left. */
  private long nextStart() {
    while (rangeIndex < ranges.count() && ranges.to(rangeIndex) <= rowsDone) {
      rangeIndex++;
    }
    return rangeIndex == ranges.count() ? -1 : Math.max(rowsDone, ranges.from(rangeIndex));
  }

  /**
   * Starts decoding the next batch on the decode pool, for {@link #next} to collect, when the
   * options ask for decoding ahead and rows remain, and a batch as large as the largest so far fits
   * the shared {@link ReadAheadAllowance} (inside Drill the current batch lives on in Drill's vectors
   * meanwhile, so a batch decoded ahead is one more batch of memory). The caller must be done with the
   * last batch: its columns' buffers are decoded into again.
   */
  public void decodeAhead() {
    decodeAhead(batchBytes);
  }

  /** As {@link #decodeAhead()}, expecting the batch to take {@code expectedBytes} (a new row group's first batch). */
  void decodeAhead(long expectedBytes) {
    if (pending != null || late != null || !context.options().decode().decodeAhead() || !decoder.parallel()) {
      return; // late materialization decides batch by batch what to decode
    }
    long start = nextStart();
    if (start >= 0 && context.readAhead().tryTake(expectedBytes)) {
      try {
        pending = decoder.submit(null, true, start, (int) Math.min(batchRows, ranges.to(rangeIndex) - start));
      } catch (RuntimeException | Error e) {
        context.readAhead().giveBack(expectedBytes);
        throw e;
      }
      pendingTaken = expectedBytes;
    }
  }

  @Override
  public void close() {
    if (pending != null) {
      // Tasks not yet started never start; running ones finish before their buffers are freed.
      for (DecodeTask t : pending) {
        if (t != null) {
          t.skip();
        }
      }
      if (BatchDecoder.awaitAll(pending)) {
        Thread.currentThread().interrupt();
      }
      pending = null;
      giveBackPending();
    }
    RuntimeException first = null;
    for (ColumnChunkReader r : readers) {
      try {
        r.close();
      } catch (RuntimeException e) {
        first = first == null ? e : first;
      }
    }
    readers.clear();
    for (FSDataInputStream in : streams) {
      context.metrics().addStoreReads(StoreReads.of(in));
      try {
        in.close();
      } catch (IOException | RuntimeException e) {
        // closing a read-only stream: nothing is lost
      }
    }
    streams.clear();
    if (fetch != null) {
      fetch.close();
      fetch = null;
    }
    if (first != null) {
      throw first;
    }
  }
}
