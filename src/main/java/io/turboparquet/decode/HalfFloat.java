package io.turboparquet.decode;

/**
 * IEEE 754 half precision (the FLOAT16 logical type: a FIXED_LEN_BYTE_ARRAY(2), little-endian) as
 * single precision: the one conversion the Drill plugin and the CLI share.
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
}
