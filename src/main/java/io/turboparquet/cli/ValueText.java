package io.turboparquet.cli;

import io.turboparquet.decode.HalfFloat;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.format.Wkb;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Base64;

/**
 * One leaf value as a person reads it, as JSON text: the rendering of {@code head} (docs/cli.md).
 * A value comes as the bytes Parquet's PLAIN encoding stores for it (little-endian numbers, INT96
 * as 12 bytes, BOOLEAN as one byte 0 or 1, byte arrays as they are). Integers and decimals are
 * JSON numbers (unsigned ones unsigned, decimals exact with the scale's digits); dates, times and
 * timestamps ISO-8601 strings with the unit's fractional digits ("Z" where adjusted to UTC; INT96
 * is UTC with nanoseconds); FLOAT, DOUBLE and FLOAT16 numbers, or "NaN", "Infinity", "-Infinity";
 * STRING, ENUM and JSON strings; UUID in 8-4-4-4-12 form; INTERVAL an object of months, days and
 * millis; GEOMETRY and GEOGRAPHY well-known text (a value that is not WKB: its base64 with a note);
 * other byte arrays (unannotated, BSON) base64. A logical type that does not fit the physical type
 * is ignored: the value renders by its physical type. A time or timestamp out of range renders as
 * its stored number.
 */
final class ValueText {
  private enum Kind {
    BOOLEAN, INT32, UINT32, INT64, UINT64, DECIMAL, DATE, TIME, TIMESTAMP, INT96, FLOAT, DOUBLE, FLOAT16, STRING,
    UUID, INTERVAL, GEOSPATIAL, BASE64
  }

  private static final long JULIAN_EPOCH_DAY = 2_440_588; // the Julian day of 1970-01-01
  private static final long NANOS_PER_DAY = 86_400_000_000_000L;

  private final Kind kind;
  private final PhysicalType physical;
  private final int scale; // DECIMAL
  /** TIME and TIMESTAMP: stored units per second and fractional digits. */
  private final long unitsPerSecond;
  private final int digits;
  private final boolean utc; // TIMESTAMP

  ValueText(ColumnDescriptor column) {
    this.physical = column.physicalType();
    String logical = column.logicalType() == null ? "" : column.logicalType();
    int scale = 0;
    long units = 0;
    int digits = 0;
    boolean utc = false;
    Kind kind = physicalKind(physical);
    String[] params = params(logical);
    String name = params == null ? logical : logical.substring(0, logical.indexOf('('));
    switch (name) {
      case "INTEGER" -> {
        boolean unsigned = params != null && params.length == 2 && params[1].equals("false");
        kind = physical == PhysicalType.INT32 ? (unsigned ? Kind.UINT32 : Kind.INT32)
            : physical == PhysicalType.INT64 ? (unsigned ? Kind.UINT64 : Kind.INT64) : kind;
      }
      case "UINT_8", "UINT_16", "UINT_32" -> kind = physical == PhysicalType.INT32 ? Kind.UINT32 : kind;
      case "UINT_64" -> kind = physical == PhysicalType.INT64 ? Kind.UINT64 : kind;
      case "DECIMAL" -> {
        if (physical != PhysicalType.BOOLEAN && physical != PhysicalType.FLOAT && physical != PhysicalType.DOUBLE
            && physical != PhysicalType.INT96 && params != null && params.length == 2) {
          kind = Kind.DECIMAL;
          scale = Integer.parseInt(params[1].trim());
        }
      }
      case "DATE" -> kind = physical == PhysicalType.INT32 ? Kind.DATE : kind;
      case "TIME", "TIME_MILLIS", "TIME_MICROS", "TIMESTAMP", "TIMESTAMP_MILLIS", "TIMESTAMP_MICROS" -> {
        String unit = params != null && params.length == 2 ? params[0] : name.endsWith("MILLIS") ? "MILLIS" : "MICROS";
        boolean time = name.startsWith("TIME") && !name.startsWith("TIMESTAMP");
        // TIME(MILLIS) is an INT32, every other unit and every TIMESTAMP an INT64.
        PhysicalType stored = time && unit.equals("MILLIS") ? PhysicalType.INT32 : PhysicalType.INT64;
        if (physical == stored) {
          kind = time ? Kind.TIME : Kind.TIMESTAMP;
          units = unit.equals("MILLIS") ? 1_000 : unit.equals("MICROS") ? 1_000_000 : 1_000_000_000;
          digits = unit.equals("MILLIS") ? 3 : unit.equals("MICROS") ? 6 : 9;
          // The converted types TIMESTAMP_MILLIS and _MICROS are adjusted to UTC (LogicalTypes.md).
          utc = params == null || params[1].equals("true");
        }
      }
      case "STRING", "UTF8", "ENUM", "JSON" -> kind = binary(physical) ? Kind.STRING : kind;
      case "UUID" -> kind = physical == PhysicalType.FIXED_LEN_BYTE_ARRAY && column.typeLength() == 16 ? Kind.UUID
          : kind;
      case "FLOAT16" -> kind = physical == PhysicalType.FIXED_LEN_BYTE_ARRAY && column.typeLength() == 2
          ? Kind.FLOAT16 : kind;
      case "INTERVAL" -> kind = physical == PhysicalType.FIXED_LEN_BYTE_ARRAY && column.typeLength() == 12
          ? Kind.INTERVAL : kind;
      default -> {
        if ((name.startsWith("GEOMETRY") || name.startsWith("GEOGRAPHY")) && binary(physical)) {
          kind = Kind.GEOSPATIAL;
        }
      }
    }
    this.kind = kind;
    this.scale = scale;
    this.unitsPerSecond = units;
    this.digits = digits;
    this.utc = utc;
  }

  /** The parameters of "NAME(a,b)", or null without parentheses. */
  private static String[] params(String logical) {
    int open = logical.indexOf('(');
    if (open < 0 || !logical.endsWith(")")) {
      return null;
    }
    return logical.substring(open + 1, logical.length() - 1).split(",");
  }

  private static boolean binary(PhysicalType t) {
    return t == PhysicalType.BYTE_ARRAY || t == PhysicalType.FIXED_LEN_BYTE_ARRAY;
  }

  private static Kind physicalKind(PhysicalType t) {
    return switch (t) {
      case BOOLEAN -> Kind.BOOLEAN;
      case INT32 -> Kind.INT32;
      case INT64 -> Kind.INT64;
      case INT96 -> Kind.INT96;
      case FLOAT -> Kind.FLOAT;
      case DOUBLE -> Kind.DOUBLE;
      default -> Kind.BASE64;
    };
  }

  /** Whether values render as JSON strings of their text (map keys of these become object keys). */
  boolean isString() {
    return kind == Kind.STRING;
  }

  /** Appends the value stored in {@code b[offset, offset + length)} as JSON text. */
  void append(StringBuilder out, byte[] b, int offset, int length) {
    switch (kind) {
      case BOOLEAN -> out.append(b[offset] != 0);
      case INT32 -> out.append(int32(b, offset));
      case UINT32 -> out.append(Integer.toUnsignedLong(int32(b, offset)));
      case INT64 -> out.append(int64(b, offset));
      case UINT64 -> out.append(Long.toUnsignedString(int64(b, offset)));
      case DECIMAL -> out.append(decimal(b, offset, length).toPlainString());
      case DATE -> date(out, int32(b, offset));
      case TIME -> time(out, physical == PhysicalType.INT32 ? int32(b, offset) : int64(b, offset));
      case TIMESTAMP -> timestamp(out, int64(b, offset));
      case INT96 -> int96(out, int64(b, offset), int32(b, offset + 8));
      case FLOAT -> floating(out, Float.intBitsToFloat(int32(b, offset)));
      case DOUBLE -> floating(out, Double.longBitsToDouble(int64(b, offset)));
      case FLOAT16 -> floating(out, HalfFloat.toFloat((short) ((b[offset] & 0xff) | (b[offset + 1] & 0xff) << 8)));
      case STRING -> Json.string(out, new String(b, offset, length, StandardCharsets.UTF_8));
      case UUID -> uuid(out, b, offset);
      case INTERVAL -> out.append("{\"months\": ").append(Integer.toUnsignedLong(int32(b, offset)))
          .append(", \"days\": ").append(Integer.toUnsignedLong(int32(b, offset + 4)))
          .append(", \"millis\": ").append(Integer.toUnsignedLong(int32(b, offset + 8))).append('}');
      case GEOSPATIAL -> geospatial(out, b, offset, length);
      case BASE64 -> base64(out, b, offset, length);
    }
  }

  private static int int32(byte[] b, int i) {
    return (b[i] & 0xff) | (b[i + 1] & 0xff) << 8 | (b[i + 2] & 0xff) << 16 | (b[i + 3] & 0xff) << 24;
  }

  private static long int64(byte[] b, int i) {
    return (int32(b, i) & 0xffffffffL) | (long) int32(b, i + 4) << 32;
  }

  private BigDecimal decimal(byte[] b, int offset, int length) {
    return switch (physical) {
      case INT32 -> BigDecimal.valueOf(int32(b, offset), scale);
      case INT64 -> BigDecimal.valueOf(int64(b, offset), scale);
      // Big-endian two's complement; an empty value is 0.
      default -> length == 0 ? BigDecimal.valueOf(0, scale) : new BigDecimal(new BigInteger(b, offset, length), scale);
    };
  }

  private static void date(StringBuilder out, int days) {
    out.append('"').append(LocalDate.ofEpochDay(days)).append('"');
  }

  private void time(StringBuilder out, long v) {
    if (v < 0 || v >= 86_400 * unitsPerSecond) {
      out.append(v); // not a time of day
      return;
    }
    out.append('"');
    clock(out, v / unitsPerSecond, v % unitsPerSecond, digits);
    out.append('"');
  }

  private void timestamp(StringBuilder out, long v) {
    instant(out, Math.floorDiv(v, unitsPerSecond), Math.floorMod(v, unitsPerSecond), digits, utc, v);
  }

  private static void int96(StringBuilder out, long nanosOfDay, int julianDay) {
    long day = julianDay - JULIAN_EPOCH_DAY + Math.floorDiv(nanosOfDay, NANOS_PER_DAY);
    long nanos = Math.floorMod(nanosOfDay, NANOS_PER_DAY);
    instant(out, day * 86_400 + nanos / 1_000_000_000, nanos % 1_000_000_000, 9, true, null);
  }

  /** "yyyy-mm-ddThh:mm:ss.fff[Z]" of {@code seconds} since the epoch and a fraction of {@code digits}. */
  private static void instant(StringBuilder out, long seconds, long fraction, int digits, boolean utc,
      Object fallback) {
    LocalDate date;
    try {
      date = LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC).toLocalDate();
    } catch (DateTimeException e) {
      out.append(fallback == null ? "null" : fallback.toString()); // past year 999,999,999
      return;
    }
    out.append('"').append(date).append('T');
    clock(out, Math.floorMod(seconds, 86_400L), fraction, digits);
    out.append(utc ? "Z\"" : "\"");
  }

  private static void clock(StringBuilder out, long secondOfDay, long fraction, int digits) {
    two(out, secondOfDay / 3600).append(':');
    two(out, secondOfDay / 60 % 60).append(':');
    two(out, secondOfDay % 60);
    if (digits > 0) {
      String f = Long.toString(fraction);
      out.append('.').append("0".repeat(Math.max(0, digits - f.length()))).append(f);
    }
  }

  private static StringBuilder two(StringBuilder out, long v) {
    return out.append(v < 10 ? "0" : "").append(v);
  }

  private static void floating(StringBuilder out, double v) {
    if (Double.isNaN(v)) {
      out.append("\"NaN\"");
    } else if (Double.isInfinite(v)) {
      out.append(v > 0 ? "\"Infinity\"" : "\"-Infinity\"");
    } else {
      out.append(v);
    }
  }

  private static void floating(StringBuilder out, float v) {
    if (Float.isNaN(v) || Float.isInfinite(v)) {
      floating(out, (double) v);
    } else {
      out.append(v); // the float's own shortest digits, not those of its double
    }
  }

  private static void uuid(StringBuilder out, byte[] b, int offset) {
    String hex = java.util.HexFormat.of().formatHex(b, offset, offset + 16);
    out.append('"').append(hex, 0, 8).append('-').append(hex, 8, 12).append('-').append(hex, 12, 16).append('-')
        .append(hex, 16, 20).append('-').append(hex, 20, 32).append('"');
  }

  private static void geospatial(StringBuilder out, byte[] b, int offset, int length) {
    String text;
    try {
      text = Wkb.toText(b, offset, length);
    } catch (RuntimeException e) { // IllegalArgumentException: not WKB
      String why = e.getMessage() == null ? e.toString() : e.getMessage().replaceFirst("^WKB: ", "");
      text = "base64:" + Base64.getEncoder().encodeToString(java.util.Arrays.copyOfRange(b, offset, offset + length))
          + " (not WKB: " + why + ")";
    }
    Json.string(out, text);
  }

  private static void base64(StringBuilder out, byte[] b, int offset, int length) {
    out.append('"').append(Base64.getEncoder().encodeToString(java.util.Arrays.copyOfRange(b, offset, offset + length)))
        .append('"');
  }
}
