package io.turboparquet.decode;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/**
 * Parquet's RLE / bit-packed hybrid: a sequence of runs, each headed by an unsigned varint whose low
 * bit picks RLE ({@code count << 1}, then one value in {@code ceil(bitWidth / 8)} bytes) or
 * bit-packed ({@code groups << 1 | 1}, then {@code groups * bitWidth} bytes holding 8 values per
 * group). Used for levels, dictionary indices and RLE booleans.
 *
 * <p>Run headers are untrusted: counts are only ever used as upper bounds of what is handed out,
 * never to size allocations, and nothing is read at or past {@code offset + length}. A bit-packed
 * run that the section cuts short yields only the values whose bits are all present.
 */
public final class RleBitPackedHybridDecoder {
  private static final int MAX_BIT_WIDTH = 32;
  private static final int BULK_GROUPS = 128;

  private final long[] words = new long[BitUnpacker.WORDS];
  /** The current bit-packed group, unpacked, while a read ends inside it. */
  private final int[] group = new int[8];
  /** Heap copy of up to {@link #BULK_GROUPS} groups, plus the 8 bytes the unpacker may over-read. */
  private final byte[] packed = new byte[BULK_GROUPS * MAX_BIT_WIDTH + 8];
  /** Bit-packed levels on their way to {@link #readLevels}. */
  private final int[] levelScratch = new int[1024];

  private ByteBuf buf;
  private int pos;
  private int end;
  private int bitWidth;

  private boolean rle;
  /** Values of the current run not yet handed out (buffered group values included). */
  private int runLeft;
  private int rleValue;
  /** Bit-packed: byte position of the next group not yet unpacked. */
  private int packedPos;
  /** Bit-packed: next index into {@link #group}; 8 when nothing is buffered. */
  private int groupIdx = 8;

  public void init(ByteBuf buf, int offset, int length, int bitWidth) {
    if (bitWidth < 0 || bitWidth > MAX_BIT_WIDTH) {
      throw new DecodeException("RLE/bit-packed hybrid bit width " + bitWidth + " is outside 0.." + MAX_BIT_WIDTH);
    }
    if (offset < 0 || length < 0 || (long) offset + length > buf.capacity()) {
      throw new IndexOutOfBoundsException("RLE/bit-packed hybrid section [" + offset + ", +" + length
          + ") outside buffer of " + buf.capacity() + " bytes");
    }
    this.buf = buf;
    this.pos = offset;
    this.end = offset + length;
    this.bitWidth = bitWidth;
    this.runLeft = 0;
    this.groupIdx = 8;
  }

  /**
   * Decodes the next {@code n} values into {@code dst[off, off + n)} as unsigned bytes: levels,
   * whose bit width is at most 8, take a quarter of the memory of ints (a page may hold 2^26).
   */
  public void readLevels(byte[] dst, int off, int n) {
    if (bitWidth > 8) {
      throw new IllegalStateException("levels of " + bitWidth + " bits do not fit a byte");
    }
    int[] s = levelScratch;
    while (n > 0) {
      if (runLeft == 0 && bitWidth > 0) {
        nextRun(n);
      }
      int k;
      if (bitWidth == 0 || rle) { // a run of one value: no ints in between
        k = bitWidth == 0 ? n : Math.min(n, runLeft);
        Arrays.fill(dst, off, off + k, (byte) (bitWidth == 0 ? 0 : rleValue));
        if (bitWidth > 0) {
          runLeft -= k;
        }
      } else {
        k = Math.min(n, s.length);
        readInts(s, 0, k);
        for (int i = 0; i < k; i++) {
          dst[off + i] = (byte) s[i];
        }
      }
      off += k;
      n -= k;
    }
  }

  /** Decodes the next {@code n} values into {@code dst[off, off + n)}. */
  public void readInts(int[] dst, int off, int n) {
    if (bitWidth == 0) { // every value is 0 whatever the runs say; writers may even omit them
      Arrays.fill(dst, off, off + n, 0);
      return;
    }
    while (n > 0) {
      if (runLeft == 0) {
        nextRun(n);
      }
      int k;
      if (rle) {
        k = Math.min(n, runLeft);
        Arrays.fill(dst, off, off + k, rleValue);
      } else if (groupIdx < 8) {
        k = Math.min(n, Math.min(8 - groupIdx, runLeft));
        System.arraycopy(group, groupIdx, dst, off, k);
        groupIdx += k;
      } else if (n >= 8 && runLeft >= 8) {
        // Whole groups: their bytes are all inside the section (runLeft counts only complete values).
        // Unpack them in place where the buffer has the 8 bytes the unpacker may read past them,
        // else from a heap copy; either way free of per-load buffer checks.
        int groups = Math.min(Math.min(n, runLeft) >>> 3, BULK_GROUPS);
        int bytes = groups * bitWidth;
        long base = Memory.address(buf);
        if (base != 0 && (long) packedPos + bytes + 8 <= buf.capacity()) {
          BitUnpacker.unpackGroups(base + packedPos, groups, bitWidth, dst, off);
        } else {
          buf.getBytes(packedPos, packed, 0, bytes);
          BitUnpacker.unpackGroups(packed, groups, bitWidth, dst, off);
        }
        packedPos += bytes;
        k = groups << 3;
      } else {
        BitUnpacker.unpack8(buf, packedPos, end, bitWidth, words, group, 0);
        packedPos += bitWidth;
        k = Math.min(n, runLeft);
        System.arraycopy(group, 0, dst, off, k);
        groupIdx = k;
      }
      runLeft -= k;
      off += k;
      n -= k;
    }
  }

  /** Skips the next {@code n} values. */
  public void skip(int n) {
    if (bitWidth == 0) {
      return;
    }
    while (n > 0) {
      if (runLeft == 0) {
        nextRun(n);
      }
      int k;
      if (rle) {
        k = Math.min(n, runLeft);
      } else if (groupIdx < 8) {
        k = Math.min(n, Math.min(8 - groupIdx, runLeft));
        groupIdx += k;
      } else if (n >= 8 && runLeft >= 8) {
        int groups = Math.min(n, runLeft) >>> 3;
        packedPos += groups * bitWidth; // within the run's bytes, so no overflow
        k = groups << 3;
      } else {
        BitUnpacker.unpack8(buf, packedPos, end, bitWidth, words, group, 0);
        packedPos += bitWidth;
        k = Math.min(n, runLeft);
        groupIdx = k;
      }
      runLeft -= k;
      n -= k;
    }
  }

  private void nextRun(int wanted) {
    if (pos >= end) {
      throw new DecodeException("RLE/bit-packed hybrid data (bit width " + bitWidth + ") ran out with "
          + wanted + " values still to decode");
    }
    long header = readHeader();
    long count = header >>> 1;
    if ((header & 1) == 0) {
      if (count == 0) { // no writer emits one; parquet-java would repeat its value for ever, Arrow refuses it
        throw new DecodeException("RLE/bit-packed hybrid data (bit width " + bitWidth + ") has an RLE run of 0 values");
      }
      int bytes = (bitWidth + 7) >>> 3;
      if (end - pos < bytes) {
        throw new DecodeException("RLE/bit-packed hybrid RLE run value (" + bytes + " bytes) is cut off by the end of the section");
      }
      int value = 0;
      for (int i = 0; i < bytes; i++) {
        value |= (buf.getByte(pos + i) & 0xFF) << (i << 3);
      }
      pos += bytes;
      if (bitWidth < 32 && (value >>> bitWidth) != 0) {
        throw new DecodeException("RLE/bit-packed hybrid RLE run value " + Integer.toUnsignedString(value)
            + " does not fit in bit width " + bitWidth);
      }
      rle = true;
      rleValue = value;
      runLeft = (int) count; // header < 2^32, so count < 2^31
    } else {
      long bytes = count * bitWidth;
      int available = end - pos;
      // A run the section cuts short holds only the values whose bits are all inside it.
      long values = bytes <= available ? count << 3 : ((long) available << 3) / bitWidth;
      rle = false;
      packedPos = pos;
      groupIdx = 8;
      runLeft = (int) Math.min(values, Integer.MAX_VALUE); // a page never holds 2^31 values
      pos += (int) Math.min(bytes, available);
    }
  }

  /** The run header: an unsigned LEB128 varint of at most 5 bytes holding a 32-bit value. */
  private long readHeader() {
    long value = 0;
    for (int i = 0; i < 5; i++) {
      if (pos >= end) {
        throw new DecodeException("RLE/bit-packed hybrid run header is cut off by the end of the section");
      }
      int b = buf.getByte(pos++) & 0xFF;
      value |= (long) (b & 0x7F) << (7 * i);
      if ((b & 0x80) == 0) {
        if (value > 0xFFFF_FFFFL) {
          throw new DecodeException("RLE/bit-packed hybrid run header " + value + " exceeds 32 bits");
        }
        return value;
      }
    }
    throw new DecodeException("RLE/bit-packed hybrid run header varint is longer than 5 bytes");
  }
}
