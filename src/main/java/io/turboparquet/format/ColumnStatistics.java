package io.turboparquet.format;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * A column chunk's Thrift {@code Statistics} as stored, bytes uninterpreted (their order depends
 * on the column's type and the writer, see parquet.thrift). Absent values are null / -1.
 *
 * <p>A footer holds one per column chunk, so all of it lives in one byte array (the object is a
 * header and a reference): a byte of which fields are present, a byte for the two exactness
 * flags and whether {@code nan_count} is present, the counts as unsigned varints (null, distinct, NaN), then each bound present as a varint length and its bytes,
 * in the order max_value, min_value, max, min. A deprecated bound equal to the new one is stored
 * once (a flag says so): writers store a chunk's bounds twice. The bound accessors copy.
 */
public final class ColumnStatistics {
  private static final int NULL_COUNT = 1;
  private static final int DISTINCT_COUNT = 2;
  private static final int MAX_VALUE = 4;
  private static final int MIN_VALUE = 8;
  private static final int MAX = 16;
  private static final int MIN = 32;
  private static final int MAX_IS_MAX_VALUE = 64;
  private static final int MIN_IS_MIN_VALUE = 128;
  private static final int NAN_COUNT = 16; // in the second byte
  private static final long ABSENT = -1;

  private final byte[] packed;

  private ColumnStatistics(byte[] packed) {
    this.packed = packed;
  }

  /** Where a bound lies in {@code src}: {@code offset << 32 | length}, for {@link #of}. */
  public static long span(int offset, int length) {
    return (long) offset << 32 | length;
  }

  /**
   * Statistics whose bounds are spans of {@code src} ({@link #span}, or -1 when absent); counts
   * are -1 when absent, else non-negative; the exactness flags null when unset. Spans must lie in
   * {@code src} (the decoder has checked them).
   */
  public static ColumnStatistics of(byte[] src, long max, long min, long nullCount, long distinctCount, long maxValue,
      long minValue, Boolean maxValueExact, Boolean minValueExact, long nanCount) {
    if (nullCount < ABSENT || distinctCount < ABSENT || nanCount < ABSENT) {
      throw new IllegalArgumentException("negative count " + nullCount + " / " + distinctCount + " / " + nanCount);
    }
    boolean maxShared = maxValue != ABSENT && max != ABSENT && same(src, max, maxValue);
    boolean minShared = minValue != ABSENT && min != ABSENT && same(src, min, minValue);
    if (maxShared) {
      max = ABSENT;
    }
    if (minShared) {
      min = ABSENT;
    }
    int flags = (nullCount != ABSENT ? NULL_COUNT : 0) | (distinctCount != ABSENT ? DISTINCT_COUNT : 0)
        | (maxValue != ABSENT ? MAX_VALUE : 0) | (minValue != ABSENT ? MIN_VALUE : 0)
        | (max != ABSENT || maxShared ? MAX : 0) | (min != ABSENT || minShared ? MIN : 0)
        | (maxShared ? MAX_IS_MAX_VALUE : 0) | (minShared ? MIN_IS_MIN_VALUE : 0);
    byte[] out = new byte[2 + varintSize(nullCount) + varintSize(distinctCount) + varintSize(nanCount)
        + storedSize(maxValue)
        + storedSize(minValue) + storedSize(max) + storedSize(min)];
    out[0] = (byte) flags;
    out[1] = (byte) ((maxValueExact == null ? 0 : maxValueExact ? 3 : 1) | (minValueExact == null ? 0 : minValueExact
        ? 12 : 4) | (nanCount != ABSENT ? NAN_COUNT : 0));
    int p = putVarint(out, 2, nullCount);
    p = putVarint(out, p, distinctCount);
    p = putVarint(out, p, nanCount);
    p = putBound(out, p, src, maxValue);
    p = putBound(out, p, src, minValue);
    p = putBound(out, p, src, max);
    putBound(out, p, src, min);
    return new ColumnStatistics(out);
  }

  /** Deprecated {@code max} (signed byte order by old writers), or null. */
  public byte[] max() {
    return (packed[0] & MAX_IS_MAX_VALUE) != 0 ? maxValue() : bound(MAX);
  }

  /** Deprecated {@code min}, or null. */
  public byte[] min() {
    return (packed[0] & MIN_IS_MIN_VALUE) != 0 ? minValue() : bound(MIN);
  }

  /** {@code max_value}, or null. */
  public byte[] maxValue() {
    return bound(MAX_VALUE);
  }

  /** {@code min_value}, or null. */
  public byte[] minValue() {
    return bound(MIN_VALUE);
  }

  /** {@code null_count}, or -1 when unset. */
  public long nullCount() {
    return (packed[0] & NULL_COUNT) != 0 ? varint(2) : ABSENT;
  }

  /** {@code distinct_count}, or -1 when unset. */
  public long distinctCount() {
    return (packed[0] & DISTINCT_COUNT) != 0 ? varint(skipVarints(2, packed[0] & NULL_COUNT)) : ABSENT;
  }

  /** {@code nan_count} (FLOAT, DOUBLE, FLOAT16), or -1 when unset: then NaN may be present. */
  public long nanCount() {
    int before = Integer.bitCount(packed[0] & (NULL_COUNT | DISTINCT_COUNT));
    return (packed[1] & NAN_COUNT) != 0 ? varint(skipVarints(2, before)) : ABSENT;
  }

  public boolean hasNullCount() {
    return (packed[0] & NULL_COUNT) != 0;
  }

  public boolean hasDistinctCount() {
    return (packed[0] & DISTINCT_COUNT) != 0;
  }

  /** {@code is_max_value_exact}, or null when unset. */
  public Boolean maxValueExact() {
    return (packed[1] & 1) == 0 ? null : (packed[1] & 2) != 0;
  }

  /** {@code is_min_value_exact}, or null when unset. */
  public Boolean minValueExact() {
    return (packed[1] & 4) == 0 ? null : (packed[1] & 8) != 0;
  }

  /** Heap bytes held (object and array, 8-byte aligned), for estimates of a footer's size. */
  public long heapBytes() {
    return 16 + (16 + packed.length + 7 & ~7);
  }

  /** The bound whose presence flag is {@code flag} (stored ones in flag order), or null. */
  private byte[] bound(int flag) {
    int flags = packed[0] & 0xff;
    if ((flags & flag) == 0) {
      return null;
    }
    int counts = Integer.bitCount(flags & (NULL_COUNT | DISTINCT_COUNT)) + ((packed[1] & NAN_COUNT) != 0 ? 1 : 0);
    int p = skipVarints(2, counts);
    int stored = flags & ~(flags >>> 2 & (MAX | MIN)); // a shared deprecated bound is not stored
    for (int f = MAX_VALUE; f < flag; f <<= 1) {
      if ((stored & f) != 0) {
        int n = (int) varint(p);
        p = skipVarints(p, 1) + n;
      }
    }
    int n = (int) varint(p);
    p = skipVarints(p, 1);
    return Arrays.copyOfRange(packed, p, p + n);
  }

  private long varint(int p) {
    long v = 0;
    for (int shift = 0; ; shift += 7) {
      byte b = packed[p++];
      v |= (long) (b & 0x7f) << shift;
      if (b >= 0) {
        return v;
      }
    }
  }

  private int skipVarints(int p, int count) {
    for (int i = 0; i < count; i++) {
      while (packed[p++] < 0) {
        // continuation bytes
      }
    }
    return p;
  }

  private static int putVarint(byte[] out, int p, long v) {
    if (v == ABSENT) {
      return p;
    }
    while ((v & ~0x7fL) != 0) {
      out[p++] = (byte) (v & 0x7f | 0x80);
      v >>>= 7;
    }
    out[p++] = (byte) v;
    return p;
  }

  private static int putBound(byte[] out, int p, byte[] src, long span) {
    if (span == ABSENT) {
      return p;
    }
    int n = length(span);
    p = putVarint(out, p, n);
    System.arraycopy(src, offset(span), out, p, n);
    return p + n;
  }

  private static int storedSize(long span) {
    return span == ABSENT ? 0 : varintSize(length(span)) + length(span);
  }

  private static int varintSize(long v) {
    return v == ABSENT ? 0 : (63 - Long.numberOfLeadingZeros(v | 1)) / 7 + 1;
  }

  private static int offset(long span) {
    return (int) (span >>> 32);
  }

  private static int length(long span) {
    return (int) span;
  }

  private static boolean same(byte[] src, long a, long b) {
    return Arrays.equals(src, offset(a), offset(a) + length(a), src, offset(b), offset(b) + length(b));
  }

  // Packing is canonical (a deprecated bound is shared exactly when it is equal): equal statistics, equal arrays.
  @Override
  public boolean equals(Object o) {
    return o instanceof ColumnStatistics s && Arrays.equals(packed, s.packed);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(packed);
  }

  @Override
  public String toString() {
    return "ColumnStatistics[min=" + hex(min()) + ", max=" + hex(max()) + ", nullCount=" + nullCount()
        + ", distinctCount=" + distinctCount() + ", minValue=" + hex(minValue()) + ", maxValue=" + hex(maxValue())
        + ", exact=" + minValueExact() + "/" + maxValueExact() + ", nanCount=" + nanCount() + "]";
  }

  private static String hex(byte[] b) {
    return b == null ? "null" : HexFormat.of().formatHex(b);
  }
}
