package io.turboparquet.filter;

import io.turboparquet.decode.HalfFloat;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.PhysicalType;
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
    PhysicalType type = column.physicalType();
    if (type == PhysicalType.BOOLEAN || type == PhysicalType.BYTE_ARRAY && !(order instanceof ValueOrder.Bytes)) {
      return null; // BOOLEAN, DECIMAL as BYTE_ARRAY
    }
    List<byte[]> out = new ArrayList<>();
    for (Object v : leaf.values()) {
      ValueOrder.Stored stored = order.stored(v);
      if (stored instanceof ValueOrder.FloatingLiteral f) {
        if (Double.isNaN(f.value())) {
          return null;
        }
        if (f.isStoredValue()) {
          floating(f, out);
        }
      } else if (stored instanceof ValueOrder.IntegerLiteral i) {
        if (i.isStoredValue()) {
          out.add(littleEndian(i.floor(), i.width()));
        }
      } else if (stored instanceof ValueOrder.TwosComplementLiteral t) {
        if (t.isStoredValue()) {
          out.add(t.floor()); // FIXED_LEN_BYTE_ARRAY: of the column's width
        }
      } else if (stored instanceof ValueOrder.BytesLiteral b) {
        if (type == PhysicalType.BYTE_ARRAY || b.value().length == column.typeLength()) {
          out.add(b.value());
        }
      } else {
        return null;
      }
    }
    return out;
  }

  /** A double that a value of the column's type equals ({@link ValueOrder.FloatingLiteral#isStoredValue}), and for a zero the other zero. */
  private static void floating(ValueOrder.FloatingLiteral f, List<byte[]> out) {
    double d = f.value();
    switch (f.width()) {
      case 2 -> {
        short h = HalfFloat.nearest(d);
        out.add(littleEndian(h, 2));
        if (d == 0) {
          out.add(littleEndian(h ^ 0x8000, 2));
        }
      }
      case 4 -> {
        float x = (float) d;
        out.add(littleEndian(Float.floatToRawIntBits(x), 4));
        if (x == 0) {
          out.add(littleEndian(Float.floatToRawIntBits(-x), 4));
        }
      }
      default -> {
        out.add(littleEndian(Double.doubleToRawLongBits(d), 8));
        if (d == 0) {
          out.add(littleEndian(Double.doubleToRawLongBits(-d), 8));
        }
      }
    }
  }

  private static byte[] littleEndian(long v, int width) {
    byte[] b = new byte[width];
    for (int i = 0; i < width; i++) {
      b[i] = (byte) (v >>> (8 * i));
    }
    return b;
  }
}
