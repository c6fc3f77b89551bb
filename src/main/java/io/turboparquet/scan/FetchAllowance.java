package io.turboparquet.scan;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Bytes of coalesced row-group reads ({@link RowGroupFetch}) that every scan sharing this allowance
 * may hold at once: inside Drill, all scans of a drillbit. Each scan's {@code memoryBudget} bounds
 * that scan alone, so N concurrent scans could hold N budgets; this bounds their sum. A read that
 * finds no room is not lost: the row group is read chunk by chunk (buffers of {@code bufferSize}),
 * and reads ahead of their turn are not started.
 */
public final class FetchAllowance {
  private static final FetchAllowance UNLIMITED = new FetchAllowance(Long.MAX_VALUE);

  private final long limit;
  private final AtomicLong held = new AtomicLong();

  public FetchAllowance(long limit) {
    if (limit < 0) {
      throw new IllegalArgumentException("negative allowance " + limit);
    }
    this.limit = limit;
  }

  /** An allowance that never says no: one scan on its own (the CLI, tests). */
  public static FetchAllowance unlimited() {
    return UNLIMITED;
  }

  /** Takes {@code bytes} if they fit beside what is held; false (and nothing taken) otherwise. */
  boolean tryReserve(long bytes) {
    if (limit == Long.MAX_VALUE) {
      return true;
    }
    long now;
    do {
      now = held.get();
      if (now + bytes > limit) {
        return false;
      }
    } while (!held.compareAndSet(now, now + bytes));
    return true;
  }

  void release(long bytes) {
    if (limit != Long.MAX_VALUE) {
      held.addAndGet(-bytes);
    }
  }

  /** Bytes reserved right now. */
  public long held() {
    return held.get();
  }

  public long limit() {
    return limit;
  }
}
