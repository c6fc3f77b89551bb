package io.turboparquet.format.thrift;

import io.turboparquet.format.ParquetCorruptionException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Compact protocol over {@code bytes[offset, offset + length)}: the footer and page-index path. */
public final class ArrayCompactReader extends CompactReader {
  private final byte[] buf;
  private final int start;
  private final int limit;
  private final String what;
  private int pos;

  public ArrayCompactReader(String file, String what, byte[] buf, int offset, int length, int maxStringLength) {
    super(file, maxStringLength);
    this.what = what;
    if (offset < 0 || length < 0 || offset > buf.length - length) {
      throw new IllegalArgumentException("range [" + offset + ", +" + length + ") outside " + buf.length + " bytes");
    }
    this.buf = buf;
    this.start = offset;
    this.limit = offset + length;
    this.pos = offset;
  }

  @Override
  protected String context() {
    return what;
  }

  @Override
  protected int readByte() throws ParquetCorruptionException {
    if (pos >= limit) {
      throw truncated();
    }
    return buf[pos++] & 0xff;
  }

  @Override
  protected void skipBytes(int n) {
    pos += n;
  }

  @Override
  protected byte[] readBytes(int n) {
    byte[] out = Arrays.copyOfRange(buf, pos, pos + n);
    pos += n;
    return out;
  }

  @Override
  protected String readUtf8(int n) {
    String s = new String(buf, pos, n, StandardCharsets.UTF_8);
    pos += n;
    return s;
  }

  @Override
  protected long remaining() {
    return limit - pos;
  }

  @Override
  public long consumed() {
    return pos - start;
  }

  /**
   * A binary that equals {@code same} byte for byte comes back as {@code same} instead of a copy:
   * writers store a chunk's bounds twice (the deprecated min/max and min_value/max_value).
   */
  byte[] readBinaryOr(byte[] same, String name) throws ParquetCorruptionException {
    int n = readLength(name);
    if (same != null && same.length == n && sameBytes(same, pos)) {
      pos += n;
      return same;
    }
    return readBytes(n);
  }

  // Bounds are a few bytes long: a plain loop beats Arrays.equals' setup.
  private boolean sameBytes(byte[] same, int at) {
    for (int i = 0; i < same.length; i++) {
      if (same[i] != buf[at + i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * The tight loop of {@link CompactSkipper} first; whatever it declines, the checked walk of the
   * superclass either skips too or reports by name.
   */
  @Override
  public void skip(int type) throws ParquetCorruptionException {
    int end = CompactSkipper.skip(buf, pos, limit, type, maxStringLength());
    if (end >= 0) {
      pos = end;
    } else {
      super.skip(type);
    }
  }

  /**
   * Skips a ColumnChunk struct: by a shape of {@code shapes} or {@link ChunkSkipper} first, the
   * checked walk for what they decline.
   */
  void skipColumnChunk(ChunkShapes shapes) throws ParquetCorruptionException {
    int end = shapes.skip(buf, pos, limit);
    if (end >= 0) {
      pos = end;
    } else {
      super.skip(STRUCT);
    }
  }

  /** Consumes the next byte if it is {@code value} (a field header or STOP the caller expects). */
  boolean take(int value) {
    if (pos < limit && buf[pos] == (byte) value) {
      pos++;
      return true;
    }
    return false;
  }

  /** Offset of the next byte relative to the start, for {@link #seek}. */
  public int position() {
    return pos - start;
  }

  /** Returns to a position {@link #position()} reported earlier. */
  public void seek(int position) {
    if (position < 0 || position > limit - start) {
      throw new IllegalArgumentException("position " + position);
    }
    pos = start + position;
  }

  // Most varints are one or two bytes; with 10 bytes to spare the loop needs no end check.
  @Override
  protected int readVarint32() throws ParquetCorruptionException {
    if (limit - pos < 5) {
      return super.readVarint32();
    }
    byte[] b = buf;
    int p = pos;
    int v = b[p++];
    if (v >= 0) {
      pos = p;
      return v;
    }
    int result = v & 0x7f;
    for (int shift = 7; shift < 35; shift += 7) {
      v = b[p++];
      result |= (v & 0x7f) << shift;
      if (v >= 0) {
        pos = p;
        return result;
      }
    }
    pos = p;
    throw corrupt("a varint is longer than 5 bytes");
  }

  @Override
  protected long readVarint64() throws ParquetCorruptionException {
    if (limit - pos < 10) {
      return super.readVarint64();
    }
    byte[] b = buf;
    int p = pos;
    long result = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      int v = b[p++];
      result |= (long) (v & 0x7f) << shift;
      if (v >= 0) {
        pos = p;
        return result;
      }
    }
    pos = p;
    throw corrupt("a varint is longer than 10 bytes");
  }

  @Override
  protected void skipVarint() throws ParquetCorruptionException {
    int p = pos;
    int end = Math.min(limit, p + 10);
    while (p < end) {
      if (buf[p++] >= 0) {
        pos = p;
        return;
      }
    }
    pos = p;
    if (p >= limit) {
      throw truncated();
    }
    throw corrupt("a varint is longer than 10 bytes");
  }

  private ParquetCorruptionException truncated() {
    return corrupt("unexpected end of the data (" + (limit - start) + " bytes)");
  }
}
