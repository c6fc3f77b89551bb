package io.turboparquet.scan;

import io.turboparquet.io.Failures;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one owner of everything in a scan that spans row groups: a list of {@link RowGroupRead}s
 * (one file's row groups, or a Drill fragment's row groups across files) read in order. Per row
 * group it plans what to read once (with a filter: pruning by dictionary and bloom filter, then
 * page-index skipping; with async reads on the scan pool, up to {@link #MAX_PREFETCH_DEPTH} row
 * groups ahead), starts the coalesced reads ({@link RowGroupFetch}) and opens the
 * {@link RowGroupScanner}. Across row groups it reads {@link #PREFETCH_DEPTH} row groups ahead
 * while the current one decodes, more while those hold fewer than {@link #PREFETCH_BYTES} (at most
 * {@link #MAX_PREFETCH_DEPTH}), as
 * long as the current and the prefetched bytes fit the memory budget together, and when the
 * current row group has no batch left, opens the next one and decodes its first batch before the
 * consumer asks for it. {@link #close} stops reads not yet started, waits for running ones and
 * releases every buffer, whatever state the scan is in.
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

  /** What a planning ahead gives when it leaves the read to be planned at its turn (compared by identity). */
  private static final PageSelection LEFT_FOR_ITS_TURN = PageSelection.none();

  /** A read whose bytes are being fetched ahead of its turn. */
  private record Ahead(int read, RowGroupFetch fetch) {
  }

  /**
   * The planning of one read's page selection ({@link #plan}) on the scan pool, ahead of its turn:
   * its dictionary, bloom-filter and page-index reads are round trips that would otherwise follow
   * one another on the consumer's thread, one row group at a time. Runs once, on whichever thread
   * claims it first: a pool thread, or the consumer when it needs the answer before a pool thread
   * got to it.
   */
  private final class Planning implements Runnable {
    private final int read;
    private final AtomicBoolean claimed = new AtomicBoolean();
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile PageSelection selection;
    private volatile Throwable error;

    Planning(int read) {
      this.read = read;
    }

    @Override
    public void run() {
      try {
        planUnlessClaimed(true);
      } finally {
        plannings.decrementAndGet(); // run only as handed to the pool by startPlannings
        if (!closed) {
          startPlannings();
        }
      }
    }

    /**
     * The selection, planned now unless a pool thread has it (then waited for), or planned now if the
     * pool thread left it to the read's turn; its error as thrown there.
     */
    PageSelection get() throws IOException {
      planUnlessClaimed(false);
      try {
        done.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while planning row group " + reads.get(read).rowGroup());
      }
      Failures.rethrow(error);
      return selection != LEFT_FOR_ITS_TURN ? selection : plan(read);
    }

    /** Plans the read on this thread ({@link #planEarly} ahead of its turn) unless another thread has claimed it. */
    private void planUnlessClaimed(boolean early) {
      if (!claimed.compareAndSet(false, true)) {
        return;
      }
      try {
        selection = early ? planEarly(read) : plan(read);
      } catch (Throwable t) {
        error = t;
      } finally {
        done.countDown();
      }
    }

    /** Keeps it from starting, or waits until it ends: what it read is released when it returns. */
    void cancel() {
      if (claimed.compareAndSet(false, true)) {
        done.countDown();
        return;
      }
      boolean interrupted = false;
      while (true) {
        try {
          done.await();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private final ScanContext context;
  private final List<RowGroupRead> reads;
  /** Each read's page selection once planned (null entries: read whole). */
  private final PageSelection[] selections;
  private final boolean[] planned;
  /** Selections being planned on the scan pool, by read (null: not started ahead). */
  private final Planning[] planning;
  /** Plannings not yet handed to the pool, in read order. */
  private final ConcurrentLinkedQueue<Planning> waiting = new ConcurrentLinkedQueue<>();
  /** Plannings handed to the pool and not ended. */
  private final AtomicInteger plannings = new AtomicInteger();
  /** Reads started ahead of their turn, in read order. */
  private final ArrayDeque<Ahead> ahead = new ArrayDeque<>();
  private int current = -1;
  private RowGroupScanner scanner;
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
    this.selections = new PageSelection[this.reads.size()];
    this.planned = new boolean[this.reads.size()];
    this.planning = new Planning[this.reads.size()];
    planAhead(0);
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
    RowGroupScanner opened = early;
    early = null;
    if (opened != null && i != current + 1) {
      opened.close();
      opened = null;
    }
    current = i;
    planAhead(i + 1);
    scanner = opened != null ? opened : start(i);
    if (scanner != null) {
      prefetch(i + 1);
    }
    return scanner != null;
  }

  /** The current read's next batch, or null when it has no more. Invalidates the previous batch. */
  public Batch next() throws IOException {
    return scanner == null ? null : scanner.next();
  }

  /**
   * Tells the pipeline the consumer is done with the last batch. With decoding ahead on, the
   * current row group's next batch starts decoding; when it has none left, the next read is
   * opened now and its first batch starts decoding, provided its reads were started ahead (there
   * is nothing to overlap otherwise). What goes wrong in opening it early is left for its
   * {@link #open} to meet again and report.
   */
  public void decodeAhead() {
    if (scanner == null) {
      return;
    }
    if (scanner.hasNext()) {
      scanner.decodeAhead();
      return;
    }
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
        early.decodeAhead();
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
      PageSelection selection = selection(i);
      if (selection != null && selection.rows().isEmpty()) {
        context.metrics().addRowGroup(read.numRows()); // nothing was read of it
        return null;
      }
      ScanContext c = contextOf(read);
      if (fetch == null) {
        fetch = RowGroupScanner.startFetch(c, read.metadata(), read.path(), read.rowGroup(), read.projection(),
            aheadBytes(), selection);
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
      ahead.poll().fetch().close();
    }
    Ahead head = ahead.peek();
    if (head != null && head.read() == i) {
      ahead.poll();
      return head.fetch();
    }
    return null;
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
        selection = read.readsData() ? selection(next) : null;
      } catch (IOException | RuntimeException e) {
        return;
      }
      if (!read.readsData() || selection != null && selection.rows().isEmpty()) {
        next++;
        continue;
      }
      RowGroupFetch fetch = RowGroupScanner.startFetch(contextOf(read), read.metadata(), read.path(),
          read.rowGroup(), read.projection(), held, selection);
      if (fetch == null) {
        return;
      }
      ahead.add(new Ahead(next, fetch));
      context.metrics().addPrefetchedRowGroup();
      held += fetch.bytes();
      aheadHeld += fetch.bytes();
      next++;
    }
  }

  /**
   * The page selection of read {@code i}, planned once (ahead of its turn on the scan pool, or
   * now): none when its dictionaries or bloom filters rule the row group out, else from its page
   * index.
   */
  private PageSelection selection(int i) throws IOException {
    if (reads.get(i).filter() == null) {
      return null;
    }
    if (!planned[i]) {
      selections[i] = planning[i] != null ? planning[i].get() : plan(i);
      planned[i] = true;
    }
    return selections[i];
  }

  /**
   * Read {@code i}'s selection ({@link RowGroupPruning}, then {@link PageSelection#plan}), at its
   * turn.
   */
  private PageSelection plan(int i) throws IOException {
    RowGroupRead read = reads.get(i);
    ScanContext c = contextOf(read);
    return RowGroupPruning.prunes(c, read.metadata(), read.path(), read.rowGroup(), read.filter())
        ? PageSelection.none()
        : PageSelection.plan(c, read.metadata(), read.path(), read.rowGroup(), read.projection(), read.filter());
  }

  /**
   * {@link #plan}, ahead of the read's turn on a pool thread (it touches nothing of the pipeline's):
   * {@link #LEFT_FOR_ITS_TURN} when a dictionary too large to hold ahead would decide
   * ({@link RowGroupPruning#prunesAhead}).
   */
  private PageSelection planEarly(int i) throws IOException {
    RowGroupRead read = reads.get(i);
    ScanContext c = contextOf(read);
    Boolean pruned = RowGroupPruning.prunesAhead(c, read.metadata(), read.path(), read.rowGroup(), read.filter());
    if (pruned == null) {
      return LEFT_FOR_ITS_TURN;
    }
    return pruned ? PageSelection.none()
        : PageSelection.plan(c, read.metadata(), read.path(), read.rowGroup(), read.projection(), read.filter());
  }

  /**
   * Starts planning the selections of the filtered reads from {@code first} on, up to
   * {@link #MAX_PREFETCH_DEPTH} reads past the current one, on the scan pool (with async reads
   * only): each is a few small reads, which on remote storage cost a round trip each.
   */
  private void planAhead(int first) {
    if (!context.options().io().asyncPageReads() || context.scanPool() == null) {
      return;
    }
    int last = Math.min(reads.size(), Math.max(current, 0) + 1 + MAX_PREFETCH_DEPTH);
    for (int i = first; i < last; i++) {
      RowGroupRead read = reads.get(i);
      if (planning[i] != null || planned[i] || read.filter() == null || read.rowGroup() < 0 || !read.readsData()) {
        continue;
      }
      Planning p = new Planning(i);
      planning[i] = p;
      waiting.add(p);
    }
    startPlannings();
  }

  /**
   * Hands waiting plannings to the scan pool while fewer than {@link #PLANNING_WINDOW} run; called
   * by the consumer and by each planning as it ends (thread-safe). Plannings the pool refuses (it is
   * shutting down) are left for the consumer to run at their read's turn.
   */
  private void startPlannings() {
    while (true) {
      int running = plannings.get();
      if (running >= PLANNING_WINDOW || waiting.isEmpty()) {
        return;
      }
      if (!plannings.compareAndSet(running, running + 1)) {
        continue;
      }
      Planning next = waiting.poll();
      if (next == null) {
        plannings.decrementAndGet();
        continue;
      }
      try {
        context.scanPool().execute(next);
      } catch (RejectedExecutionException e) {
        plannings.decrementAndGet();
        waiting.clear();
        return;
      }
    }
  }

  private ScanContext contextOf(RowGroupRead read) {
    return read.options() == context.options() ? context : context.withOptions(read.options());
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
      a.fetch().close();
    }
    for (Planning p : planning) {
      if (p != null) {
        p.cancel();
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
