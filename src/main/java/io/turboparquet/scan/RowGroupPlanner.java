package io.turboparquet.scan;

import io.turboparquet.io.Failures;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * The page selections of a {@link RowGroupPipeline}'s reads, each planned once: with a filter,
 * pruning by dictionary and bloom filter ({@link RowGroupPruning}), then page-index skipping
 * ({@link PageSelection#plan}); with async reads, ahead of the read's turn on the scan pool (at most
 * {@link RowGroupPipeline#PLANNING_WINDOW} at once, up to {@link RowGroupPipeline#MAX_PREFETCH_DEPTH}
 * reads past the current one), else at its turn. Called on the pipeline's consumer thread; the
 * plannings ahead run on the scan pool.
 */
final class RowGroupPlanner {
  /** What a planning ahead gives when it leaves the read to be planned at its turn (compared by identity). */
  private static final PageSelection LEFT_FOR_ITS_TURN = PageSelection.none();

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
        if (!closed.getAsBoolean()) {
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
  /** Whether the pipeline is closed: plannings then start no others. */
  private final BooleanSupplier closed;
  /** Each read's page selection once planned (null entries: read whole). */
  private final PageSelection[] selections;
  private final boolean[] planned;
  /** Selections being planned on the scan pool, by read (null: not started ahead). */
  private final Planning[] planning;
  /** Plannings not yet handed to the pool, in read order. */
  private final ConcurrentLinkedQueue<Planning> waiting = new ConcurrentLinkedQueue<>();
  /** Plannings handed to the pool and not ended. */
  private final AtomicInteger plannings = new AtomicInteger();

  RowGroupPlanner(ScanContext context, List<RowGroupRead> reads, BooleanSupplier closed) {
    this.context = context;
    this.reads = reads;
    this.closed = closed;
    this.selections = new PageSelection[reads.size()];
    this.planned = new boolean[reads.size()];
    this.planning = new Planning[reads.size()];
  }

  /**
   * The page selection of read {@code i}, planned once (ahead of its turn on the scan pool, or
   * now): none when its dictionaries or bloom filters rule the row group out, else from its page
   * index.
   */
  PageSelection selection(int i) throws IOException {
    if (reads.get(i).filter() == null && !reads.get(i).limited()) {
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
    ScanContext c = RowGroupPipeline.contextOf(context, read);
    return RowGroupPruning.prunes(c, read.metadata(), read.path(), read.rowGroup(), read.filter())
        ? PageSelection.none()
        : PageSelection.plan(c, read);
  }

  /**
   * {@link #plan}, ahead of the read's turn on a pool thread (it touches no state of the pipeline's
   * or the planner's): {@link #LEFT_FOR_ITS_TURN} when a dictionary too large to hold ahead would
   * decide ({@link RowGroupPruning#prunesAhead}).
   */
  private PageSelection planEarly(int i) throws IOException {
    RowGroupRead read = reads.get(i);
    ScanContext c = RowGroupPipeline.contextOf(context, read);
    Boolean pruned = RowGroupPruning.prunesAhead(c, read.metadata(), read.path(), read.rowGroup(), read.filter());
    if (pruned == null) {
      return LEFT_FOR_ITS_TURN;
    }
    return pruned ? PageSelection.none()
        : PageSelection.plan(c, read);
  }

  /**
   * Starts planning the selections of the filtered reads from {@code first} on, up to
   * {@link RowGroupPipeline#MAX_PREFETCH_DEPTH} reads past the current one, on the scan pool (with
   * async reads only): each is a few small reads, which on remote storage cost a round trip each.
   */
  void planAhead(int first, int current) {
    if (!context.options().io().asyncPageReads() || context.scanPool() == null) {
      return;
    }
    int last = Math.min(reads.size(), Math.max(current, 0) + 1 + RowGroupPipeline.MAX_PREFETCH_DEPTH);
    for (int i = first; i < last; i++) {
      RowGroupRead read = reads.get(i);
      if (planning[i] != null || planned[i] || (read.filter() == null && !read.limited()) || read.rowGroup() < 0
          || !read.readsData()) {
        continue;
      }
      Planning p = new Planning(i);
      planning[i] = p;
      waiting.add(p);
    }
    startPlannings();
  }

  /**
   * Hands waiting plannings to the scan pool while fewer than {@link RowGroupPipeline#PLANNING_WINDOW}
   * run; called by the consumer and by each planning as it ends (thread-safe). Plannings the pool
   * refuses (it is shutting down) are left for the consumer to run at their read's turn.
   */
  private void startPlannings() {
    while (true) {
      int running = plannings.get();
      if (running >= RowGroupPipeline.PLANNING_WINDOW || waiting.isEmpty()) {
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

  /** Keeps every planning not started from starting and waits for running ones. */
  void cancel() {
    for (Planning p : planning) {
      if (p != null) {
        p.cancel();
      }
    }
  }
}
