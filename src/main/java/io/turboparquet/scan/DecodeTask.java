package io.turboparquet.scan;

import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One column's decode of one batch, run by whichever thread claims it first: a decode-pool thread
 * or the scan's own thread, which helps instead of idling. Unlike a cancelled {@code FutureTask},
 * whose {@code get} returns while its code may still run, {@link #await} returns only when the
 * work has finished or was never started, so a scanner can free the buffers the work uses.
 */
final class DecodeTask implements Runnable {
  private final Callable<ColumnBatch> work;
  private final AtomicBoolean claimed = new AtomicBoolean();
  private final CountDownLatch done = new CountDownLatch(1);
  private ColumnBatch result;
  private Throwable failure;
  private boolean skipped;

  DecodeTask(Callable<ColumnBatch> work) {
    this.work = work;
  }

  /** Runs the work unless another thread has claimed it. */
  @Override
  public void run() {
    if (!claimed.compareAndSet(false, true)) {
      return;
    }
    try {
      result = work.call();
    } catch (Throwable t) {
      failure = t;
    } finally {
      done.countDown();
    }
  }

  /** Makes sure the work never starts, if no thread has started it yet. */
  void skip() {
    if (claimed.compareAndSet(false, true)) {
      skipped = true;
      done.countDown();
    }
  }

  /** Waits until the work has finished or was skipped. */
  void await() throws InterruptedException {
    done.await();
  }

  /** After {@link #await}: the batch, or null when the work failed or was skipped. */
  ColumnBatch result() {
    return result;
  }

  /** After {@link #await}: what the work threw, or null. */
  Throwable failure() {
    return skipped ? null : failure;
  }
}
