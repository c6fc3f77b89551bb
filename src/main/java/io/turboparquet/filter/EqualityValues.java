package io.turboparquet.filter;

import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.PhysicalType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * The stored forms of the values an equality leaf ({@code =} or {@code IN}) asks for: each value's
 * PLAIN encoding, the bytes a dictionary entry holds and a bloom filter hashes (BYTE_ARRAY without its
 * length prefix, as the format's bloom filter hashes it). A dictionary or bloom filter that holds none
 * of them rules the leaf out.
 *
 * <p>Equality is the filter's ({@link ValueOrder}): numbers compare exactly, so a literal that no value
 * of the column's type equals (3.5 for an INT32, 0.1 for a FLOAT, a number beyond the type's range, a
 * string of the wrong length for a FIXED_LEN_BYTE_ARRAY) has no stored form and adds nothing; 0 and -0
 * are equal, so a floating zero adds both zeros. Where the stored forms cannot be listed the answer is
 * null and nothing may be concluded: columns without an order (see {@link ValueOrder#of}), BOOLEAN,
 * DECIMAL stored as BYTE_ARRAY (a value has many two's complement spellings), and NaN literals.
 */
public final class EqualityValues {
  private EqualityValues() {}

  /**
   * The PLAIN encodings of the values {@code leaf} matches, or null when they cannot be listed (or the
   * leaf is no equality).
   */
  public static List<byte[]> plainEncoded(Filter.Leaf leaf) {
    boolean equality = leaf.kind() == Filter.Kind.IN
        || leaf.kind() == Filter.Kind.COMPARE && leaf.op() == Predicate.Op.EQ;
    ValueOrder order = leaf.order();
    if (!equality || order == null) {
      return null;
    }
    ColumnDescriptor column = leaf.column();
    List<byte[]> out = new ArrayList<>();
    for (Object v : leaf.values()) {
      if (order instanceof ValueOrder.Floating) {
        double d = (Double) v;
        if (Double.isNaN(d)) {
          return null;
        }
        floating(column.physicalType(), d, out);
      } else if (order instanceof ValueOrder.Numeric numeric) {
        switch (column.physicalType()) {
          case INT32 -> integer((BigDecimal) v, numeric.scale(), 4, true, out);
          case INT64 -> integer((BigDecimal) v, numeric.scale(), 8, true, out);
          case FIXED_LEN_BYTE_ARRAY -> integer((BigDecimal) v, numeric.scale(), column.typeLength(), false, out);
          default -> {
            return null; // BOOLEAN, DECIMAL as BYTE_ARRAY
          }
        }
      } else {
        byte[] b = (byte[]) v;
        if (column.physicalType() == PhysicalType.BYTE_ARRAY || b.length == column.typeLength()) {
          out.add(b);
        }
      }
    }
    return out;
  }

  private static void floating(PhysicalType type, double d, List<byte[]> out) {
    if (type == PhysicalType.FLOAT) {
      float f = (float) d;
      if ((double) f != d) {
        return; // no FLOAT equals it
      }
      out.add(littleEndian(Float.floatToRawIntBits(f), 4));
      if (f == 0) {
        out.add(littleEndian(Float.floatToRawIntBits(-f), 4));
      }
    } else {
      out.add(littleEndian(Double.doubleToRawLongBits(d), 8));
      if (d == 0) {
        out.add(littleEndian(Double.doubleToRawLongBits(-d), 8));
      }
    }
  }

  /**
   * {@code v} as the unscaled integer of {@code scale}, in {@code width} bytes: little-endian (INT32,
   * INT64) or big-endian two's complement (FIXED_LEN_BYTE_ARRAY); nothing when no such integer equals it.
   */
  private static void integer(BigDecimal v, int scale, int width, boolean littleEndian, List<byte[]> out) {
    BigDecimal shifted = v.movePointRight(scale).stripTrailingZeros();
    // Whole numbers only, of at most the digits width bytes hold (checked before any BigInteger is made
    // of a literal like 1e999999999).
    long digits = (long) shifted.precision() - shifted.scale();
    if (shifted.scale() > 0 || digits > (long) width * 8 * 3 / 10 + 2) {
      return;
    }
    BigInteger unscaled = shifted.toBigIntegerExact();
    if (unscaled.bitLength() >= width * 8) {
      return; // does not fit the type
    }
    if (littleEndian) {
      out.add(littleEndian(unscaled.longValue(), width));
      return;
    }
    byte[] minimal = unscaled.toByteArray();
    byte[] b = new byte[width];
    byte pad = (byte) (unscaled.signum() < 0 ? 0xff : 0);
    int fill = width - minimal.length;
    for (int i = 0; i < width; i++) {
      b[i] = i < fill ? pad : minimal[i - fill];
    }
    out.add(b);
  }

  private static byte[] littleEndian(long v, int width) {
    byte[] b = new byte[width];
    for (int i = 0; i < width; i++) {
      b[i] = (byte) (v >>> (8 * i));
    }
    return b;
  }
}
