package io.turboparquet.format.thrift;

import io.turboparquet.format.ParquetCorruptionException;
import java.nio.charset.StandardCharsets;

/**
 * Thrift compact protocol, reading side. Struct readers loop over {@link #readField(int)} and
 * hand every field they do not know to {@link #skip(int)}, which walks the bytes without
 * allocating. Every length and count is checked against the bytes that are left before anything
 * is allocated, so a hostile footer cannot make the reader allocate more than it holds.
 *
 * <p>Subclasses supply bytes: {@link ArrayCompactReader} (footer, page index) and
 * {@link StreamCompactReader} (page headers, which must not be read past).
 */
public abstract class CompactReader {
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

  protected final String file;
  private final int maxStringLength;

  protected CompactReader(String file, int maxStringLength) {
    this.file = file;
    this.maxStringLength = maxStringLength;
  }

  /** What is being decoded, for error messages ("footer", "row group 3 column a: page header at offset 4"). */
  protected abstract String context();

  /** Longest string or binary accepted. */
  final int maxStringLength() {
    return maxStringLength;
  }

  public final String file() {
    return file;
  }

  /** The next byte, 0..255; fails at the end of the input. */
  protected abstract int readByte() throws ParquetCorruptionException;

  /** Skips {@code n} bytes that {@link #checkLength} already allowed. */
  protected abstract void skipBytes(int n) throws ParquetCorruptionException;

  /** Copies the next {@code n} bytes, which {@link #checkLength} already allowed. */
  protected abstract byte[] readBytes(int n) throws ParquetCorruptionException;

  /** Decodes the next {@code n} bytes as UTF-8, which {@link #checkLength} already allowed. */
  protected String readUtf8(int n) throws ParquetCorruptionException {
    return new String(readBytes(n), StandardCharsets.UTF_8);
  }

  /** Bytes left, or an upper bound when the source cannot tell. */
  protected abstract long remaining();

  /** Bytes consumed so far. */
  public abstract long consumed();

  /**
   * Reads a field header. Returns -1 at the struct's STOP, else {@code id << 4 | type}; the
   * field id is either a delta to {@code lastId} (short form) or a zigzag i16 (long form).
   */
  public final int readField(int lastId) throws ParquetCorruptionException {
    int b = readByte();
    int type = b & 0x0f;
    if (type == STOP) {
      return -1;
    }
    int delta = b >>> 4;
    int id = delta != 0 ? lastId + delta : readI16("field id");
    if (id < 0 || id > Short.MAX_VALUE) {
      throw corrupt("field id " + id + " is out of range");
    }
    return id << 4 | type;
  }

  public static int fieldId(int field) {
    return field >>> 4;
  }

  public static int fieldType(int field) {
    return field & 0x0f;
  }

  /**
   * Whether {@code field} has wire type {@code expected}; if not, skips its value (as Thrift's
   * generated readers do) so the caller simply ignores the field.
   */
  public final boolean is(int field, int expected) throws ParquetCorruptionException {
    int type = field & 0x0f;
    if (type == expected || expected == BOOLEAN_TRUE && type == BOOLEAN_FALSE) {
      return true;
    }
    skip(type);
    return false;
  }

  /** A bool field's value, which the compact protocol keeps in the field header's type nibble. */
  public static boolean boolField(int field) {
    return (field & 0x0f) == BOOLEAN_TRUE;
  }

  public final int readI16(String name) throws ParquetCorruptionException {
    int v = readI32();
    if (v < Short.MIN_VALUE || v > Short.MAX_VALUE) {
      throw corrupt(name + " " + v + " does not fit in an i16");
    }
    return v;
  }

  public final int readI32() throws ParquetCorruptionException {
    int n = readVarint32();
    return (n >>> 1) ^ -(n & 1);
  }

  public final long readI64() throws ParquetCorruptionException {
    long n = readVarint64();
    return (n >>> 1) ^ -(n & 1);
  }

  /** An i8 is one raw byte, not a varint. */
  public final int readI8() throws ParquetCorruptionException {
    return (byte) readByte();
  }

  /** A bool inside a list is a whole byte. */
  public final boolean readListBool() throws ParquetCorruptionException {
    return readByte() == BOOLEAN_TRUE;
  }

  protected int readVarint32() throws ParquetCorruptionException {
    int result = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      int b = readByte();
      result |= (b & 0x7f) << shift;
      if (b < 0x80) {
        return result;
      }
    }
    throw corrupt("a varint is longer than 5 bytes");
  }

  protected long readVarint64() throws ParquetCorruptionException {
    long result = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      int b = readByte();
      result |= (long) (b & 0x7f) << shift;
      if (b < 0x80) {
        return result;
      }
    }
    throw corrupt("a varint is longer than 10 bytes");
  }

  /** A binary's length, checked against the bytes left and the configured maximum. */
  public final int readLength(String name) throws ParquetCorruptionException {
    int n = readVarint32();
    checkLength(name, n);
    return n;
  }

  private void checkLength(String name, int n) throws ParquetCorruptionException {
    if (n < 0) {
      throw corrupt(name + " has a negative length " + n);
    }
    if (n > remaining()) {
      throw corrupt(name + " is " + n + " bytes long but only " + remaining() + " bytes are left");
    }
    if (n > maxStringLength) {
      throw corrupt(name + " is " + n + " bytes long, more than the limit of " + maxStringLength);
    }
  }

  public final String readString(String name) throws ParquetCorruptionException {
    return readUtf8(readLength(name));
  }

  public final byte[] readBinary(String name) throws ParquetCorruptionException {
    return readBytes(readLength(name));
  }

  /**
   * A list or set header: returns {@code size << 4 | elementType}. Every element takes at least
   * one byte, so a size beyond the bytes left is corrupt and is refused before any allocation.
   */
  public final int readList(String name) throws ParquetCorruptionException {
    int b = readByte();
    int size = b >>> 4;
    if (size == 15) {
      size = readVarint32();
    }
    if (size < 0 || size > remaining()) {
      throw corrupt(name + " claims " + size + " elements but only " + remaining() + " bytes are left");
    }
    return size << 4 | (b & 0x0f);
  }

  /** Element count of a {@link #readList} result. */
  public static int listSize(int list) {
    return list >>> 4;
  }

  public static int listType(int list) {
    return list & 0x0f;
  }

  /** Skips a value of wire type {@code type} without allocating. */
  public void skip(int type) throws ParquetCorruptionException {
    skip(type, 0);
  }

  private void skip(int type, int depth) throws ParquetCorruptionException {
    switch (type) {
      case BOOLEAN_TRUE, BOOLEAN_FALSE -> { } // the value was in the field header
      case BYTE -> readByte();
      case I16, I32, I64 -> skipVarint();
      case DOUBLE -> {
        checkLength("a double", 8);
        skipBytes(8);
      }
      case BINARY -> skipBytes(readLength("a skipped binary"));
      case LIST, SET -> {
        int list = readList("a skipped list");
        int elementType = listType(list);
        checkDepth(depth);
        for (int i = listSize(list); i > 0; i--) {
          skipElement(elementType, depth + 1);
        }
      }
      case MAP -> {
        int size = readVarint32();
        if (size < 0 || size > remaining() / 2) {
          throw corrupt("a skipped map claims " + size + " entries but only " + remaining() + " bytes are left");
        }
        if (size > 0) {
          int kinds = readByte();
          checkDepth(depth);
          for (int i = 0; i < size; i++) {
            skipElement(kinds >>> 4, depth + 1);
            skipElement(kinds & 0x0f, depth + 1);
          }
        }
      }
      case STRUCT -> {
        checkDepth(depth);
        int last = 0;
        for (int f = readField(last); f >= 0; f = readField(last)) {
          last = fieldId(f);
          skip(fieldType(f), depth + 1);
        }
      }
      default -> throw corrupt("unknown Thrift wire type " + type);
    }
  }

  /** Inside containers a bool is a whole byte rather than part of a header. */
  private void skipElement(int type, int depth) throws ParquetCorruptionException {
    if (type == BOOLEAN_TRUE || type == BOOLEAN_FALSE) {
      readByte();
    } else {
      skip(type, depth);
    }
  }

  protected void skipVarint() throws ParquetCorruptionException {
    readVarint64();
  }

  private void checkDepth(int depth) throws ParquetCorruptionException {
    if (depth >= MAX_DEPTH) {
      throw corrupt("values are nested more than " + MAX_DEPTH + " levels deep");
    }
  }

  /** A corruption error naming the file, what is being decoded and the byte offset in it. */
  public final ParquetCorruptionException corrupt(String message) {
    return new ParquetCorruptionException(file, context() + ": " + message + " (at byte " + consumed() + ")");
  }

  /** Fails unless a required field was seen. */
  public final void require(boolean seen, String field) throws ParquetCorruptionException {
    if (!seen) {
      throw corrupt("required field " + field + " is missing");
    }
  }

  /** Fails when a size, count or offset is negative. */
  public final void nonNegative(long value, String field) throws ParquetCorruptionException {
    if (value < 0) {
      throw corrupt(field + " is negative: " + value);
    }
  }
}
