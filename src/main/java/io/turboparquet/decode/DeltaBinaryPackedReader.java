package io.turboparquet.decode;

import io.netty.buffer.ByteBuf;

/**
 * The DELTA_BINARY_PACKED format: a header (block size, miniblocks per block, total value count,
 * zigzag first value) and blocks of (zigzag min delta, one bit width per miniblock, bit-packed
 * miniblocks). Shared by the INT32/INT64 decoder and the lengths and prefixes of the delta byte
 * array encodings.
 *
 * <p>Values are decoded lazily, {@link #CHUNK} at a time, with 64-bit wrapping sums: the low 32 bits
 * of those are exactly INT32's wrapping arithmetic. Nothing is sized from the header, so an absurd
 * block size or value count costs no memory; it can only fail when the bits run out.
 */
final class DeltaBinaryPackedReader {
  private static final int CHUNK = 256; // a multiple of 8, so a refill is whole bit-packed groups

  private final String name;
  private final int maxBitWidth;
  /** Heap copy of one refill's miniblock bytes, plus the 9 bytes the unpacker may over-read. */
  private final byte[] packed = new byte[CHUNK / 8 * 64 + 9];
  private final long[] buffer = new long[CHUNK];
  private int bufPos;
  private int bufLen;

  private ByteBuf buf;
  private int pos;
  private int end;
  private int miniblocks;
  private int perMiniblock;
  private int totalCount;
  private int headerEnd;
  private long firstValue;

  /** Values not yet decoded into {@link #buffer}. */
  private int undecoded;
  private boolean firstPending;
  private long last;
  private long minDelta;
  private int bitWidthsPos;
  private int miniblockIndex;
  private int miniblockLeft;
  private int bitWidth;

  /** {@code name} prefixes error messages; {@code maxBitWidth} is 32 for INT32 data, 64 for INT64. */
  DeltaBinaryPackedReader(String name, int maxBitWidth) {
    this.name = name;
    this.maxBitWidth = maxBitWidth;
  }

  /** Reads the header at {@code offset}; the data may extend to {@code offset + length}. */
  void init(ByteBuf buf, int offset, int length) {
    this.buf = buf;
    this.pos = offset;
    this.end = offset + length;
    long blockSize = readUnsignedVarInt("block size");
    long count = readUnsignedVarInt("miniblocks per block");
    long total = readUnsignedVarInt("total value count");
    if (blockSize <= 0 || blockSize % 128 != 0 || blockSize > Integer.MAX_VALUE) {
      throw new DecodeException(name + " block size " + blockSize + " is not a positive multiple of 128");
    }
    if (count <= 0 || blockSize % count != 0 || (blockSize / count) % 32 != 0) {
      throw new DecodeException(name + " block size " + blockSize + " does not split into " + count
          + " miniblocks of a multiple of 32 values");
    }
    if (total > Integer.MAX_VALUE) {
      throw new DecodeException(name + " total value count " + total + " exceeds 2^31 - 1");
    }
    this.miniblocks = (int) count;
    this.perMiniblock = (int) (blockSize / count);
    this.totalCount = (int) total;
    this.firstValue = zigzag(readVarLong("first value"));
    this.headerEnd = pos;
    this.undecoded = totalCount;
    this.firstPending = totalCount > 0;
    this.miniblockIndex = miniblocks; // the first miniblock needs a block header first
    this.miniblockLeft = 0;
    this.bufPos = 0;
    this.bufLen = 0;
  }

  /** The value count the header declares. */
  int totalCount() {
    return totalCount;
  }

  /** Decodes the next {@code n} values into {@code dst[off, off + n)}. */
  void readLongs(long[] dst, int off, int n) {
    while (n > 0) {
      if (bufPos == bufLen) {
        refill(n);
      }
      int k = Math.min(n, bufLen - bufPos);
      System.arraycopy(buffer, bufPos, dst, off, k);
      bufPos += k;
      off += k;
      n -= k;
    }
  }

  /** Decodes the next {@code n} values, truncated to 32 bits, into {@code dst[off, off + n)}. */
  void readInts(int[] dst, int off, int n) {
    while (n > 0) {
      if (bufPos == bufLen) {
        refill(n);
      }
      int k = Math.min(n, bufLen - bufPos);
      long[] b = buffer;
      for (int i = 0; i < k; i++) {
        dst[off + i] = (int) b[bufPos + i];
      }
      bufPos += k;
      off += k;
      n -= k;
    }
  }

  /** Skips {@code n} values; they are still decoded, as every later value depends on them. */
  void skip(int n) {
    while (n > 0) {
      if (bufPos == bufLen) {
        refill(n);
      }
      int k = Math.min(n, bufLen - bufPos);
      bufPos += k;
      n -= k;
    }
  }

  /**
   * The byte just past the last miniblock that holds values, where whatever follows this section
   * starts. Walks the block headers from the start; does not disturb the decoding position.
   */
  int endOffset() {
    int p = headerEnd;
    long values = Math.max(0, totalCount - 1L);
    while (values > 0) {
      int saved = pos;
      pos = p;
      readVarLong("block min delta");
      p = pos;
      pos = saved;
      if (end - p < miniblocks) {
        throw new DecodeException(name + " block bit widths are cut off by the end of the section");
      }
      int widths = p;
      p += miniblocks;
      for (int m = 0; m < miniblocks && values > 0; m++) {
        long bytes = (long) perMiniblock * checkedBitWidth(buf.getByte(widths + m) & 0xFF) >>> 3;
        if (bytes > end - p) {
          return end; // the last miniblock may be cut short; nothing can follow it then
        }
        p += (int) bytes;
        values -= perMiniblock;
      }
    }
    return p;
  }

  private void refill(int wanted) {
    if (undecoded == 0) {
      throw new DecodeException(name + " section ran out of values with " + wanted + " still to decode");
    }
    bufPos = 0;
    if (firstPending) {
      firstPending = false;
      buffer[0] = firstValue;
      last = firstValue;
      bufLen = 1;
      undecoded--;
      return;
    }
    if (miniblockLeft == 0) {
      nextMiniblock();
    }
    int k = Math.min(CHUNK, Math.min(miniblockLeft, undecoded));
    int bw = bitWidth;
    long needBytes = ((long) k * bw + 7) >>> 3;
    if (needBytes > end - pos) {
      throw new DecodeException(name + " miniblock of bit width " + bw + " is cut off by the end of the section");
    }
    long[] b = buffer;
    int groups = (k + 7) >>> 3;
    if (bw == 0) {
      java.util.Arrays.fill(b, 0, k, 0L);
    } else {
      // Bulk copy to the heap and unpack there; a cut-short last miniblock copies only what exists,
      // and the values handed out never need the bytes that are missing.
      buf.getBytes(pos, packed, 0, (int) Math.min((long) groups * bw, end - pos));
      BitUnpacker.unpackGroups(packed, groups, bw, b, 0);
    }
    long v = last;
    long min = minDelta;
    for (int i = 0; i < k; i++) {
      v += min + b[i];
      b[i] = v;
    }
    last = v;
    int consumed = Math.min(CHUNK, miniblockLeft); // whole groups: the rest of the miniblock is padding
    pos += (consumed >>> 3) * bw;
    miniblockLeft -= consumed;
    undecoded -= k;
    bufLen = k;
  }

  private void nextMiniblock() {
    if (miniblockIndex == miniblocks) {
      minDelta = zigzag(readVarLong("block min delta"));
      if (end - pos < miniblocks) {
        throw new DecodeException(name + " block bit widths are cut off by the end of the section");
      }
      bitWidthsPos = pos;
      pos += miniblocks;
      miniblockIndex = 0;
    }
    bitWidth = checkedBitWidth(buf.getByte(bitWidthsPos + miniblockIndex) & 0xFF);
    miniblockIndex++;
    miniblockLeft = perMiniblock;
  }

  private int checkedBitWidth(int bw) {
    if (bw > maxBitWidth) {
      throw new DecodeException(name + " miniblock bit width " + bw + " is above " + maxBitWidth);
    }
    return bw;
  }

  private long readUnsignedVarInt(String what) {
    long v = readVarLong(what);
    if (v < 0 || v > 0xFFFF_FFFFL) {
      throw new DecodeException(name + " header " + what + " " + Long.toUnsignedString(v) + " exceeds 32 bits");
    }
    return v;
  }

  /** An unsigned LEB128 varint of at most 10 bytes. */
  private long readVarLong(String what) {
    long v = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      if (pos >= end) {
        throw new DecodeException(name + " " + what + " is cut off by the end of the section");
      }
      int b = buf.getByte(pos++);
      v |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return v;
      }
    }
    throw new DecodeException(name + " " + what + " varint is longer than 10 bytes");
  }

  private static long zigzag(long v) {
    return (v >>> 1) ^ -(v & 1);
  }
}
