package io.turboparquet.filter;

import java.util.Arrays;

/**
 * Rows of one row group as sorted, disjoint, non-adjacent half-open ranges {@code [from, to)}.
 * Immutable.
 */
public final class RowRanges {
  private static final RowRanges EMPTY = new RowRanges(new long[0], 0);
  private final long[] bounds; // from0, to0, from1, to1, ...
  private final int count;

  private RowRanges(long[] bounds, int count) {
    this.bounds = bounds;
    this.count = count;
  }

  public static RowRanges empty() {
    return EMPTY;
  }

  /** Every row of a row group of {@code rows} rows. */
  public static RowRanges all(long rows) {
    return rows <= 0 ? EMPTY : new RowRanges(new long[] {0, rows}, 1);
  }

  /** Collects ranges given in ascending order of start (they may touch or overlap). */
  public static final class Builder {
    private long[] b = new long[8];
    private int n;

    public Builder add(long from, long to) {
      if (to <= from) {
        return this;
      }
      if (n > 0 && from < b[2 * n - 2]) {
        throw new IllegalArgumentException("ranges out of order: " + from + " after " + b[2 * n - 2]);
      }
      if (n > 0 && from <= b[2 * n - 1]) {
        b[2 * n - 1] = Math.max(b[2 * n - 1], to);
        return this;
      }
      if (2 * n + 2 > b.length) {
        b = Arrays.copyOf(b, b.length * 2);
      }
      b[2 * n] = from;
      b[2 * n + 1] = to;
      n++;
      return this;
    }

    public RowRanges build() {
      return n == 0 ? EMPTY : new RowRanges(Arrays.copyOf(b, 2 * n), n);
    }
  }

  public int count() {
    return count;
  }

  public long from(int i) {
    return bounds[2 * i];
  }

  public long to(int i) {
    return bounds[2 * i + 1];
  }

  public boolean isEmpty() {
    return count == 0;
  }

  /** Rows in all ranges. */
  public long rowCount() {
    long sum = 0;
    for (int i = 0; i < count; i++) {
      sum += to(i) - from(i);
    }
    return sum;
  }

  /** Whether any row of {@code [from, to)} is in these ranges. */
  public boolean overlaps(long from, long to) {
    // the first range ending after from
    int lo = 0;
    int hi = count;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (to(mid) <= from) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo < count && from(lo) < to;
  }

  public RowRanges union(RowRanges o) {
    Builder out = new Builder();
    int i = 0;
    int j = 0;
    while (i < count || j < o.count) {
      if (j >= o.count || i < count && from(i) <= o.from(j)) {
        out.add(from(i), to(i));
        i++;
      } else {
        out.add(o.from(j), o.to(j));
        j++;
      }
    }
    return out.build();
  }

  public RowRanges intersect(RowRanges o) {
    Builder out = new Builder();
    int i = 0;
    int j = 0;
    while (i < count && j < o.count) {
      long from = Math.max(from(i), o.from(j));
      long to = Math.min(to(i), o.to(j));
      out.add(from, to);
      if (to(i) < o.to(j)) {
        i++;
      } else {
        j++;
      }
    }
    return out.build();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RowRanges r && count == r.count && Arrays.equals(bounds, 0, 2 * count, r.bounds, 0, 2 * count);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(Arrays.copyOf(bounds, 2 * count));
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < count; i++) {
      sb.append(i == 0 ? "" : ", ").append('[').append(from(i)).append(", ").append(to(i)).append(')');
    }
    return sb.append(']').toString();
  }
}
