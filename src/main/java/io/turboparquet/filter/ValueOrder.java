package io.turboparquet.filter;

import io.turboparquet.decode.HalfFloat;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.PhysicalType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Arrays;

/**
 * The one place that knows, per column type, how a column's values are ordered and how a filter
 * literal compares with them. Every use of a filter asks it: page index bounds ({@link
 * PageIndexFilter}: {@link #decode} and {@link #compare}), dictionaries and bloom filters ({@link
 * EqualityValues}: {@link #stored}), and the row test of late materialization (scan.BatchFilter:
 * {@link #stored}, once per literal, then loops over the decoded values with primitives).
 *
 * <p>The orders, as Drill compares the values it reads:
 * <ul>
 * <li>Numbers compare numerically, exactly: BOOLEAN (false &lt; true), signed and unsigned integers
 *     (UINT_8 .. UINT_64 and INTEGER(n,false) compare unsigned: an INT32 zero-extended, an INT64 as
 *     0 .. 2<sup>64</sup>-1), DATE (days), TIME and TIMESTAMP (their stored units), and DECIMAL of
 *     every physical type (INT32, INT64, FIXED_LEN_BYTE_ARRAY, BYTE_ARRAY: the unscaled two's
 *     complement integer times 10<sup>-scale</sup>). A literal is never rounded: one between two
 *     stored values (3.5 for an INT32, 0.005 for a DECIMAL(9,2)) equals none of them, and one
 *     beyond the type (2<sup>63</sup> for an INT64, -1 for an unsigned column) is below or above
 *     every value.
 * <li>FLOAT, DOUBLE and FLOAT16 compare as doubles (a FLOAT or FLOAT16 widens exactly), -0.0 equal
 *     to 0.0, and NaN above every number and equal to NaN ({@link #compareDoubles}), as Drill's
 *     comparison functions have it. Where a filter only narrows what is read (pruning, late
 *     materialization), its users do not rely on NaN's place: bounds that are NaN decide nothing
 *     ({@link #isNaN}), writers may leave NaN out of bounds ({@link #mayHideNaN}), and the row test
 *     lets a NaN value through whatever the comparison.
 * <li>BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY that are no DECIMAL: unsigned lexicographic bytes
 *     ({@link #compareUnsigned}); a literal string is its UTF-8 bytes.
 * </ul>
 *
 * <p>A literal is first typed for its column ({@link #literal}: a BigDecimal, Double or byte[],
 * compared with decoded statistics by {@link #compare}), then, where values are compared in bulk,
 * turned into the column's stored form ({@link #stored}): an {@link IntegerLiteral}, a {@link
 * FloatingLiteral}, a {@link TwosComplementLiteral} or a {@link BytesLiteral}, each with the
 * comparison of one stored value with it. The stored form holds where the literal falls among the
 * stored values (the greatest stored value at or below it, whether it is that value exactly, or
 * that it lies beyond every value of the type), so that a comparison of a stored value with it
 * needs no rounding, no allocation and no call to another class.
 */
public abstract class ValueOrder {
  private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

  private ValueOrder() {}

  /**
   * The order of {@code column} as filters use it, or null when page statistics, dictionaries and
   * rows are not judged by it: INT96, INTERVAL, GEOMETRY and GEOGRAPHY (no order: WKB, Geospatial.md),
   * and columns under a repeated field.
   */
  public static ValueOrder of(ColumnDescriptor column) {
    return column.isGeospatial() ? null : forValues(column);
  }

  /**
   * The order of the values of {@code column}, or null when its type has none: INT96, INTERVAL,
   * FLOAT16 not of two bytes, DECIMAL whose scale does not parse, and columns under a repeated field.
   */
  public static ValueOrder forValues(ColumnDescriptor column) {
    String logical = column.logicalType() == null ? "" : column.logicalType();
    if (!column.isFlat() || logical.equals("INTERVAL")) {
      return null;
    }
    if (logical.equals("FLOAT16")) {
      return column.isFloat16() ? new Floating(column, 2) : null;
    }
    boolean decimal = logical.startsWith("DECIMAL(");
    int scale = decimal ? decimalPart(logical, 1) : 0;
    if (scale < 0) {
      return null;
    }
    int precision = decimal ? decimalPart(logical, 0) : 0;
    boolean unsigned = logical.startsWith("UINT") || logical.startsWith("INTEGER(") && logical.endsWith("false)");
    return switch (column.physicalType()) {
      case BOOLEAN -> new Numeric(column, scale, precision, false, false);
      case INT32, INT64 -> new Numeric(column, scale, precision, logical.equals("DATE"), unsigned);
      case FLOAT -> new Floating(column, 4);
      case DOUBLE -> new Floating(column, 8);
      case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY -> decimal ? new Numeric(column, scale, precision, false, false)
          : new Bytes(column);
      default -> null;
    };
  }

  /** Part {@code i} (0: precision, 1: scale) of {@code DECIMAL(p,s)}, or -1. */
  private static int decimalPart(String decimal, int i) {
    try {
      String[] parts = decimal.substring(decimal.indexOf('(') + 1, decimal.length() - 1).split(",");
      return Integer.parseInt(parts[i].trim());
    } catch (RuntimeException e) {
      return -1;
    }
  }

  /** A statistics value, or null when its bytes do not fit the type (then nothing can be concluded). */
  public abstract Object decode(byte[] stat);

  /** The literal as a value of this order; IllegalArgumentException naming column and literal if it is not one. */
  public abstract Object literal(Literal literal);

  /** The order of two values of this order (decoded statistics or typed literals). */
  public abstract int compare(Object a, Object b);

  /**
   * The literal {@code v} (as {@link #literal} typed it) in the form the column's decoded values are
   * compared with, or null when there is none (a DECIMAL stored as BYTE_ARRAY without a precision).
   */
  public abstract Stored stored(Object v);

  /** Whether the value is NaN, which no bound excludes. */
  public boolean isNaN(Object v) {
    return false;
  }

  /** Whether a NaN the page statistics do not show could hide in a page (floating columns). */
  public boolean mayHideNaN() {
    return false;
  }

  /** The decimal scale of the stored integers (0 unless a DECIMAL stored as an integer or bytes). */
  public int scale() {
    return 0;
  }

  /** Whether the stored integers are unsigned (UINT_8 .. UINT_64, INTEGER(n,false)). */
  public boolean unsigned() {
    return false;
  }

  static IllegalArgumentException mismatch(ColumnDescriptor c, Literal l, String want) {
    return new IllegalArgumentException("filter: column " + c.dottedPath() + " is " + c.physicalType()
        + (c.logicalType() == null ? "" : " " + c.logicalType()) + "; " + l + " is not " + want);
  }

  // ---- the stored forms of literals and the comparison of a stored value with them ----

  /** A literal in the form of its column's stored values. */
  public sealed interface Stored permits IntegerLiteral, FloatingLiteral, TwosComplementLiteral, BytesLiteral {}

  /**
   * A literal against values stored as integers (BOOLEAN as one byte 0 or 1, INT32, INT64: integers,
   * dates, times, timestamps, DECIMAL on its unscaled grid), each read as a long: sign-extended, or
   * for {@code unsigned} columns zero-extended (INT32) or taken as 0 .. 2<sup>64</sup>-1 (INT64).
   *
   * @param width the stored bytes of a value: 1 (BOOLEAN), 4 or 8
   * @param floor the greatest long (unsigned: as its 64 bits) at or below the literal on the grid;
   *     the end of the longs (unsigned: 0 or 2<sup>64</sup>-1) when {@code outside}
   * @param exact whether the literal is {@code floor} exactly (a value equal to floor is below it otherwise)
   * @param outside -1 / 1 when the literal is below / above every long (unsigned: below 0, at or
   *     above 2<sup>64</sup>), so below / above every stored value; else 0
   */
  public record IntegerLiteral(int width, boolean unsigned, long floor, boolean exact, int outside) implements Stored {
    /** The sign of (stored value - literal); {@code stored} read as above. */
    public int compareWith(long stored) {
      if (outside != 0) {
        return -outside;
      }
      int c = unsigned ? Long.compareUnsigned(stored, floor) : Long.compare(stored, floor);
      return c != 0 ? Integer.signum(c) : exact ? 0 : -1;
    }

    /** Whether a value of the stored type equals the literal: {@code floor}, exact, within the width. */
    public boolean isStoredValue() {
      if (!exact || outside != 0) {
        return false;
      }
      return switch (width) {
        case 1 -> floor == 0 || floor == 1;
        case 4 -> unsigned ? floor >= 0 && floor <= 0xFFFF_FFFFL : floor == (int) floor;
        default -> true;
      };
    }

    /**
     * {@code v} (a typed literal) on the grid of {@code scale} decimals: over the longs, or for
     * {@code unsigned} over 0 .. 2<sup>64</sup>-1. No literal makes a number larger than its own
     * digits (a literal like 1e999999999 is compared, never expanded).
     */
    static IntegerLiteral of(BigDecimal v, int scale, int width, boolean unsigned) {
      BigInteger low = unsigned ? BigInteger.ZERO : BigInteger.valueOf(Long.MIN_VALUE);
      BigInteger beyond = unsigned ? TWO_64 : BigInteger.valueOf(Long.MAX_VALUE).add(BigInteger.ONE);
      if (v.compareTo(new BigDecimal(low, scale)) < 0) {
        return new IntegerLiteral(width, unsigned, low.longValue(), false, -1);
      }
      if (v.compareTo(new BigDecimal(beyond, scale)) >= 0) {
        return new IntegerLiteral(width, unsigned, beyond.subtract(BigInteger.ONE).longValue(), false, 1);
      }
      BigInteger[] floor = floorOnGrid(v, scale);
      return new IntegerLiteral(width, unsigned, floor[0].longValue(), floor[1].signum() == 0, 0);
    }
  }

  /**
   * The floor of {@code v} times 10<sup>scale</sup> and whether that product is an integer (element
   * 1 zero when it is), for a {@code v} whose integer part is known to be small: its fraction may
   * still have any number of digits.
   */
  private static BigInteger[] floorOnGrid(BigDecimal v, int scale) {
    BigDecimal shifted = v.movePointRight(scale);
    if (shifted.signum() == 0) {
      return new BigInteger[] {BigInteger.ZERO, BigInteger.ZERO};
    }
    if ((long) shifted.precision() - shifted.scale() <= 0) { // 0 < |shifted| < 1
      return new BigInteger[] {BigInteger.valueOf(shifted.signum() < 0 ? -1 : 0), BigInteger.ONE};
    }
    BigDecimal f = shifted.setScale(0, RoundingMode.FLOOR);
    return new BigInteger[] {f.toBigIntegerExact(), BigInteger.valueOf(f.compareTo(shifted))};
  }

  /**
   * A literal against FLOAT, DOUBLE and FLOAT16 values, each widened to a double; compared by
   * {@link #compareDoubles}.
   *
   * @param width the stored bytes of a value: 2 (FLOAT16, little-endian), 4 or 8
   */
  public record FloatingLiteral(int width, double value) implements Stored {
    /** The sign of (stored value - literal), in {@link #compareDoubles}'s order. */
    public int compareWith(double stored) {
      return compareDoubles(stored, value);
    }

    /**
     * Whether a value of the stored type equals the literal (a FLOAT or FLOAT16 that widens to it;
     * for a zero both zeros do, for NaN every NaN).
     */
    public boolean isStoredValue() {
      return switch (width) {
        case 4 -> Double.isNaN(value) || (double) (float) value == value;
        case 2 -> Double.isNaN(value) || Double.isInfinite(value) || HalfFloat.toFloat(HalfFloat.nearest(value)) == value;
        default -> true;
      };
    }
  }

  /**
   * A literal against DECIMAL values stored as big-endian two's complement bytes (FIXED_LEN_BYTE_ARRAY
   * of {@code width} bytes, or BYTE_ARRAY, width 0), on their unscaled grid.
   *
   * @param floor the greatest unscaled value at or below the literal: FIXED_LEN_BYTE_ARRAY in
   *     exactly {@code width} bytes, BYTE_ARRAY in the fewest; empty when {@code outside}
   * @param outside -1 / 1 when the literal is below / above every value of the type: of
   *     {@code width} bytes, or of BYTE_ARRAY the declared precision's digits; else 0
   */
  public record TwosComplementLiteral(int width, byte[] floor, boolean exact, int outside) implements Stored {
    /** The sign of (stored value - literal), for the value at {@code [start, start + length)} of {@code data}. */
    public int compareWith(ByteBuffer data, int start, int length) {
      if (outside != 0) {
        return -outside;
      }
      int c = compareTwosComplement(data, start, length, floor);
      return c != 0 ? c : exact ? 0 : -1;
    }

    /** Whether a value of the stored type equals the literal (then {@code floor} is its stored bytes). */
    public boolean isStoredValue() {
      return exact && outside == 0;
    }

    /**
     * {@code v} (a typed literal) on the grid of {@code scale} decimals, against values of
     * {@code width} bytes, or (width 0) of {@code precision} digits. No bound of the type is built
     * and no literal is expanded beyond the digits a value can have.
     */
    static TwosComplementLiteral of(BigDecimal v, int scale, int width, int precision) {
      long digits = (long) v.precision() - v.scale() + scale; // of v times 10^scale, before its point
      long most = width > 0 ? 8L * width * 3 / 10 + 2 : precision + 1L; // more digits than any value has
      int sign = v.signum();
      BigInteger[] floor = sign == 0 || digits > most ? null : floorOnGrid(v, scale);
      boolean fits = floor != null && (width > 0 ? floor[0].bitLength() < 8 * width
          : floor[0].signum() == 0 || new BigDecimal(floor[0]).precision() <= precision);
      if (sign != 0 && !fits) {
        return new TwosComplementLiteral(width, new byte[0], false, sign);
      }
      BigInteger f = sign == 0 ? BigInteger.ZERO : floor[0];
      byte[] minimal = f.toByteArray();
      byte[] bytes = minimal;
      if (width > 0) {
        bytes = new byte[width];
        int fill = width - minimal.length;
        for (int i = 0; i < width; i++) {
          bytes[i] = i < fill ? (byte) (f.signum() < 0 ? 0xff : 0) : minimal[i - fill];
        }
      }
      return new TwosComplementLiteral(width, bytes, sign == 0 || floor[1].signum() == 0, 0);
    }
  }

  /** A literal string against BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY values: its UTF-8 bytes, compared unsigned. */
  public record BytesLiteral(byte[] value) implements Stored {
    /** The sign of (stored value - literal), for the value at {@code [start, start + length)} of {@code data}. */
    public int compareWith(ByteBuffer data, int start, int length) {
      return compareUnsigned(data, start, length, value);
    }
  }

  /**
   * Drill's order of doubles: numerically, -0.0 equal to 0.0, NaN above every number (infinity too)
   * and equal to NaN. -1, 0 or 1.
   */
  public static int compareDoubles(double a, double b) {
    if (a < b) {
      return -1;
    }
    if (a > b) {
      return 1;
    }
    if (a == b) {
      return 0;
    }
    return Double.isNaN(a) ? Double.isNaN(b) ? 0 : 1 : -1;
  }

  /** The sign (-1, 0, 1) of the unsigned lexicographic comparison of {@code [start, start + length)} of {@code data} with {@code b}. */
  public static int compareUnsigned(ByteBuffer data, int start, int length, byte[] b) {
    int n = Math.min(length, b.length);
    for (int i = 0; i < n; i++) {
      int x = data.get(start + i) & 0xFF;
      int y = b[i] & 0xFF;
      if (x != y) {
        return x < y ? -1 : 1;
      }
    }
    return Integer.signum(Integer.compare(length, b.length));
  }

  /**
   * The sign (-1, 0, 1) of the comparison of two big-endian two's complement integers of any lengths,
   * {@code [start, start + length)} of {@code data} and {@code b} (an empty one is 0).
   */
  public static int compareTwosComplement(ByteBuffer data, int start, int length, byte[] b) {
    int padA = length > 0 && data.get(start) < 0 ? 0xFF : 0;
    int padB = b.length > 0 && b[0] < 0 ? 0xFF : 0;
    if (padA != padB) {
      return padA != 0 ? -1 : 1;
    }
    // Of one sign: the sign-extended bytes of one length compare unsigned.
    int n = Math.max(length, b.length);
    for (int i = 0; i < n; i++) {
      int ia = i - (n - length);
      int ib = i - (n - b.length);
      int x = ia < 0 ? padA : data.get(start + ia) & 0xFF;
      int y = ib < 0 ? padB : b[ib] & 0xFF;
      if (x != y) {
        return x < y ? -1 : 1;
      }
    }
    return 0;
  }

  // ---- the orders ----

  /** Integers, booleans, dates, times, timestamps and decimals, compared exactly. */
  static final class Numeric extends ValueOrder {
    private final ColumnDescriptor column;
    private final int scale;
    private final int precision;
    private final boolean date;
    private final boolean unsigned;

    Numeric(ColumnDescriptor column, int scale, int precision, boolean date, boolean unsigned) {
      this.column = column;
      this.scale = scale;
      this.precision = precision;
      this.date = date;
      this.unsigned = unsigned;
    }

    @Override
    public int scale() {
      return scale;
    }

    @Override
    public boolean unsigned() {
      return unsigned;
    }

    @Override
    public Object decode(byte[] b) {
      if (b == null) {
        return null;
      }
      ByteBuffer le = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
      switch (column.physicalType()) {
        case BOOLEAN:
          return b.length == 1 ? BigDecimal.valueOf(b[0] & 1) : null;
        case INT32:
          return b.length != 4 ? null
              : BigDecimal.valueOf(unsigned ? le.getInt() & 0xFFFF_FFFFL : le.getInt(), scale);
        case INT64:
          if (b.length != 8) {
            return null;
          }
          long x = le.getLong();
          return unsigned && x < 0 ? new BigDecimal(BigInteger.valueOf(x).add(TWO_64), scale)
              : BigDecimal.valueOf(x, scale);
        default: // big-endian two's complement unscaled value
          if (b.length == 0 || column.physicalType() == PhysicalType.FIXED_LEN_BYTE_ARRAY
              && b.length != column.typeLength()) {
            return null;
          }
          return new BigDecimal(new BigInteger(b), scale);
      }
    }

    @Override
    public Object literal(Literal l) {
      if (column.physicalType() == PhysicalType.BOOLEAN) {
        if (l.kind() != Literal.Kind.BOOLEAN) {
          throw mismatch(column, l, "TRUE or FALSE");
        }
        return BigDecimal.valueOf(l.text().equals("true") ? 1 : 0);
      }
      if (date) {
        if (l.kind() != Literal.Kind.DATE && l.kind() != Literal.Kind.STRING) {
          throw mismatch(column, l, "a date (DATE 'yyyy-mm-dd')");
        }
        try {
          return BigDecimal.valueOf(LocalDate.parse(l.text()).toEpochDay());
        } catch (DateTimeParseException e) {
          throw mismatch(column, l, "a date (DATE 'yyyy-mm-dd')");
        }
      }
      if (l.kind() != Literal.Kind.NUMBER) {
        throw mismatch(column, l, "a number");
      }
      return new BigDecimal(l.text());
    }

    @Override
    public int compare(Object a, Object b) {
      return ((BigDecimal) a).compareTo((BigDecimal) b);
    }

    @Override
    public Stored stored(Object v) {
      BigDecimal d = (BigDecimal) v;
      return switch (column.physicalType()) {
        case BOOLEAN -> IntegerLiteral.of(d, scale, 1, false);
        case INT32 -> IntegerLiteral.of(d, scale, 4, unsigned);
        case INT64 -> IntegerLiteral.of(d, scale, 8, unsigned);
        case FIXED_LEN_BYTE_ARRAY -> column.typeLength() > 0 ? TwosComplementLiteral.of(d, scale, column.typeLength(), 0)
            : null;
        default -> precision > 0 ? TwosComplementLiteral.of(d, scale, 0, precision) : null;
      };
    }
  }

  /**
   * FLOAT, DOUBLE and FLOAT16 as doubles, in {@link #compareDoubles}'s order (-0.0 equal to 0.0, NaN
   * above every number); {@link PageIndexFilter} asks {@link #isNaN} before it compares.
   */
  static final class Floating extends ValueOrder {
    private final ColumnDescriptor column;
    /** Stored bytes of a value: 2 (FLOAT16), 4, 8. */
    private final int width;

    Floating(ColumnDescriptor column, int width) {
      this.column = column;
      this.width = width;
    }

    @Override
    public Object decode(byte[] b) {
      if (b == null || b.length != width) {
        return null;
      }
      ByteBuffer le = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
      return switch (width) {
        case 2 -> (double) HalfFloat.toFloat(le.getShort());
        case 4 -> (double) le.getFloat();
        default -> le.getDouble();
      };
    }

    @Override
    public Object literal(Literal l) {
      if (l.kind() != Literal.Kind.NUMBER) {
        throw mismatch(column, l, "a number");
      }
      return Double.parseDouble(l.text());
    }

    @Override
    public int compare(Object a, Object b) {
      return compareDoubles((Double) a, (Double) b);
    }

    @Override
    public Stored stored(Object v) {
      return new FloatingLiteral(width, (Double) v);
    }

    @Override
    public boolean isNaN(Object v) {
      return Double.isNaN((Double) v);
    }

    @Override
    public boolean mayHideNaN() {
      return true;
    }
  }

  /** BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY (not DECIMAL): unsigned lexicographic. */
  static final class Bytes extends ValueOrder {
    private final ColumnDescriptor column;

    Bytes(ColumnDescriptor column) {
      this.column = column;
    }

    @Override
    public Object decode(byte[] b) {
      return b;
    }

    @Override
    public Object literal(Literal l) {
      if (l.kind() != Literal.Kind.STRING) {
        throw mismatch(column, l, "a string (quote it: '...')");
      }
      return l.text().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public int compare(Object a, Object b) {
      return Integer.signum(Arrays.compareUnsigned((byte[]) a, (byte[]) b));
    }

    @Override
    public Stored stored(Object v) {
      return new BytesLiteral((byte[]) v);
    }
  }
}
