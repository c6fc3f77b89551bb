package io.turboparquet.scan;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Bytes that all scans sharing this allowance may hold beyond what they need to decode page by
 * page: row groups read whole (coalesced, {@link RowGroupFetch}), at their turn or ahead of it
 * ({@link RowGroupPipeline}'s prefetch), and batches decoded ahead ({@link RowGroupScanner#decodeAhead}).
 * Inside Drill all scans of a drillbit share one. A scan's own {@code memoryBudget} bounds one scan;
 * this bounds the sum, which with many concurrent queries set the drillbit's peak (each scan held
 * its row group and up to 32 MiB ahead). What finds no room is decoded at its turn, a row group
 * read chunk by chunk (a page at a time per column), so a scan alone keeps its full read-ahead and
 * scans under concurrency share it.
 */
public final class ReadAheadAllowance {
  private static final ReadAheadAllowance UNLIMITED = new ReadAheadAllowance(Long.MAX_VALUE);

  private final long limit;
  private final AtomicLong held = new AtomicLong();

  public ReadAheadAllowance(long limit) {
    if (limit < 0) {
      throw new IllegalArgumentException("negative read-ahead allowance " + limit);
    }
    this.limit = limit;
  }

  /** An allowance that never says no: a scan on its own (the CLI, tests). */
  public static ReadAheadAllowance unlimited() {
    return UNLIMITED;
  }

  /** Takes {@code bytes} if they fit beside what is held; false, taking nothing, otherwise. */
  boolean tryTake(long bytes) {
    return take(bytes, false);
  }

  /**
   * Takes {@code bytes} for a row group read whole at its turn: when they fit, or when nothing is
   * held at all, so that a scan alone reads its row groups whole whatever their size (its own
   * budget bounds them) and the sum stays within the limit plus one row group.
   */
  boolean tryTakeTurn(long bytes) {
    return take(bytes, true);
  }

  private boolean take(long bytes, boolean evenOverWhenEmpty) {
    if (limit == Long.MAX_VALUE) {
      return true;
    }
    long now;
    do {
      now = held.get();
      if (now + bytes > limit && !(evenOverWhenEmpty && now == 0)) {
        return false;
      }
    } while (!held.compareAndSet(now, now + bytes));
    return true;
  }

  /** Gives back bytes {@link #tryTake} or {@link #tryTakeTurn} took. */
  void giveBack(long bytes) {
    if (limit != Long.MAX_VALUE) {
      held.addAndGet(-bytes);
    }
  }

  /** Bytes taken now. */
  public long held() {
    return held.get();
  }

  public long limit() {
    return limit;
  }
}
