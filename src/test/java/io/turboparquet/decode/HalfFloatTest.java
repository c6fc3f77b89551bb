package io.turboparquet.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * {@link HalfFloat#toFloatBits} (FLOAT16, shared by the Drill plugin and the CLI) on all 65,536
 * half-precision values, against their defining formula.
 */
class HalfFloatTest {
  @Test
  void everyHalfBecomesTheFloatOfTheSameValue() {
    for (int bits = 0; bits < 1 << 16; bits++) {
      int sign = bits >>> 15;
      int exponent = (bits >>> 10) & 0x1f;
      int mantissa = bits & 0x3ff;
      int expected;
      if (exponent == 0x1f) {
        expected = sign << 31 | 0x7f800000 | mantissa << 13; // infinity, or NaN with its payload kept
      } else {
        // (-1)^s * 2^(e-15) * (1 + m/1024), or 2^-14 * (m/1024) when subnormal: exact in a float.
        double magnitude = exponent == 0 ? Math.scalb((double) mantissa, -24)
            : Math.scalb((double) (1024 + mantissa), exponent - 25);
        expected = Float.floatToRawIntBits((float) (sign == 1 ? -magnitude : magnitude));
      }
      assertEquals(expected, HalfFloat.toFloatBits((short) bits), "half 0x" + Integer.toHexString(bits));
    }
  }
}
