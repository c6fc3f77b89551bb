package io.turboparquet.scan;

import io.turboparquet.io.Failures;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.List;

/**
 * The one owner of everything in a scan that spans row groups: a list of {@link RowGroupRead}s
 * (one file's row groups, or a Drill fragment's row groups across files) read in order. Per row
 * group it plans what to read once ({@link RowGroupPlanner}; with a filter: pruning by dictionary
 * and bloom filter, then page-index skipping; with async reads on the scan pool, up to
 * {@link #MAX_PREFETCH_DEPTH} row groups ahead), starts the coalesced reads ({@link RowGroupFetch})
 * and opens the {@link RowGroupScanner}. Across row groups it reads {@link #PREFETCH_DEPTH} row groups ahead
 * while the current one decodes, more while those hold fewer than {@link #PREFETCH_BYTES} (at most
 * {@link #MAX_PREFETCH_DEPTH}), as
 * long as the current and the prefetched bytes fit the memory budget together and the bytes read
 * ahead fit the {@link ReadAheadAllowance} shared with other scans, and when the
 * current row group has no batch left, opens the next one and decodes its first batch before the
 * consumer asks for it. A row group's buffers (its reads, pages and dictionaries) are released as
 * soon as the consumer is done with its last batch, not when the next one opens: inside Drill that
 * batch then lives on in Drill's vectors alone while Drill's operators work on it. {@link #close}
 * stops reads not yet started, waits for running ones and releases every buffer, whatever state the
 * scan is in.
 *
 * <p>The consumer (the CLI's {@link ParquetFileScanner}, Drill's record readers) calls
 * {@link #open} for each read in increasing order, {@link #next} for its batches, and
 * {@link #decodeAhead} once done with each batch. Single-threaded: one consumer thread.
 */
public final class RowGroupPipeline implements AutoCloseable {
  /**
   * Row groups read ahead at once (budget permitting): with per-call latency a single row group's
   * reads leave the storage idle between row groups (measured: 33% of a 400 MiB/s ceiling with one
   * ahead).
   */
  static final int PREFETCH_DEPTH = 4;

  /**
   * Beyond {@link #PREFETCH_DEPTH}, row groups are read ahead while those ahead hold fewer bytes
   * than this: small row groups on storage with high latency need more bytes in flight than four of
   * them hold. 400 MiB/s with 50 ms to the first byte wants about 24 MiB in flight; lineitem SF1's
   * 4 MiB row groups, read with 32 scan threads, took 0.90 s four ahead and 0.76 s eight ahead
   * against a 0.51 s ceiling (the rest: the footer's and the first row group's round trips). It
   * takes a scan pool with as many threads as parts in flight (one read of up to 1 MiB each).
   * Row groups of 8 MiB or more are read ahead four at a time, as before.
   */
  static final long PREFETCH_BYTES = 32L << 20;

  /** Most row groups read ahead at once, however small. */
  static final int MAX_PREFETCH_DEPTH = 16;

  /**
   * Most row groups planned on the scan pool at once: each may hold a page index (up to 16 MiB a
   * read) and dictionaries ({@link RowGroupPruning#prunesAhead}) while it runs.
   */
  static final int PLANNING_WINDOW = 8;

  /** A read whose bytes are being fetched ahead of its turn. */
  private record Ahead(int read, RowGroupFetch fetch) {
  }

  private final ScanContext context;
  private final List<RowGroupRead> reads;
  /** Each read's page selection, planned once. */
  private final RowGroupPlanner planner;
  /** Reads started ahead of their turn, in read order. */
  private final ArrayDeque<Ahead> ahead = new ArrayDeque<>();
  private int current = -1;
  private RowGroupScanner scanner;
  /**
   * What the current read's end check threw when its scanner was closed after its last batch
   * ({@link #decodeAhead}), for {@link #next} to throw as the scanner's own next call would have.
   */
  private Exception endFailure;
  /** The next read's scanner, opened early (its first batch decoding) once the current one ran out of batches. */
  private RowGroupScanner early;
  private volatile boolean closed;

  /**
   * @param context the scan's resources, metrics and options; the options decide everything across
   *     row groups (prefetching, the memory budget), each read's own options its batches
   */
  public RowGroupPipeline(ScanContext context, List<RowGroupRead> reads) {
    this.context = context;
    this.reads = List.copyOf(reads);
    this.planner = new RowGroupPlanner(context, this.reads, () -> closed);
    planner.planAhead(0, current);
  }

  public int size() {
    return reads.size();
  }

  public RowGroupRead read(int i) {
    return reads.get(i);
  }

  /**
   * Makes read {@code i} the current one, closing the one before (reads skipped over are dropped).
   * False when nothing of it is to be read: no projected column, no rows, or its filter rules out
   * every row (then {@link #next} returns null at once).
   */
  public boolean open(int i) throws IOException {
    if (closed) {
      throw new IllegalStateException("the scan is closed");
    }
    if (i <= current || i >= reads.size()) {
      throw new IllegalArgumentException("read " + i + " cannot follow read " + current + " of " + reads.size());
    }
    closeScanner();
    endFailure = null;
    RowGroupScanner opened = early;
    early = null;
    if (opened != null && i != current + 1) {
      opened.close();
      opened = null;
    }
    current = i;
    planner.planAhead(i + 1, current);
    scanner = opened != null ? opened : start(i);
    if (scanner != null) {
      prefetch(i + 1);
    }
    return scanner != null;
  }

  /** The current read's next batch, or null when it has no more. Invalidates the previous batch. */
  public Batch next() throws IOException {
    if (scanner == null) {
      Exception failure = endFailure;
      endFailure = null;
      Failures.rethrow(failure);
      return null;
    }
    return scanner.next();
  }

  /**
   * Tells the pipeline the consumer is done with the last batch. While the current row group has
   * batches left, with decoding ahead on, its next batch starts decoding. Once it has none left, its
   * scanner makes its end check and is closed, releasing its buffers (a failure waits for
   * {@link #next}); with decoding ahead on, the next read is then opened and its first batch starts
   * decoding, provided its reads were started ahead (there is nothing to overlap otherwise). What
   * goes wrong in opening it early is left for its {@link #open} to meet again and report.
   */
  public void decodeAhead() {
    if (scanner == null) {
      return;
    }
    if (scanner.hasNext()) {
      scanner.decodeAhead();
      return;
    }
    long batchBytes = scanner.batchBytes();
    finishScanner();
    int next = current + 1;
    Ahead head = ahead.peek();
    if (early != null || head == null || head.read() != next) {
      return;
    }
    ScanOptions options = reads.get(next).options();
    if (!options.decode().decodeAhead() || !options.decode().parallelDecode()) {
      return;
    }
    try {
      early = start(next);
      if (early != null) {
        early.decodeAhead(batchBytes); // its batches are expected to be as large as this row group's
      }
    } catch (IOException | RuntimeException e) {
      closeEarly();
    }
  }

  /** Read {@code i}'s scanner over its reads started ahead, or started now; null when nothing of it is read. */
  private RowGroupScanner start(int i) throws IOException {
    RowGroupRead read = reads.get(i);
    RowGroupFetch fetch = takeAhead(i);
    try {
      if (read.rowGroup() < 0) {
        return null;
      }
      if (!read.readsData()) {
        context.metrics().addRowGroup(read.numRows());
        return null;
      }
      PageSelection selection = planner.selection(i);
      if (selection != null && selection.rows().isEmpty()) {
        context.metrics().addRowGroup(read.numRows()); // nothing was read of it
        return null;
      }
      ScanContext c = contextOf(read);
      if (fetch == null) {
        fetch = RowGroupScanner.startFetch(c, read.metadata(), read.path(), read.rowGroup(), read.projection(),
            aheadBytes(), selection, false);
      }
      RowGroupFetch owned = fetch;
      fetch = null; // the scanner owns it now, and closes it if it fails
      RowGroupScanner s = new RowGroupScanner(c, read.metadata(), read.path(), read.rowGroup(), read.projection(),
          owned, selection, read.filter());
      context.metrics().addRowGroup(read.numRows());
      return s;
    } finally {
      if (fetch != null) {
        fetch.close();
      }
    }
  }

  /** The fetch started ahead for read {@code i}, if any; fetches of reads before it are dropped. */
  private RowGroupFetch takeAhead(int i) {
    while (!ahead.isEmpty() && ahead.peek().read() < i) {
      drop(ahead.poll());
    }
    Ahead head = ahead.peek();
    if (head != null && head.read() == i) {
      ahead.poll();
      return head.fetch(); // its bytes stay taken from the shared allowance until its scanner closes
    }
    return null;
  }

  private void drop(Ahead a) {
    a.fetch().close();
  }

  private long aheadBytes() {
    long held = 0;
    for (Ahead a : ahead) {
      held += a.fetch().bytes();
    }
    return held;
  }

  /**
   * Starts reading the reads after the current one, from {@code first} on, while it decodes: only
   * with coalesced async reads, {@link #PREFETCH_DEPTH} ahead and more while those ahead hold fewer
   * than {@link #PREFETCH_BYTES} (at most {@link #MAX_PREFETCH_DEPTH}), and only while the current,
   * the early-opened and the prefetched row groups' bytes fit the memory budget together. Reads
   * with nothing to read are passed over. A page index that cannot be read stops prefetching: the
   * read's own {@link #open} meets the error again and reports it.
   */
  private void prefetch(int first) {
    ScanOptions options = context.options();
    if (!options.io().prefetchRowGroups() || !options.io().asyncPageReads() || context.scanPool() == null
        || scanner.fetchedBytes() == 0) {
      return;
    }
    long aheadHeld = aheadBytes();
    long held = scanner.fetchedBytes() + aheadHeld;
    int next = ahead.isEmpty() ? first : Math.max(first, ahead.peekLast().read() + 1);
    while (next < reads.size() && ahead.size() < MAX_PREFETCH_DEPTH
        && (ahead.size() < PREFETCH_DEPTH || aheadHeld < PREFETCH_BYTES)) {
      RowGroupRead read = reads.get(next);
      PageSelection selection;
      try {
        selection = read.readsData() ? planner.selection(next) : null;
      } catch (IOException | RuntimeException e) {
        return;
      }
      if (!read.readsData() || selection != null && selection.rows().isEmpty()) {
        next++;
        continue;
      }
      RowGroupFetch fetch = RowGroupScanner.startFetch(contextOf(read), read.metadata(), read.path(),
          read.rowGroup(), read.projection(), held, selection, true);
      if (fetch == null) {
        return; // over the budget, or other scans hold the shared allowance: read at its turn
      }
      ahead.add(new Ahead(next, fetch));
      context.metrics().addPrefetchedRowGroup();
      held += fetch.bytes();
      aheadHeld += fetch.bytes();
      next++;
    }
  }

  private ScanContext contextOf(RowGroupRead read) {
    return contextOf(context, read);
  }

  /** {@code context} with the options of {@code read}, when they are not the scan's. */
  static ScanContext contextOf(ScanContext context, RowGroupRead read) {
    return read.options() == context.options() ? context : context.withOptions(read.options());
  }

  /**
   * Closes the current scanner once it has no batch left, after the end check its next call makes
   * (no column may hold values past the row group's rows); what that throws waits in
   * {@link #endFailure}.
   */
  private void finishScanner() {
    RowGroupScanner s = scanner;
    scanner = null;
    try {
      s.next();
    } catch (IOException | RuntimeException e) {
      endFailure = e;
    } finally {
      try {
        s.close();
      } catch (RuntimeException e) {
        endFailure = endFailure == null ? e : endFailure;
      }
    }
  }

  private void closeScanner() {
    if (scanner != null) {
      RowGroupScanner s = scanner;
      scanner = null;
      s.close();
    }
  }

  private void closeEarly() {
    if (early != null) {
      RowGroupScanner s = early;
      early = null;
      s.close();
    }
  }

  /**
   * Asks the scan to stop, from any thread ({@link ScanContext#cancel}): its decoding, here and on the
   * decode pool, fails at its next batch with an {@code InterruptedIOException}. The thread that
   * reads the batches must still {@link #close} the pipeline to release its buffers.
   */
  public void cancel() {
    context.cancel();
  }

  /** Stops every read not yet started, waits for running ones, and releases every buffer. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    RuntimeException failure = null;
    try {
      closeScanner();
    } catch (RuntimeException e) {
      failure = e;
    }
    try {
      closeEarly();
    } catch (RuntimeException e) {
      failure = failure == null ? e : failure;
    }
    Ahead a;
    while ((a = ahead.poll()) != null) {
      drop(a);
    }
    planner.cancel();
    if (failure != null) {
      throw failure;
    }
  }
}
