package io.turboparquet.format.thrift;

import io.turboparquet.format.ColumnStatistics;
import io.turboparquet.format.ParquetCorruptionException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Thrift compact protocol over one byte array: the only reader every struct decoder uses (footer,
 * page index, bloom filter header, page header). Struct decoders loop over {@link #readField}
 * and hand what they do not want to {@link #skip}, which walks the bytes without allocating.
 * Every length and count is checked against the bytes that are left before anything is allocated,
 * so a hostile struct cannot make the reader allocate more than it holds.
 *
 * <p>{@link #skip} is a tight walk over local positions; it checks lengths, counts and depth but not
 * field ids, which nothing skipped is judged by.
 */
public final class ThriftCursor {
  public static final int STOP = 0;
  public static final int BOOLEAN_TRUE = 1;
  public static final int BOOLEAN_FALSE = 2;
  public static final int BYTE = 3;
  public static final int I16 = 4;
  public static final int I32 = 5;
  public static final int I64 = 6;
  public static final int DOUBLE = 7;
  public static final int BINARY = 8;
  public static final int LIST = 9;
  public static final int SET = 10;
  public static final int MAP = 11;
  public static final int STRUCT = 12;

  /** Nesting deeper than this is hostile: parquet.thrift never nests more than a few levels. */
  static final int MAX_DEPTH = 64;

  private final String file;
  private final int maxStringLength;
  private String what;
  // For a page header: the row group and column, and its file offset (the message is built on error).
  private String where;
  private long offset = -1;
  private byte[] buf;
  private int start;
  private int limit;
  private int pos;
  private boolean ranOut;

  /** A cursor over {@code buf[offset, offset + length)}; {@code what} names it in errors ("footer"). */
  public ThriftCursor(String file, String what, byte[] buf, int offset, int length, int maxStringLength) {
    if (offset < 0 || length < 0 || offset > buf.length - length) {
      throw new IllegalArgumentException("range [" + offset + ", +" + length + ") outside " + buf.length + " bytes");
    }
    this.file = file;
    this.what = what;
    this.maxStringLength = maxStringLength;
    this.buf = buf;
    this.start = offset;
    this.limit = offset + length;
    this.pos = offset;
  }

  /**
   * Starts over on {@code buf[0, length)}: a struct ({@code what}, e.g. "page header") at file
   * offset {@code offset}, {@code where} naming its row group and column in errors. No allocation.
   */
  ThriftCursor reset(byte[] buf, int length, String where, String what, long offset) {
    this.buf = buf;
    this.start = 0;
    this.limit = length;
    this.pos = 0;
    this.where = where;
    this.what = what;
    this.offset = offset;
    this.ranOut = false;
    return this;
  }

  /** Whether the last error was the bytes running out (rather than bytes that are wrong). */
  boolean ranOut() {
    return ranOut;
  }

  public String file() {
    return file;
  }

  int maxStringLength() {
    return maxStringLength;
  }

  /** Bytes consumed since the start: the position to {@link #seek} back to. */
  public int position() {
    return pos - start;
  }

  /** Returns to a {@link #position()} reported earlier. */
  void seek(int position) {
    if (position < 0 || position > limit - start) {
      throw new IllegalArgumentException("position " + position);
    }
    pos = start + position;
  }

  private int readByte() throws ParquetCorruptionException {
    if (pos < limit) {
      return buf[pos++] & 0xff;
    }
    throw truncated(pos);
  }

  private ParquetCorruptionException truncated(int at) {
    return shortOf(at, "unexpected end of the data (" + (limit - start) + " bytes)");
  }

  /** An error of bytes running out at {@code at}. */
  private ParquetCorruptionException shortOf(int at, String message) {
    ranOut = true;
    return at(at, message);
  }

  private ParquetCorruptionException at(int at, String message) {
    pos = at;
    return corrupt(message);
  }

  /**
   * Reads a field header. Returns -1 at the struct's STOP, else {@code id << 4 | type}; the id is
   * a delta to {@code lastId} (short form) or a zigzag i16 (long form).
   */
  public int readField(int lastId) throws ParquetCorruptionException {
    int b = readByte();
    int type = b & 0x0f;
    if (type == STOP) {
      return -1;
    }
    int id = lastId + (b >>> 4);
    if (id == lastId || id > Short.MAX_VALUE) {
      return longField(id == lastId, id, type);
    }
    return id << 4 | type;
  }

  /** A long-form field id (delta 0), or the error of an id past an i16; apart so readField inlines. */
  private int longField(boolean longForm, int id, int type) throws ParquetCorruptionException {
    if (longForm) {
      id = readI16("field id");
    }
    if (id < 0 || id > Short.MAX_VALUE) {
      throw corrupt("field id " + id + " is out of range");
    }
    return id << 4 | type;
  }

  /**
   * Skips the value of {@code field} (whose header was just read); returns the next field header.
   *
   * <p>The end of a pass of a struct reader that takes its fields in id order, the order every
   * writer uses: one {@code if} per field it wants, each comparing the header with the id and
   * wire type it expects and reading the next header after the value, so a struct in id order is
   * read without a dispatch. The pass loops until STOP; a pass that took nothing hands the field
   * here (an unknown id, another wire type, which Thrift's generated readers skip too), and a field
   * that comes after a higher id is taken by the next pass, so any order decodes the same
   * ({@code FieldOrderTest}). Every struct is read so but the unions (LogicalType, TimeUnit, the
   * bloom filter's), whose one member is found by a switch.
   */
  public int skipField(int field) throws ParquetCorruptionException {
    skip(fieldType(field));
    return readField(fieldId(field));
  }

  public static int fieldId(int field) {
    return field >>> 4;
  }

  public static int fieldType(int field) {
    return field & 0x0f;
  }

  /** Whether {@code field} is a bool, whose value the compact protocol keeps in the header's type. */
  public static boolean isBool(int field) {
    int type = field & 0x0f;
    return type == BOOLEAN_TRUE || type == BOOLEAN_FALSE;
  }

  /** A bool field's value, which the compact protocol keeps in the field header's type nibble. */
  public static boolean boolField(int field) {
    return (field & 0x0f) == BOOLEAN_TRUE;
  }

  public int readI16(String name) throws ParquetCorruptionException {
    int v = readI32();
    if (v < Short.MIN_VALUE || v > Short.MAX_VALUE) {
      throw corrupt(name + " " + v + " does not fit in an i16");
    }
    return v;
  }

  public int readI32() throws ParquetCorruptionException {
    int n = varint32();
    return (n >>> 1) ^ -(n & 1);
  }

  public long readI64() throws ParquetCorruptionException {
    long n = varint64();
    return (n >>> 1) ^ -(n & 1);
  }

  /** An i8 is one raw byte, not a varint. */
  public int readI8() throws ParquetCorruptionException {
    return (byte) readByte();
  }

  /** A double is 8 raw bytes, little-endian. */
  public double readDouble() throws ParquetCorruptionException {
    long bits = 0;
    for (int i = 0; i < 8; i++) {
      bits |= (long) readByte() << (8 * i);
    }
    return Double.longBitsToDouble(bits);
  }

  /** A bool inside a list is a whole byte. */
  public boolean readListBool() throws ParquetCorruptionException {
    return readByte() == BOOLEAN_TRUE;
  }

  /** A varint of at most 5 bytes; bits beyond 32 are dropped, as Thrift's own reader drops them. */
  private int varint32() throws ParquetCorruptionException {
    int from = pos;
    long v = varint64();
    if (pos - from > 5) {
      throw at(pos, "a varint is longer than 5 bytes");
    }
    return (int) v;
  }

  private long varint64() throws ParquetCorruptionException {
    byte[] b = buf;
    int p = pos;
    long result = 0;
    if (limit - p >= 10) {
      // Offsets and sizes take two to four bytes: those unrolled, longer ones looped.
      long v = b[p];
      if (v >= 0) {
        pos = p + 1;
        return v;
      }
      result = v & 0x7f;
      v = b[p + 1];
      if (v >= 0) {
        pos = p + 2;
        return result | v << 7;
      }
      result |= (v & 0x7f) << 7;
      v = b[p + 2];
      if (v >= 0) {
        pos = p + 3;
        return result | v << 14;
      }
      result |= (v & 0x7f) << 14;
      v = b[p + 3];
      if (v >= 0) {
        pos = p + 4;
        return result | v << 21;
      }
      result |= (v & 0x7f) << 21;
      p += 4;
      for (int shift = 28; shift < 70; shift += 7) {
        v = b[p++];
        result |= (v & 0x7f) << shift;
        if (v >= 0) {
          pos = p;
          return result;
        }
      }
      throw at(p, "a varint is longer than 10 bytes");
    }
    for (int shift = 0; shift < 70; shift += 7) {
      int v = readByte();
      result |= (long) (v & 0x7f) << shift;
      if (v < 0x80) {
        return result;
      }
    }
    throw corrupt("a varint is longer than 10 bytes");
  }

  /** A binary's length, checked against the bytes left and the configured maximum. */
  public int readLength(String name) throws ParquetCorruptionException {
    int n = varint32();
    checkLength(pos, n, name);
    return n;
  }

  private void checkLength(int p, int n, String name) throws ParquetCorruptionException {
    if (n < 0) {
      throw at(p, name + " has a negative length " + n);
    }
    if (n > limit - p) {
      throw shortOf(p, name + " is " + n + " bytes long but only " + (limit - p) + " bytes are left");
    }
    if (n > maxStringLength) {
      throw at(p, name + " is " + n + " bytes long, more than the limit of " + maxStringLength);
    }
  }

  public String readString(String name) throws ParquetCorruptionException {
    int n = readLength(name);
    String s = new String(buf, pos, n, StandardCharsets.UTF_8);
    pos += n;
    return s;
  }

  public byte[] readBinary(String name) throws ParquetCorruptionException {
    int n = readLength(name);
    byte[] out = Arrays.copyOfRange(buf, pos, pos + n);
    pos += n;
    return out;
  }

  /**
   * A binary left where it is: its offset in {@link #bytes()} and length as
   * {@link ColumnStatistics#span}, checked as {@link #readBinary} checks them.
   */
  long readSpan(String name) throws ParquetCorruptionException {
    int n = readLength(name);
    long span = ColumnStatistics.span(pos, n);
    pos += n;
    return span;
  }

  /** The text of a binary {@link #readSpan} located. */
  String string(long span) {
    return new String(buf, (int) (span >>> 32), (int) span, StandardCharsets.UTF_8);
  }

  /** The array the cursor reads (spans are offsets in it). */
  byte[] bytes() {
    return buf;
  }

  /**
   * A list or set header: returns {@code size << 4 | elementType}. Every element takes at least
   * one byte, so a size beyond the bytes left is corrupt and is refused before any allocation.
   */
  public int readList(String name) throws ParquetCorruptionException {
    int b = readByte();
    int size = b >>> 4;
    if (size == 15) {
      size = varint32();
    }
    if (size < 0 || size > limit - pos) {
      throw shortOf(pos, name + " claims " + size + " elements but only " + (limit - pos) + " bytes are left");
    }
    if ((b & 0x0f) > STRUCT) { // Thrift refuses such a list even when it is empty
      throw at(pos, name + " has elements of unknown wire type " + (b & 0x0f));
    }
    return size << 4 | (b & 0x0f);
  }

  /**
   * The size of a list whose elements must be of wire type {@code type} (any type when empty; for
   * bools, either bool type: writers differ).
   */
  public int readList(String name, int type) throws ParquetCorruptionException {
    int list = readList(name);
    int actual = listType(list) == BOOLEAN_FALSE ? BOOLEAN_TRUE : listType(list);
    if (actual != type && listSize(list) > 0) {
      throw corrupt(name + " is a list of wire type " + listType(list));
    }
    return listSize(list);
  }

  public static int listSize(int list) {
    return list >>> 4;
  }

  public static int listType(int list) {
    return list & 0x0f;
  }

  /** Skips a value of wire type {@code type} without allocating. */
  public void skip(int type) throws ParquetCorruptionException {
    pos = value(pos, type, 0);
  }

  /** The position after the value of wire type {@code type} at {@code p}. */
  private int value(int p, int type, int depth) throws ParquetCorruptionException {
    return switch (type) {
      case BOOLEAN_TRUE, BOOLEAN_FALSE -> p; // the value was in the field header
      case I16, I32, I64 -> varintEnd(p);
      case BINARY -> binaryEnd(p);
      case STRUCT -> structEnd(p, depth);
      case LIST, SET -> listEnd(p, depth);
      case BYTE -> fixedEnd(p, 1);
      case DOUBLE -> fixedEnd(p, 8);
      case MAP -> mapEnd(p, depth);
      default -> throw at(p, "unknown Thrift wire type " + type);
    };
  }

  private int structEnd(int p, int depth) throws ParquetCorruptionException {
    checkDepth(p, depth);
    byte[] b = buf;
    while (true) {
      if (p >= limit) {
        throw truncated(p);
      }
      int header = b[p++];
      int type = header & 0x0f;
      if (type == STOP) {
        return p;
      }
      if ((header & 0xf0) == 0) {
        p = varintEnd(p); // a long-form field id
      }
      switch (type) {
        case BOOLEAN_TRUE, BOOLEAN_FALSE -> { }
        case I16, I32, I64 -> p = varintEnd(p);
        case BINARY -> p = binaryEnd(p);
        default -> p = value(p, type, depth + 1);
      }
    }
  }

  private int listEnd(int p, int depth) throws ParquetCorruptionException {
    pos = p;
    int list = readList("a skipped list");
    p = pos;
    int type = listType(list);
    int n = listSize(list);
    if (n == 0) {
      return p;
    }
    checkDepth(p, depth);
    switch (type) {
      case BOOLEAN_TRUE, BOOLEAN_FALSE, BYTE -> p = fixedEnd(p, n); // a bool in a list is a whole byte
      case I16, I32, I64 -> {
        for (int i = 0; i < n; i++) {
          p = varintEnd(p);
        }
      }
      case BINARY -> {
        for (int i = 0; i < n; i++) {
          p = binaryEnd(p);
        }
      }
      default -> {
        for (int i = 0; i < n; i++) {
          p = value(p, type, depth + 1);
        }
      }
    }
    return p;
  }

  private int mapEnd(int p, int depth) throws ParquetCorruptionException {
    pos = p;
    int size = varint32();
    p = pos;
    if (size < 0 || size > (limit - p) / 2) {
      throw shortOf(p, "a skipped map claims " + size + " entries but only " + (limit - p) + " bytes are left");
    }
    if (size == 0) {
      return p;
    }
    if (p >= limit) {
      throw truncated(p);
    }
    int kinds = buf[p++] & 0xff;
    checkDepth(p, depth);
    for (int i = 0; i < size; i++) {
      p = element(p, kinds >>> 4, depth + 1);
      p = element(p, kinds & 0x0f, depth + 1);
    }
    return p;
  }

  /** Inside containers a bool is a whole byte rather than part of a header. */
  private int element(int p, int type, int depth) throws ParquetCorruptionException {
    return type == BOOLEAN_TRUE || type == BOOLEAN_FALSE ? fixedEnd(p, 1) : value(p, type, depth);
  }

  private int fixedEnd(int p, int n) throws ParquetCorruptionException {
    if (n > limit - p) {
      throw shortOf(p, n + " bytes are needed but only " + (limit - p) + " are left");
    }
    return p + n;
  }

  private int varintEnd(int p) throws ParquetCorruptionException {
    byte[] b = buf;
    for (int end = Math.min(limit, p + 10); p < end; ) {
      if (b[p++] >= 0) {
        return p;
      }
    }
    throw p >= limit ? truncated(p) : at(p, "a varint is longer than 10 bytes");
  }

  private int binaryEnd(int p) throws ParquetCorruptionException {
    int n;
    if (p < limit && buf[p] >= 0) { // lengths under 128: most of them
      n = buf[p++];
    } else {
      pos = p;
      n = varint32();
      p = pos;
    }
    checkLength(p, n, "a skipped binary");
    return p + n;
  }

  private void checkDepth(int p, int depth) throws ParquetCorruptionException {
    if (depth >= MAX_DEPTH) {
      throw at(p, "values are nested more than " + MAX_DEPTH + " levels deep");
    }
  }

  /** A corruption error naming the file, what is being decoded and the byte offset in it. */
  public ParquetCorruptionException corrupt(String message) {
    return new ParquetCorruptionException(file, context() + ": " + message + " (at byte " + position() + ")");
  }

  private String context() {
    return offset < 0 ? what : where + ": " + what + " at offset " + offset;
  }

  /** Fails unless a required field was seen. */
  public void require(boolean seen, String field) throws ParquetCorruptionException {
    if (!seen) {
      throw corrupt("required field " + field + " is missing");
    }
  }

  /** Fails when a size, count or offset is negative. */
  public void nonNegative(long value, String field) throws ParquetCorruptionException {
    if (value < 0) {
      throw corrupt(field + " is negative: " + value);
    }
  }
}
