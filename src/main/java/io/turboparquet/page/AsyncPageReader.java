package io.turboparquet.page;

import io.turboparquet.io.Failures;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Reads a chunk's pages ahead of the consumer on the scan pool and hands them over through a
 * bounded queue.
 *
 * <p>At most one read task runs per chunk. It reads pages while the queue has room and then ends,
 * instead of blocking a pool thread on a full queue; the consumer submits a new task when it takes
 * a page and none is running. Pages beyond the first queued one also need room in the scan's
 * {@link PrefetchBudget}. Errors travel through the queue and are thrown to the consumer.
 * {@link #close()} stops the task and releases every page still queued.
 */
public final class AsyncPageReader implements PageSource {
  private final PageSource reader;
  private final ExecutorService scanPool;
  private final ArrayBlockingQueue<ReadStatus> queue;
  private final int depth;
  private final PrefetchBudget budget;
  private final AtomicBoolean running = new AtomicBoolean();
  private final Object lock = new Object();
  private volatile boolean closed;
  private volatile boolean producerDone;
  private boolean consumerDone;
  /** Claimed by the task when it starts, or by close() to stop a task that has not started. */
  private AtomicBoolean claim;

  public AsyncPageReader(PageSource reader, ExecutorService scanPool, int queueDepth, PrefetchBudget budget) {
    if (queueDepth < 1) {
      throw new IllegalArgumentException("queue depth must be at least 1: " + queueDepth);
    }
    this.reader = reader;
    this.scanPool = scanPool;
    this.depth = queueDepth;
    this.budget = budget;
    // One extra slot so the end marker or an error always fits.
    this.queue = new ArrayBlockingQueue<>(queueDepth + 1);
    startTask();
  }

  @Override
  public Page next() throws IOException {
    if (consumerDone) {
      return null;
    }
    // The consumer (scan.PageCursor) times this call as page-reader wait.
    ReadStatus status;
    try {
      status = queue.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted waiting for a page");
    }
    if (status.page() == null) {
      consumerDone = true;
      if (status.error() != null) {
        Failures.rethrow(status.error());
      }
      return null;
    }
    budget.remove(status.page().body().capacity());
    startTask();
    return status.page();
  }

  private void startTask() {
    if (!producerDone && !closed && running.compareAndSet(false, true)) {
      synchronized (lock) {
        AtomicBoolean taskClaim = new AtomicBoolean();
        claim = taskClaim;
        try {
          scanPool.execute(() -> {
            if (taskClaim.compareAndSet(false, true)) {
              readAhead();
            }
          });
        } catch (RejectedExecutionException e) {
          running.set(false);
          queue.offer(ReadStatus.failed(new IOException("the scan pool refused a page read", e)));
          producerDone = true;
        }
      }
    }
  }

  /** The read task: fills the queue, then ends; re-checks for room to avoid a lost wake-up. */
  private void readAhead() {
    while (true) {
      while (!closed && !producerDone && hasRoom()) {
        ReadStatus status;
        try {
          Page page = reader.next();
          status = page == null ? ReadStatus.END : new ReadStatus(page, null);
        } catch (Throwable t) {
          status = ReadStatus.failed(t);
        }
        if (status.page() == null) {
          producerDone = true;
        } else {
          budget.add(status.page().body().capacity());
        }
        queue.add(status);
      }
      // Under the lock, so close() cannot slip between "not running" and a restart.
      synchronized (lock) {
        running.set(false);
        if (closed || producerDone || !hasRoom() || !running.compareAndSet(false, true)) {
          lock.notifyAll();
          return;
        }
      }
    }
  }

  /** Room for one more page: always when the consumer has none queued, else within depth and budget. */
  private boolean hasRoom() {
    int queued = queue.size();
    return queued == 0 || (queued < depth && budget.hasRoom());
  }

  @Override
  public void close() {
    boolean interrupted = false;
    synchronized (lock) {
      closed = true;
      if (claim != null && claim.compareAndSet(false, true)) {
        running.set(false); // the task had not started and now never will
      }
      // A running task ends after the page it is reading; wait for it, even when interrupted,
      // since it holds buffers that are released below.
      while (running.get()) {
        try {
          lock.wait(10);
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    drain();
    reader.close();
  }

  private void drain() {
    ReadStatus s;
    while ((s = queue.poll()) != null) {
      if (s.page() != null) {
        budget.remove(s.page().body().capacity());
        s.page().release();
      }
    }
  }
}
