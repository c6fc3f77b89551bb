package io.turboparquet.filter;

import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.PhysicalType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Arrays;

/**
 * How one column's statistics bytes (page index min/max, plain encoded) are read and ordered, per
 * Parquet's type-defined sort order: numbers (signed ints, DATE, DECIMAL of any physical type) as
 * exact decimals; FLOAT/DOUBLE as doubles (NaN is "unknown" to callers); binary as unsigned
 * lexicographic bytes. Also turns a filter literal into a value of the same kind, or says clearly
 * why it cannot.
 */
public abstract class ValueOrder {
  private ValueOrder() {}

  /**
   * The order of {@code column}, or null when page statistics cannot be used to filter it: INT96,
   * unsigned integers, INTERVAL and FLOAT16 (orders this reader does not implement), and columns
   * under a repeated field.
   */
  public static ValueOrder of(ColumnDescriptor column) {
    String logical = column.logicalType() == null ? "" : column.logicalType();
    if (!column.isFlat() || logical.startsWith("UINT") || logical.startsWith("INTEGER(") && logical.endsWith("false)")
        || logical.equals("INTERVAL") || logical.equals("FLOAT16")) {
      return null;
    }
    int scale = logical.startsWith("DECIMAL(") ? scale(logical) : 0;
    if (scale < 0) {
      return null;
    }
    return switch (column.physicalType()) {
      case BOOLEAN, INT32, INT64 -> new Numeric(column, scale, logical.equals("DATE"));
      case FLOAT, DOUBLE -> new Floating(column);
      case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY -> logical.startsWith("DECIMAL(") ? new Numeric(column, scale, false)
          : new Bytes(column);
      default -> null;
    };
  }

  private static int scale(String decimal) {
    try {
      return Integer.parseInt(decimal.substring(decimal.indexOf(',') + 1, decimal.length() - 1).trim());
    } catch (RuntimeException e) {
      return -1;
    }
  }

  /** A statistics value, or null when its bytes do not fit the type (then nothing can be concluded). */
  public abstract Object decode(byte[] stat);

  /** The literal as a value of this order; IllegalArgumentException naming column and literal if it is not one. */
  public abstract Object literal(Literal literal);

  public abstract int compare(Object a, Object b);

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

  static IllegalArgumentException mismatch(ColumnDescriptor c, Literal l, String want) {
    return new IllegalArgumentException("filter: column " + c.dottedPath() + " is " + c.physicalType()
        + (c.logicalType() == null ? "" : " " + c.logicalType()) + "; " + l + " is not " + want);
  }

  /** Integers, booleans, dates and decimals, compared exactly. */
  static final class Numeric extends ValueOrder {
    private final ColumnDescriptor column;
    private final int scale;
    private final boolean date;

    Numeric(ColumnDescriptor column, int scale, boolean date) {
      this.column = column;
      this.scale = scale;
      this.date = date;
    }

    @Override
    public int scale() {
      return scale;
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
          return b.length == 4 ? BigDecimal.valueOf(le.getInt(), scale) : null;
        case INT64:
          return b.length == 8 ? BigDecimal.valueOf(le.getLong(), scale) : null;
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
  }

  /** FLOAT and DOUBLE as doubles; -0.0 and 0.0 compare equal, as SQL has them. */
  static final class Floating extends ValueOrder {
    private final ColumnDescriptor column;

    Floating(ColumnDescriptor column) {
      this.column = column;
    }

    @Override
    public Object decode(byte[] b) {
      if (b == null) {
        return null;
      }
      ByteBuffer le = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
      if (column.physicalType() == PhysicalType.FLOAT) {
        return b.length == 4 ? (double) le.getFloat() : null;
      }
      return b.length == 8 ? le.getDouble() : null;
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
      double x = (Double) a;
      double y = (Double) b;
      return x < y ? -1 : x > y ? 1 : 0;
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
      return Arrays.compareUnsigned((byte[]) a, (byte[]) b);
    }
  }
}
