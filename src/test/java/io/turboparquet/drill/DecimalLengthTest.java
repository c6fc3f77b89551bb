package io.turboparquet.drill;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** VARDECIMAL's byte length for an unscaled long is BigInteger's minimal two's complement length. */
class DecimalLengthTest {
  @Test
  void matchesBigIntegerAtEveryByteBoundaryAndAtRandom() {
    long[] edges = {0, 1, -1, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768, -32769,
        Integer.MAX_VALUE, Integer.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE};
    for (long v : edges) {
      assertEquals(BigInteger.valueOf(v).toByteArray().length, DrillColumn.decimalLength(v), "value " + v);
    }
    for (int shift = 0; shift < 64; shift++) {
      for (long v : new long[] {1L << shift, (1L << shift) - 1, -(1L << shift), -(1L << shift) - 1}) {
        assertEquals(BigInteger.valueOf(v).toByteArray().length, DrillColumn.decimalLength(v), "value " + v);
      }
    }
    SplittableRandom r = new SplittableRandom(7);
    for (int i = 0; i < 100_000; i++) {
      long v = r.nextLong() >> r.nextInt(64);
      assertEquals(BigInteger.valueOf(v).toByteArray().length, DrillColumn.decimalLength(v), "value " + v);
    }
  }
}
