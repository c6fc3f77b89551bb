package io.turboparquet.decode;

import io.netty.buffer.ByteBuf;
import io.turboparquet.format.PhysicalType;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** PLAIN decoders: values stored back to back, fixed width little-endian or length-prefixed. */
final class PlainDecoders {
  private PlainDecoders() {}

  static ValuesDecoder create(PhysicalType type, int typeLength) {
    return switch (type) {
      case BOOLEAN -> new Booleans();
      case INT32, FLOAT, INT64, DOUBLE, INT96 -> new Fixed(type, type.fixedWidth());
      case FIXED_LEN_BYTE_ARRAY -> new Fixed(type, Decoders.checkTypeLength(typeLength));
      case BYTE_ARRAY -> new Binary();
    };
  }

  /**
   * The length prefix of the BYTE_ARRAY value at {@code pos}, checked to be non-negative and to fit
   * with its bytes before {@code end}.
   */
  static int binaryLength(ByteBuf page, int pos, int end, String where) {
    if (end - pos < 4) {
      throw new DecodeException("PLAIN BYTE_ARRAY " + where + ": length prefix at " + pos + " is cut off by the end of the section");
    }
    int len = page.getIntLE(pos);
    if (len < 0) {
      throw new DecodeException("PLAIN BYTE_ARRAY " + where + ": negative value length " + len);
    }
    if (len > end - pos - 4) {
      throw new DecodeException("PLAIN BYTE_ARRAY " + where + ": value of " + len + " bytes runs "
          + (len - (end - pos - 4)) + " bytes past the end of the section");
    }
    return len;
  }

  /** INT32, INT64, INT96, FLOAT, DOUBLE, FIXED_LEN_BYTE_ARRAY: one bulk copy per read. */
  static final class Fixed implements ValuesDecoder {
    private final String name;
    private final int width;
    private ByteBuf page;
    private int pos;
    private int left;

    Fixed(PhysicalType type, int width) {
      this.name = "PLAIN " + type;
      this.width = width;
    }

    @Override
    public void init(ByteBuf page, int offset, int length, int valueCount) {
      Sections.checkInit(name, page, offset, length, valueCount);
      if ((long) valueCount * width > length) {
        throw new DecodeException(name + " section of " + length + " bytes is too short for " + valueCount
            + " values of " + width + " bytes");
      }
      this.page = page;
      this.pos = offset;
      this.left = valueCount;
    }

    @Override
    public void read(ValueSink sink, int n) {
      Sections.checkCount(name, n, left);
      int bytes = n * width;
      ByteBuf out = sink.reserve(n);
      out.setBytes(sink.writeIndex(), page, pos, bytes);
      sink.advance(n);
      pos += bytes;
      left -= n;
    }

    @Override
    public void skip(int n) {
      Sections.checkCount(name, n, left);
      pos += n * width;
      left -= n;
    }
  }

  /** BOOLEAN: bit-packed LSB first; expanded a byte at a time to one 0/1 byte per value. */
  static final class Booleans implements ValuesDecoder {
    private static final String NAME = "PLAIN BOOLEAN";
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final int CHUNK_BYTES = 512;
    /** Byte b -> 8 bytes, byte i being bit i of b. */
    private static final long[] EXPAND = new long[256];

    static {
      for (int b = 0; b < 256; b++) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
          v |= (long) ((b >>> i) & 1) << (i << 3);
        }
        EXPAND[b] = v;
      }
    }

    private final byte[] packed = new byte[CHUNK_BYTES];
    private final byte[] expanded = new byte[CHUNK_BYTES * 8];
    private ByteBuf page;
    /** Absolute bit index of the next value: byte {@code bit >>> 3} of the page, bit {@code bit & 7}. */
    private long bit;
    private int left;

    @Override
    public void init(ByteBuf page, int offset, int length, int valueCount) {
      Sections.checkInit(NAME, page, offset, length, valueCount);
      if (((valueCount + 7L) >>> 3) > length) {
        throw new DecodeException(NAME + " section of " + length + " bytes is too short for " + valueCount + " values");
      }
      this.page = page;
      this.bit = (long) offset << 3;
      this.left = valueCount;
    }

    @Override
    public void read(ValueSink sink, int n) {
      Sections.checkCount(NAME, n, left);
      ByteBuf out = sink.reserve(n);
      int at = sink.writeIndex();
      int done = 0;
      while (done < n && (bit & 7) != 0) { // finish a partly consumed byte
        out.setByte(at + done++, nextBit());
      }
      while (n - done >= 8) {
        int bytes = Math.min((n - done) >>> 3, CHUNK_BYTES);
        page.getBytes((int) (bit >>> 3), packed, 0, bytes);
        for (int i = 0; i < bytes; i++) {
          LONGS.set(expanded, i << 3, EXPAND[packed[i] & 0xFF]);
        }
        out.setBytes(at + done, expanded, 0, bytes << 3);
        done += bytes << 3;
        bit += (long) bytes << 3;
      }
      while (done < n) {
        out.setByte(at + done++, nextBit());
      }
      sink.advance(n);
      left -= n;
    }

    private int nextBit() {
      int v = (page.getByte((int) (bit >>> 3)) >>> (bit & 7)) & 1;
      bit++;
      return v;
    }

    @Override
    public void skip(int n) {
      Sections.checkCount(NAME, n, left);
      bit += n;
      left -= n;
    }
  }

  /** BYTE_ARRAY: 4-byte little-endian length, then the bytes. */
  static final class Binary implements ValuesDecoder {
    private static final String NAME = "PLAIN BYTE_ARRAY";
    private ByteBuf page;
    private int pos;
    private int end;
    private int left;

    @Override
    public void init(ByteBuf page, int offset, int length, int valueCount) {
      Sections.checkInit(NAME, page, offset, length, valueCount);
      if (valueCount > length >>> 2) {
        throw new DecodeException(NAME + " section of " + length + " bytes cannot hold " + valueCount + " values");
      }
      this.page = page;
      this.pos = offset;
      this.end = offset + length;
      this.left = valueCount;
    }

    /** Values up to which {@link #maxBytes} walks the length prefixes for an exact answer. */
    private static final int EXACT_BOUND = 64;

    /** Exact for up to 64 values (their length prefixes, checked); else the bytes left in the section. */
    @Override
    public long maxBytes(int n) {
      if (n > EXACT_BOUND) {
        return end - pos;
      }
      int p = pos;
      long total = 0;
      for (int i = 0; i < Math.min(n, left); i++) {
        int len = binaryLength(page, p, end, "data page");
        total += len;
        p += 4 + len;
      }
      return total;
    }

    @Override
    public void read(ValueSink sink, int n) {
      Sections.checkCount(NAME, n, left);
      long base = Memory.address(page);
      // Reserving the whole rest of the section must not pass the sink's cap when the values would not.
      if (base != 0 && sink.dataLength() + (long) (end - pos) + 2 * Memory.SHORT_COPY <= ValueSink.MAX_BYTES) {
        // The rest of the section bounds the bytes of any n values, so one pass checks and copies.
        sink.reserveVariable(n, end - pos + Memory.SHORT_COPY);
        if (sink.hasAddress()) {
          pos = readUnchecked(sink, page, base, pos, end, n);
          left -= n;
          return;
        }
      }
      int p = pos;
      long total = 0;
      for (int i = 0; i < n; i++) { // validate and size first, so the sink grows once
        int len = binaryLength(page, p, end, "data page");
        total += len;
        p += 4 + len;
      }
      sink.reserveVariable(n, total);
      p = pos;
      for (int i = 0; i < n; i++) {
        int len = page.getIntLE(p);
        sink.appendBinary(page, p + 4, len);
        p += 4 + len;
      }
      pos = p;
      left -= n;
    }

    /**
     * The hot loop with its cursors in locals: checks each length against the section, then copies
     * the value. The sink has room for the whole rest of the section.
     */
    private static int readUnchecked(ValueSink sink, ByteBuf page, long base, int p, int sectionEnd, int n) {
      long data = sink.dataAddress();
      long ends = sink.endOffsetsAddress();
      int start = sink.dataLength();
      long limit = base + sectionEnd;
      int written = 0;
      for (int i = 0; i < n; i++) {
        int len = sectionEnd - p >= 4 ? Memory.getInt(base + p) : -1;
        if (len < 0 || len > sectionEnd - p - 4) {
          binaryLength(page, p, sectionEnd, "data page"); // throws the precise error
        }
        long from = base + p + 4;
        if (len <= Memory.SHORT_COPY && from + Memory.SHORT_COPY <= limit) {
          Memory.copyShort(from, data + written);
        } else {
          Memory.copyValue(from, data + written, len, limit);
        }
        written += len;
        Memory.putInt(ends + ((long) i << 2), start + written);
        p += 4 + len;
      }
      sink.commitVariable(n, written);
      return p;
    }

    @Override
    public void skip(int n) {
      Sections.checkCount(NAME, n, left);
      int p = pos;
      for (int i = 0; i < n; i++) {
        p += 4 + binaryLength(page, p, end, "data page");
      }
      pos = p;
      left -= n;
    }
  }
}
