package io.turboparquet.page;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Bytes of pages that the read-ahead tasks of one scan may hold queued at once. A task reads ahead
 * only while the budget has room, except when its queue is empty: then it reads the one page its
 * consumer needs, so a scan always progresses, whatever the number of columns.
 */
public final class PrefetchBudget {
  private final long limit;
  private final AtomicLong used = new AtomicLong();

  public PrefetchBudget(long limit) {
    if (limit < 0) {
      throw new IllegalArgumentException("negative budget " + limit);
    }
    this.limit = limit;
  }

  /** A budget that never says no. */
  public static PrefetchBudget unlimited() {
    return new PrefetchBudget(Long.MAX_VALUE);
  }

  public boolean hasRoom() {
    return used.get() < limit;
  }

  void add(long bytes) {
    used.addAndGet(bytes);
  }

  void remove(long bytes) {
    used.addAndGet(-bytes);
  }

  /** Bytes of queued pages right now. */
  public long used() {
    return used.get();
  }

  public long limit() {
    return limit;
  }
}
