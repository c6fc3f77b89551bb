package io.turboparquet.fuzz;

import java.util.ArrayList;
import java.util.List;

/**
 * Finds the integer-like values of a Thrift compact-protocol struct in a byte array: i16/i32/i64
 * fields (zigzag varints) and the unsigned varints of binary lengths and collection sizes, with
 * their byte ranges, so a mutation can rewrite them. Not a decoder: it stops quietly at the first
 * thing it cannot walk and returns what it found up to there.
 */
final class ThriftFields {
  private static final int MAX_DEPTH = 32;

  /**
   * A varint at {@code [start, start + length)}; {@code zigzag} for i16/i32/i64 fields, whose
   * {@code id} is the field id and {@code depth} the struct nesting (0: the top struct); binary
   * lengths, collection sizes and collection elements have id -1.
   */
  record Field(int start, int length, boolean zigzag, long value, int id, int depth) {}

  private final byte[] buf;
  private final int end;
  private final List<Field> found = new ArrayList<>();
  private int pos;
  private int fieldId = -1;

  private ThriftFields(byte[] buf, int start, int end) {
    this.buf = buf;
    this.pos = start;
    this.end = end;
  }

  /** The varints of the struct starting at {@code start}, walking no further than {@code end}. */
  static List<Field> locate(byte[] buf, int start, int end) {
    ThriftFields w = new ThriftFields(buf, start, Math.min(end, buf.length));
    try {
      w.struct(0);
    } catch (IndexOutOfBoundsException | IllegalStateException e) {
      // Partial walks are fine: mutations only need some fields.
    }
    return w.found;
  }

  private void struct(int depth) {
    check(depth < MAX_DEPTH);
    int id = 0;
    while (true) {
      int header = next();
      if (header == 0) {
        return;
      }
      int type = header & 0x0f;
      if ((header >>> 4) == 0) {
        long raw = varint(); // long-form field id
        id = (int) ((raw >>> 1) ^ -(raw & 1));
      } else {
        id += header >>> 4;
      }

      fieldId = id;
      value(type, depth, true);
    }
  }

  private void value(int type, int depth, boolean inStruct) {
    switch (type) {
      case 1, 2 -> {
        if (!inStruct) {
          next(); // a bool element of a collection takes a byte; a bool field lives in its header
        }
      }
      case 3 -> next();
      case 4, 5, 6 -> record(true, inStruct ? fieldId : -1, depth);
      case 7 -> skip(8);
      case 8 -> skip((int) record(false, -1, depth));
      case 9, 10 -> {
        int h = next();
        long size = (h >>> 4) & 0x0f;
        if (size == 15) {
          size = record(false, -1, depth);
        }
        elements(size, h & 0x0f, depth);
      }
      case 11 -> {
        long size = record(false, -1, depth);
        if (size > 0) {
          int kv = next();
          for (long i = 0; i < size; i++) {
            value(kv >>> 4, depth + 1, false);
            value(kv & 0x0f, depth + 1, false);
          }
        }
      }
      case 12 -> struct(depth + 1);
      default -> throw new IllegalStateException("wire type " + type);
    }
  }

  private void elements(long size, int type, int depth) {
    check(size >= 0 && size <= end - pos);
    for (long i = 0; i < size; i++) {
      value(type, depth + 1, false);
    }
  }

  private long record(boolean zigzag, int id, int depth) {
    int start = pos;
    long raw = varint();
    long value = zigzag ? (raw >>> 1) ^ -(raw & 1) : raw;
    found.add(new Field(start, pos - start, zigzag, value, id, depth));
    return value;
  }

  private long varint() {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int b = next();
      v |= (long) (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        return v;
      }
    }
    throw new IllegalStateException("varint too long");
  }

  private void skip(int n) {
    check(n >= 0 && n <= end - pos);
    pos += n;
  }

  private int next() {
    if (pos >= end) {
      throw new IndexOutOfBoundsException("end of struct bytes");
    }
    return buf[pos++] & 0xff;
  }

  private static void check(boolean ok) {
    if (!ok) {
      throw new IllegalStateException("not walkable");
    }
  }

  /** The varint bytes of {@code value} (zigzag-encoded first when asked). */
  static byte[] encode(long value, boolean zigzag) {
    long v = zigzag ? (value << 1) ^ (value >> 63) : value;
    byte[] out = new byte[10];
    int n = 0;
    while ((v & ~0x7fL) != 0) {
      out[n++] = (byte) ((v & 0x7f) | 0x80);
      v >>>= 7;
    }
    out[n++] = (byte) v;
    return java.util.Arrays.copyOf(out, n);
  }

  /**
   * {@code value} as a varint of exactly {@code length} bytes: padded with redundant continuation
   * bytes when shorter (decoders accept them), clamped to the largest magnitude of its sign that
   * fits when longer, so a page header keeps its size and the page body stays where it was.
   */
  static byte[] encodeFixed(long value, boolean zigzag, int length) {
    int bits = Math.min(63, 7 * length);
    long v = zigzag ? (value << 1) ^ (value >> 63) : value;
    if (length < 10 && (v >>> bits) != 0) {
      long max = (1L << bits) - 1;
      v = zigzag ? (value < 0 ? max : max - 1) : max; // odd zigzag codes are negative
    }
    byte[] out = new byte[length];
    for (int i = 0; i < length; i++) {
      out[i] = (byte) ((v & 0x7f) | (i < length - 1 ? 0x80 : 0));
      v >>>= 7;
    }
    return out;
  }
}
