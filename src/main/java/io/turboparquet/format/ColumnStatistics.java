package io.turboparquet.format;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * A column chunk's Thrift {@code Statistics} as stored, bytes uninterpreted (their order depends
 * on the column's type and the writer, see parquet.thrift). Absent values are null / -1. The arrays
 * are read-only: equal bounds share one array ({@code min} and {@code minValue} often do).
 *
 * @param max deprecated {@code max} (signed byte order by old writers)
 * @param min deprecated {@code min}
 * @param maxValue {@code max_value}
 * @param minValue {@code min_value}
 * @param maxValueExact {@code is_max_value_exact}, or null when unset
 * @param minValueExact {@code is_min_value_exact}, or null when unset
 */
public record ColumnStatistics(byte[] max, byte[] min, long nullCount, long distinctCount, byte[] maxValue,
    byte[] minValue, Boolean maxValueExact, Boolean minValueExact) {

  public boolean hasNullCount() {
    return nullCount >= 0;
  }

  public boolean hasDistinctCount() {
    return distinctCount >= 0;
  }

  // Records compare arrays by reference; statistics are compared by content.
  @Override
  public boolean equals(Object o) {
    return o instanceof ColumnStatistics s && Arrays.equals(max, s.max) && Arrays.equals(min, s.min)
        && nullCount == s.nullCount && distinctCount == s.distinctCount && Arrays.equals(maxValue, s.maxValue)
        && Arrays.equals(minValue, s.minValue) && java.util.Objects.equals(maxValueExact, s.maxValueExact)
        && java.util.Objects.equals(minValueExact, s.minValueExact);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(minValue) * 31 + Arrays.hashCode(maxValue) + Long.hashCode(nullCount);
  }

  @Override
  public String toString() {
    return "ColumnStatistics[min=" + hex(min) + ", max=" + hex(max) + ", nullCount=" + nullCount + ", distinctCount="
        + distinctCount + ", minValue=" + hex(minValue) + ", maxValue=" + hex(maxValue) + ", exact="
        + minValueExact + "/" + maxValueExact + "]";
  }

  private static String hex(byte[] b) {
    return b == null ? "null" : HexFormat.of().formatHex(b);
  }
}
