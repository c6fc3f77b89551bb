package io.turboparquet.format;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Encodes Variant values (VariantEncoding.md) as the reference writers do, so rebuilt values equal
 * theirs byte for byte: strings under 64 bytes as short strings, the narrowest offset and field id
 * sizes, objects' fields (and their values) in key order.
 */
public final class VariantWriter {
  /** A Variant null: basic type primitive, type id 0. */
  public static final byte[] NULL = {0};

  private VariantWriter() {}

  /** One field of an object being built: its id in the metadata, its key, its encoded value. */
  public record Field(int id, String key, byte[] value) {}

  public static byte[] bool(boolean v) {
    return new byte[] {(byte) ((v ? 1 : 2) << 2)};
  }

  /** An integer or a fixed-width payload: {@code type}'s header then {@code bytes} little-endian bytes of {@code v}. */
  public static byte[] fixed(int type, long v, int bytes) {
    byte[] out = new byte[1 + bytes];
    out[0] = (byte) (type << 2);
    for (int i = 0; i < bytes; i++) {
      out[1 + i] = (byte) (v >>> (8 * i));
    }
    return out;
  }

  /** A decimal of {@code unscaled}, decimal4, 8 or 16 by {@code precision}; refused when it does not fit. */
  public static byte[] decimal(BigInteger unscaled, int scale, int precision) {
    int bytes = precision <= 9 ? 4 : precision <= 18 ? 8 : 16;
    int type = precision <= 9 ? 8 : precision <= 18 ? 9 : 10;
    VariantException.check(unscaled.bitLength() < bytes * 8, "decimal %s does not fit precision %d", unscaled, precision);
    byte[] out = new byte[2 + bytes];
    out[0] = (byte) (type << 2);
    out[1] = (byte) scale;
    byte[] big = unscaled.toByteArray(); // big-endian two's complement
    byte sign = (byte) (unscaled.signum() < 0 ? -1 : 0);
    for (int i = 0; i < bytes; i++) {
      out[2 + i] = i < big.length ? big[big.length - 1 - i] : sign;
    }
    return out;
  }

  public static byte[] string(byte[] utf8) {
    if (utf8.length < 64) {
      byte[] out = new byte[1 + utf8.length];
      out[0] = (byte) (utf8.length << 2 | VariantValue.SHORT_STRING);
      System.arraycopy(utf8, 0, out, 1, utf8.length);
      return out;
    }
    return lengthPrefixed(16, utf8);
  }

  public static byte[] binary(byte[] v) {
    return lengthPrefixed(15, v);
  }

  public static byte[] uuid(byte[] sixteen) {
    byte[] out = new byte[17];
    out[0] = (byte) (20 << 2);
    System.arraycopy(sixteen, 0, out, 1, 16); // big-endian, as stored
    return out;
  }

  private static byte[] lengthPrefixed(int type, byte[] v) {
    byte[] out = new byte[5 + v.length];
    out[0] = (byte) (type << 2);
    for (int i = 0; i < 4; i++) {
      out[1 + i] = (byte) (v.length >>> (8 * i));
    }
    System.arraycopy(v, 0, out, 5, v.length);
    return out;
  }

  public static byte[] array(List<byte[]> elements) {
    long total = 0;
    for (byte[] e : elements) {
      total += e.length;
    }
    int n = elements.size();
    int offsetSize = width(total);
    boolean large = n > 255;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write((offsetSize - 1 | (large ? 1 : 0) << 2) << 2 | VariantValue.ARRAY);
    le(out, n, large ? 4 : 1);
    long at = 0;
    for (byte[] e : elements) {
      le(out, at, offsetSize);
      at += e.length;
    }
    le(out, at, offsetSize);
    for (byte[] e : elements) {
      out.writeBytes(e);
    }
    return out.toByteArray();
  }

  /** An object of {@code fields} (unique keys), written in key order. */
  public static byte[] object(List<Field> fields) {
    List<Field> sorted = new ArrayList<>(fields);
    sorted.sort(Comparator.comparing(Field::key, VariantValue::compareUtf8));
    long total = 0;
    int maxId = 0;
    for (Field f : sorted) {
      total += f.value().length;
      maxId = Math.max(maxId, f.id());
    }
    int n = sorted.size();
    int offsetSize = width(total);
    int idSize = width(maxId);
    boolean large = n > 255;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(((offsetSize - 1) | (idSize - 1) << 2 | (large ? 1 : 0) << 4) << 2 | VariantValue.OBJECT);
    le(out, n, large ? 4 : 1);
    for (Field f : sorted) {
      le(out, f.id(), idSize);
    }
    long at = 0;
    for (Field f : sorted) {
      le(out, at, offsetSize);
      at += f.value().length;
    }
    le(out, at, offsetSize);
    for (Field f : sorted) {
      out.writeBytes(f.value());
    }
    return out.toByteArray();
  }

  /** Bytes (1-4) needed for the unsigned {@code v}. */
  private static int width(long v) {
    VariantException.check(v <= 0xFFFFFFFFL, "a value of %d bytes is too large for Variant offsets", v);
    return v <= 0xFF ? 1 : v <= 0xFFFF ? 2 : v <= 0xFFFFFF ? 3 : 4;
  }

  private static void le(ByteArrayOutputStream out, long v, int bytes) {
    for (int i = 0; i < bytes; i++) {
      out.write((int) (v >>> (8 * i)));
    }
  }

  /** UTF-8 of a key. */
  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
