package io.turboparquet.format;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.UUID;

/**
 * A Variant as JSON text, by Spark's {@code to_json} conventions: compact, object keys in stored
 * (sorted) order; integers and decimals as numbers (decimals plain, trailing zeros stripped); NaN
 * and infinities quoted; dates {@code "2024-11-07"}; timestamps with six (nanosecond types: nine)
 * fraction digits, {@code "2024-11-07 12:33:54.123456+00:00"} in UTC when adjusted to UTC, without
 * offset otherwise; times {@code "12:33:54.123456"}; binary as base64; UUIDs in their text form.
 */
public final class VariantJson {
  private static final DateTimeFormatter MICROS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");
  private static final DateTimeFormatter NANOS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSSSSS");
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSS");

  private VariantJson() {}

  /** The JSON of a Variant binary (metadata then value, nothing after); checked in full. */
  public static String of(byte[] variant) {
    VariantMetadata m = VariantMetadata.parse(variant, 0, variant.length);
    VariantValue v = VariantValue.parse(m, variant, m.length(), variant.length);
    VariantException.check(m.length() + v.size() == variant.length, "%d bytes after the value",
        variant.length - m.length() - v.size());
    StringBuilder out = new StringBuilder();
    append(out, v);
    return out.toString();
  }

  public static void append(StringBuilder out, VariantValue v) {
    switch (v.basicType()) {
      case VariantValue.SHORT_STRING -> string(out, new String(v.payloadBytes(), StandardCharsets.UTF_8));
      case VariantValue.OBJECT -> {
        out.append('{');
        for (int i = 0; i < v.count(); i++) {
          if (i > 0) {
            out.append(',');
          }
          string(out, v.key(i));
          out.append(':');
          append(out, v.element(i));
        }
        out.append('}');
      }
      case VariantValue.ARRAY -> {
        out.append('[');
        for (int i = 0; i < v.count(); i++) {
          if (i > 0) {
            out.append(',');
          }
          append(out, v.element(i));
        }
        out.append(']');
      }
      default -> primitive(out, v);
    }
  }

  private static void primitive(StringBuilder out, VariantValue v) {
    int type = v.primitiveType();
    switch (type) {
      case 0 -> out.append("null");
      case 1 -> out.append("true");
      case 2 -> out.append("false");
      case 3 -> out.append(v.payloadLong(0, 1));
      case 4 -> out.append(v.payloadLong(0, 2));
      case 5 -> out.append(v.payloadLong(0, 4));
      case 6 -> out.append(v.payloadLong(0, 8));
      case 7 -> floating(out, Double.longBitsToDouble(v.payloadLong(0, 8)), Double.toString(Double.longBitsToDouble(v.payloadLong(0, 8))));
      case 14 -> {
        float f = Float.intBitsToFloat((int) v.payloadLong(0, 4));
        floating(out, f, Float.toString(f));
      }
      case 8, 9, 10 -> out.append(decimal(v, type == 8 ? 4 : type == 9 ? 8 : 16).toPlainString());
      case 11 -> quoted(out, LocalDate.ofEpochDay(v.payloadLong(0, 4)).toString());
      case 12 -> quoted(out, MICROS.format(micros(v.payloadLong(0, 8))) + "+00:00");
      case 13 -> quoted(out, MICROS.format(micros(v.payloadLong(0, 8))));
      case 18 -> quoted(out, NANOS.format(nanos(v.payloadLong(0, 8))) + "+00:00");
      case 19 -> quoted(out, NANOS.format(nanos(v.payloadLong(0, 8))));
      case 17 -> {
        long us = v.payloadLong(0, 8);
        VariantException.check(us >= 0 && us < 86_400_000_000L, "time %d is outside a day", us);
        quoted(out, TIME.format(LocalTime.ofNanoOfDay(us * 1000)));
      }
      case 15 -> quoted(out, Base64.getEncoder().encodeToString(v.payloadBytes()));
      case 16 -> string(out, new String(v.payloadBytes(), StandardCharsets.UTF_8));
      case 20 -> {
        long hi = 0;
        long lo = 0;
        for (int i = 0; i < 8; i++) {
          hi = hi << 8 | v.payloadByte(i);
          lo = lo << 8 | v.payloadByte(8 + i);
        }
        quoted(out, new UUID(hi, lo).toString());
      }
      default -> throw new VariantException("unknown primitive type " + type);
    }
  }

  private static void floating(StringBuilder out, double d, String text) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      quoted(out, text); // JSON has no such numbers: quoted, as Jackson (Spark's generator) writes them
    } else {
      out.append(text);
    }
  }

  private static BigDecimal decimal(VariantValue v, int bytes) {
    int scale = v.payloadByte(0);
    byte[] big = new byte[bytes];
    for (int i = 0; i < bytes; i++) {
      big[i] = (byte) v.payloadByte(bytes - i); // little-endian payload after the scale byte
    }
    BigDecimal d = new BigDecimal(new BigInteger(big), scale).stripTrailingZeros();
    return d.scale() < 0 ? d.setScale(0) : d;
  }

  private static LocalDateTime micros(long us) {
    return LocalDateTime.ofInstant(Instant.ofEpochSecond(Math.floorDiv(us, 1_000_000L),
        Math.floorMod(us, 1_000_000L) * 1000), ZoneOffset.UTC);
  }

  private static LocalDateTime nanos(long ns) {
    return LocalDateTime.ofInstant(Instant.ofEpochSecond(Math.floorDiv(ns, 1_000_000_000L),
        Math.floorMod(ns, 1_000_000_000L)), ZoneOffset.UTC);
  }

  private static void quoted(StringBuilder out, String s) {
    out.append('"').append(s).append('"');
  }

  /** A JSON string literal: quotes, backslashes and control characters escaped. */
  public static void string(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          if (c < 0x20) {
            out.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
