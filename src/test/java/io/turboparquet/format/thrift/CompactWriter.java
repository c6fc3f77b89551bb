package io.turboparquet.format.thrift;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;

/** Writes Thrift compact bytes by hand, so tests can build footers and headers writers never would. */
public final class CompactWriter {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final Deque<Integer> lastIds = new ArrayDeque<>();
  private int lastId;

  /** A field header in short form when the delta allows it, else long form. */
  public CompactWriter field(int id, int type) {
    int delta = id - lastId;
    if (delta > 0 && delta <= 15) {
      out.write(delta << 4 | type);
    } else {
      out.write(type);
      varint(zigzag(id));
    }
    lastId = id;
    return this;
  }

  /** A field header forced into the long form. */
  public CompactWriter longField(int id, int type) {
    out.write(type);
    varint(zigzag(id));
    lastId = id;
    return this;
  }

  public CompactWriter beginStruct() {
    lastIds.push(lastId);
    lastId = 0;
    return this;
  }

  public CompactWriter stop() {
    out.write(0);
    if (!lastIds.isEmpty()) {
      lastId = lastIds.pop();
    }
    return this;
  }

  public CompactWriter i32(int id, int v) {
    field(id, ThriftCursor.I32);
    varint(zigzag(v));
    return this;
  }

  public CompactWriter i64(int id, long v) {
    field(id, ThriftCursor.I64);
    varint(zigzag(v));
    return this;
  }

  public CompactWriter bool(int id, boolean v) {
    return field(id, v ? ThriftCursor.BOOLEAN_TRUE : ThriftCursor.BOOLEAN_FALSE);
  }

  public CompactWriter string(int id, String s) {
    field(id, ThriftCursor.BINARY);
    return rawString(s);
  }

  public CompactWriter rawString(String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    varint(b.length);
    out.write(b, 0, b.length);
    return this;
  }

  public CompactWriter struct(int id) {
    field(id, ThriftCursor.STRUCT);
    return beginStruct();
  }

  /** A list header; sizes above 14 use the long form. */
  public CompactWriter list(int id, int elementType, int size) {
    field(id, ThriftCursor.LIST);
    return listHeader(elementType, size);
  }

  public CompactWriter listHeader(int elementType, int size) {
    if (size < 15) {
      out.write(size << 4 | elementType);
    } else {
      out.write(0xf0 | elementType);
      varint(size);
    }
    return this;
  }

  public CompactWriter rawZigzag(long v) {
    varint(zigzag(v));
    return this;
  }

  public CompactWriter raw(int... bytes) {
    for (int b : bytes) {
      out.write(b);
    }
    return this;
  }

  public CompactWriter raw(byte[] bytes) {
    out.write(bytes, 0, bytes.length);
    return this;
  }

  public CompactWriter varint(long v) {
    while ((v & ~0x7fL) != 0) {
      out.write((int) (v & 0x7f) | 0x80);
      v >>>= 7;
    }
    out.write((int) v);
    return this;
  }

  private static long zigzag(long v) {
    return (v << 1) ^ (v >> 63);
  }

  public int size() {
    return out.size();
  }

  public byte[] bytes() {
    return out.toByteArray();
  }
}
