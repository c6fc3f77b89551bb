package io.turboparquet.format;

import java.math.BigDecimal;

/**
 * ISO well-known binary, the encoding of GEOMETRY and GEOGRAPHY values (Geospatial.md): read as
 * well-known text, or walked coordinate by coordinate. Every count is checked against the bytes
 * left before it is used, and collections nest at most {@link #MAX_DEPTH} deep, so a hostile value
 * costs no more than its length.
 */
public final class Wkb {
  /** Receives every coordinate of a geometry; Z and M are NaN where the geometry has none. */
  @FunctionalInterface
  public interface CoordinateVisitor {
    void coordinate(double x, double y, double z, double m);
  }

  static final int MAX_DEPTH = 64;
  private static final String[] NAMES = {null, "POINT", "LINESTRING", "POLYGON", "MULTIPOINT", "MULTILINESTRING",
      "MULTIPOLYGON", "GEOMETRYCOLLECTION"};

  private final byte[] bytes;
  private final int end;
  private final StringBuilder text;
  private final CoordinateVisitor visitor;
  private int pos;
  private boolean littleEndian;

  private Wkb(byte[] bytes, int offset, int length, StringBuilder text, CoordinateVisitor visitor) {
    this.bytes = bytes;
    this.pos = offset;
    this.end = offset + length;
    this.text = text;
    this.visitor = visitor;
  }

  /** The value as ISO WKT ("POINT Z (1 2 3)", "LINESTRING EMPTY"); IllegalArgumentException when it is not WKB. */
  public static String toText(byte[] bytes, int offset, int length) {
    StringBuilder out = new StringBuilder();
    new Wkb(bytes, offset, length, out, null).whole();
    return out.toString();
  }

  /**
   * Hands every coordinate of the value to {@code visitor} and returns its geometry type code (1
   * point ... 7 collection, +1000 Z, +2000 M, +3000 ZM); IllegalArgumentException when it is not WKB.
   */
  public static int coordinates(byte[] bytes, int offset, int length, CoordinateVisitor visitor) {
    return new Wkb(bytes, offset, length, null, visitor).whole();
  }

  private int whole() {
    int code = geometry(0, true);
    if (pos != end) {
      throw new IllegalArgumentException("WKB: " + (end - pos) + " bytes after the geometry");
    }
    return code;
  }

  /** One geometry (its byte order, type and body); returns its type code. */
  private int geometry(int depth, boolean named) {
    if (depth > MAX_DEPTH) {
      throw new IllegalArgumentException("WKB: collections nest deeper than " + MAX_DEPTH);
    }
    int order = u8();
    if (order > 1) {
      throw new IllegalArgumentException("WKB: byte order " + order + " at offset " + (pos - 1));
    }
    littleEndian = order == 1;
    long code = u32();
    int base = (int) (code % 1000);
    int dims = (int) (code / 1000);
    if (base < 1 || base > 7 || dims > 3) {
      throw new IllegalArgumentException("WKB: geometry type " + code + " is not an ISO WKB type");
    }
    boolean z = dims == 1 || dims == 3;
    boolean m = dims == 2 || dims == 3;
    if (named && text != null) {
      text.append(NAMES[base]).append(dims == 0 ? "" : dims == 1 ? " Z" : dims == 2 ? " M" : " ZM");
    }
    switch (base) {
      case 1 -> point(z, m);
      case 2 -> points(z, m);
      case 3 -> rings(z, m);
      default -> collection(base, (int) code, depth);
    }
    return (int) code;
  }

  private void point(boolean z, boolean m) {
    int at = pos;
    need(8L * (2 + (z ? 1 : 0) + (m ? 1 : 0)));
    double x = f64();
    double y = f64();
    double zv = z ? f64() : Double.NaN;
    double mv = m ? f64() : Double.NaN;
    boolean empty = Double.isNaN(x) && Double.isNaN(y) && Double.isNaN(zv) && Double.isNaN(mv);
    if (text != null) {
      if (empty) {
        text.append(" EMPTY");
      } else {
        text.append(" (");
        pos = at;
        coordinate(z, m);
        text.append(')');
      }
    } else if (!empty) {
      visitor.coordinate(x, y, zv, mv);
    }
  }

  private void points(boolean z, boolean m) {
    long n = count(8L * (2 + (z ? 1 : 0) + (m ? 1 : 0)));
    if (text != null) {
      text.append(n == 0 ? " EMPTY" : " (");
    }
    for (long i = 0; i < n; i++) {
      if (text != null && i > 0) {
        text.append(", ");
      }
      coordinate(z, m);
    }
    if (text != null && n > 0) {
      text.append(')');
    }
  }

  private void rings(boolean z, boolean m) {
    long n = count(4);
    if (text != null) {
      text.append(n == 0 ? " EMPTY" : " (");
    }
    for (long i = 0; i < n; i++) {
      if (text != null) {
        text.append(i > 0 ? ", " : "");
        int mark = text.length();
        points(z, m);
        text.deleteCharAt(mark); // a ring has no leading space of its own: "((0 0, 1 1))"
      } else {
        points(z, m);
      }
    }
    if (text != null && n > 0) {
      text.append(')');
    }
  }

  /** Multi geometries hold their members' whole WKB; a multi's members are of its base type, unnamed. */
  private void collection(int base, int code, int depth) {
    long n = count(5);
    if (text != null) {
      text.append(n == 0 ? " EMPTY" : " (");
    }
    for (long i = 0; i < n; i++) {
      if (text != null && i > 0) {
        text.append(", ");
      }
      int at = text == null ? 0 : text.length();
      int member = geometry(depth + 1, base == 7);
      if (base != 7 && member != code - 3) {
        throw new IllegalArgumentException("WKB: a geometry of type " + code + " holds one of type " + member);
      }
      if (text != null && base != 7) {
        text.deleteCharAt(at); // "MULTIPOINT ((1 2))": a member's body without its name's space
      }
    }
    if (text != null && n > 0) {
      text.append(')');
    }
  }

  private void coordinate(boolean z, boolean m) {
    need(8L * (2 + (z ? 1 : 0) + (m ? 1 : 0)));
    double x = f64();
    double y = f64();
    double zv = z ? f64() : Double.NaN;
    double mv = m ? f64() : Double.NaN;
    if (text != null) {
      number(x).append(' ');
      number(y);
      if (z) {
        text.append(' ');
        number(zv);
      }
      if (m) {
        text.append(' ');
        number(mv);
      }
    } else {
      visitor.coordinate(x, y, zv, mv);
    }
  }

  private StringBuilder number(double v) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return text.append(v);
    }
    return text.append(v == 0 ? "0" : BigDecimal.valueOf(v).stripTrailingZeros().toPlainString());
  }

  /** A count of elements of at least {@code minBytes} each, checked against the bytes left. */
  private long count(long minBytes) {
    long n = u32();
    need(n * minBytes);
    return n;
  }

  private void need(long n) {
    if (n > end - pos) {
      throw new IllegalArgumentException("WKB: needs " + n + " bytes at offset " + pos + " but " + (end - pos)
          + " are left");
    }
  }

  private int u8() {
    need(1);
    return bytes[pos++] & 0xff;
  }

  private long u32() {
    need(4);
    long v = 0;
    for (int i = 0; i < 4; i++) {
      int b = bytes[pos + i] & 0xff;
      v |= littleEndian ? (long) b << (8 * i) : (long) b << (8 * (3 - i));
    }
    pos += 4;
    return v;
  }

  private double f64() {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      long b = bytes[pos + i] & 0xff;
      v |= littleEndian ? b << (8 * i) : b << (8 * (7 - i));
    }
    pos += 8;
    return Double.longBitsToDouble(v);
  }
}
