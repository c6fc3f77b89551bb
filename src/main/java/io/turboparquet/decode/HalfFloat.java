package io.turboparquet.decode;

/**
 * IEEE 754 half precision (the FLOAT16 logical type: a FIXED_LEN_BYTE_ARRAY(2), little-endian) as
 * single precision, and back: the one conversion the Drill plugin, the CLI and filters share.
 */
public final class HalfFloat {
  private HalfFloat() {}

  /**
   * The float bits of half-precision {@code h}: every half is a float exactly (subnormals become
   * normal floats; infinities, signed zeros and NaN payloads are kept).
   */
  public static int toFloatBits(short h) {
    int sign = (h & 0x8000) << 16;
    int exponent = (h >>> 10) & 0x1f;
    int mantissa = h & 0x3ff;
    if (exponent == 0x1f) { // infinity or NaN
      return sign | 0x7f800000 | mantissa << 13;
    }
    if (exponent == 0) {
      if (mantissa == 0) {
        return sign;
      }
      int shift = Integer.numberOfLeadingZeros(mantissa) - 21; // normalise: the leading 1 to bit 10
      return sign | (113 - shift) << 23 | (mantissa << shift & 0x3ff) << 13;
    }
    return sign | (exponent + 112) << 23 | mantissa << 13;
  }

  /** The value of half-precision {@code h} as a float. */
  public static float toFloat(short h) {
    return Float.intBitsToFloat(toFloatBits(h));
  }

  /** The half-precision value nearest {@code d} (ties to even), as its 16 bits; NaN is the quiet NaN. */
  public static short nearest(double d) {
    int sign = Double.doubleToRawLongBits(d) < 0 ? 0x8000 : 0;
    double a = Math.abs(d);
    if (Double.isNaN(d)) {
      return (short) 0x7E00;
    }
    if (a >= 65520) { // rounds beyond the largest half, 65504
      return (short) (sign | 0x7C00);
    }
    if (a < 0x1p-14) { // subnormal or zero: multiples of 2^-24
      return (short) (sign | (int) Math.rint(a * 0x1p24));
    }
    int exponent = Math.getExponent(a);
    int m = (int) Math.rint(Math.scalb(a, 10 - exponent)); // 1024 .. 2048
    if (m == 2048) {
      m = 1024;
      exponent++;
    }
    return (short) (sign | (exponent + 15) << 10 | (m - 1024));
  }
}
