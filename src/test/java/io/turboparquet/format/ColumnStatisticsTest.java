package io.turboparquet.format;

import static io.turboparquet.format.ColumnStatistics.span;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The packed statistics give back every field as it was given, whatever is present or shared. */
class ColumnStatisticsTest {
  private static final byte[] SRC = {9, 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 0, 0, 0, 0};

  @Test
  void everyFieldComesBack() {
    // max = 1 2 3 4, min = 5 6 7 8, max_value = 1 2 3 4 (equal to max), min_value = 0 0 0 0 (not equal to min)
    ColumnStatistics s = ColumnStatistics.of(SRC, span(1, 4), span(5, 4), 3, 700, span(9, 4), span(13, 4),
        Boolean.TRUE, Boolean.FALSE, 200);
    assertArrayEquals(new byte[] {1, 2, 3, 4}, s.max());
    assertArrayEquals(new byte[] {5, 6, 7, 8}, s.min());
    assertArrayEquals(new byte[] {1, 2, 3, 4}, s.maxValue());
    assertArrayEquals(new byte[] {0, 0, 0, 0}, s.minValue());
    assertTrue(s.hasNullCount());
    assertEquals(3, s.nullCount());
    assertTrue(s.hasDistinctCount());
    assertEquals(700, s.distinctCount());
    assertEquals(Boolean.TRUE, s.maxValueExact());
    assertEquals(Boolean.FALSE, s.minValueExact());
    assertEquals(200, s.nanCount());
  }

  @Test
  void nanCountSitsBetweenTheOtherCountsAndTheBounds() {
    for (long nulls : new long[] {-1, 0, 1 << 20}) {
      for (long distinct : new long[] {-1, 5}) {
        ColumnStatistics s = ColumnStatistics.of(SRC, -1, -1, nulls, distinct, span(1, 4), span(5, 4), null, null, 0);
        assertEquals(0, s.nanCount());
        assertEquals(nulls, s.nullCount());
        assertEquals(distinct, s.distinctCount());
        assertArrayEquals(new byte[] {1, 2, 3, 4}, s.maxValue());
        assertArrayEquals(new byte[] {5, 6, 7, 8}, s.minValue());
      }
    }
  }

  @Test
  void absentFieldsAreNullOrMinusOne() {
    ColumnStatistics s = ColumnStatistics.of(SRC, -1, -1, -1, -1, -1, -1, null, null, -1);
    assertNull(s.max());
    assertNull(s.min());
    assertNull(s.maxValue());
    assertNull(s.minValue());
    assertFalse(s.hasNullCount());
    assertEquals(-1, s.nullCount());
    assertFalse(s.hasDistinctCount());
    assertEquals(-1, s.distinctCount());
    assertNull(s.maxValueExact());
    assertNull(s.minValueExact());
    assertEquals(-1, s.nanCount());
  }

  @Test
  void onlyTheNewBoundsOrOnlyTheDeprecatedOnes() {
    ColumnStatistics fresh = ColumnStatistics.of(SRC, -1, -1, 0, -1, span(1, 4), span(5, 4), null, Boolean.TRUE, -1);
    assertNull(fresh.max());
    assertNull(fresh.min());
    assertArrayEquals(new byte[] {1, 2, 3, 4}, fresh.maxValue());
    assertArrayEquals(new byte[] {5, 6, 7, 8}, fresh.minValue());
    assertEquals(0, fresh.nullCount());
    assertEquals(-1, fresh.distinctCount());
    assertNull(fresh.maxValueExact());
    assertEquals(Boolean.TRUE, fresh.minValueExact());

    ColumnStatistics old = ColumnStatistics.of(SRC, span(5, 4), span(1, 4), -1, 2, -1, -1, null, null, -1);
    assertArrayEquals(new byte[] {5, 6, 7, 8}, old.max());
    assertArrayEquals(new byte[] {1, 2, 3, 4}, old.min());
    assertNull(old.maxValue());
    assertNull(old.minValue());
    assertEquals(-1, old.nullCount());
    assertEquals(2, old.distinctCount());
  }

  @Test
  void equalDeprecatedBoundsAreStoredOnce() {
    ColumnStatistics shared = ColumnStatistics.of(SRC, span(1, 4), span(13, 4), 0, -1, span(9, 4), span(13, 4),
        null, null, -1);
    ColumnStatistics apart = ColumnStatistics.of(SRC, span(5, 4), span(1, 4), 0, -1, span(9, 4), span(13, 4),
        null, null, -1);
    assertArrayEquals(shared.maxValue(), shared.max());
    assertArrayEquals(shared.minValue(), shared.min());
    assertArrayEquals(new byte[] {5, 6, 7, 8}, apart.max());
    assertArrayEquals(new byte[] {1, 2, 3, 4}, apart.min());
    assertEquals(16 + 32, shared.heapBytes()); // 13 bytes packed: 2 + 1 + 5 + 5
    assertEquals(16 + 40, apart.heapBytes()); // 23 bytes packed
  }

  @Test
  void emptyAndLongBoundsAndLargeCounts() {
    byte[] src = new byte[400];
    Arrays.fill(src, (byte) 0x7a);
    src[399] = 1;
    long big = 1L << 40;
    ColumnStatistics s = ColumnStatistics.of(src, -1, -1, big, Long.MAX_VALUE, span(100, 300), span(0, 0), null,
        null, -1);
    byte[] max = s.maxValue();
    assertEquals(300, max.length);
    assertArrayEquals(Arrays.copyOfRange(src, 100, 400), max);
    assertArrayEquals(new byte[0], s.minValue());
    assertEquals(big, s.nullCount());
    assertEquals(Long.MAX_VALUE, s.distinctCount());
  }

  @Test
  void equalByValueWhereverTheBytesCameFrom() {
    ColumnStatistics a = ColumnStatistics.of(SRC, -1, -1, 0, -1, span(1, 4), span(13, 4), null, null, -1);
    ColumnStatistics b = ColumnStatistics.of(SRC, -1, -1, 0, -1, span(9, 4), span(13, 4), null, null, -1);
    ColumnStatistics c = ColumnStatistics.of(SRC, -1, -1, 1, -1, span(9, 4), span(13, 4), null, null, -1);
    assertEquals(a, b);
    assertEquals(a.hashCode(), b.hashCode());
    assertNotEquals(a, c);
    assertEquals("ColumnStatistics[min=null, max=null, nullCount=0, distinctCount=-1, minValue=00000000, "
        + "maxValue=01020304, exact=null/null, nanCount=-1]", a.toString());
  }
}
