package io.turboparquet.decode;

import io.netty.buffer.ByteBuf;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Unpacks groups of 8 little-endian, LSB-first bit-packed values (the layout shared by the RLE
 * hybrid's bit-packed runs and DELTA_BINARY_PACKED miniblocks). A group of width {@code w} is
 * exactly {@code w} bytes. Bulk paths unpack from a heap copy with one unaligned long load per
 * value; the single-group path reads the buffer directly, treating bytes at or past {@code end} as
 * zero: a writer may cut the last group short, and callers only hand out values that are complete.
 */
final class BitUnpacker {
  /** Scratch size for {@link #loadWords}: one group of up to 32 bits per value, plus a spare word. */
  static final int WORDS = 5;

  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private BitUnpacker() {}

  /**
   * Unpacks {@code groups} groups of 8 values of {@code width} (1..32) bits from a heap copy:
   * {@code src} must stay readable 8 bytes past the groups. Each value is one unaligned long load
   * and a shift, since {@code 7 + 32} bits always fit in a long.
   */
  static void unpackGroups(byte[] src, int groups, int width, int[] dst, int off) {
    long mask = (1L << width) - 1;
    int n = groups << 3;
    for (int i = 0, bit = 0; i < n; i++, bit += width) {
      dst[off + i] = (int) (((long) LONGS.get(src, bit >>> 3) >>> (bit & 7)) & mask);
    }
  }

  /**
   * As {@link #unpackGroups(byte[], int, int, int[], int)}, from direct memory at {@code address},
   * unchecked: the caller has made sure that 8 bytes past the groups are readable.
   */
  static void unpackGroups(long address, int groups, int width, int[] dst, int off) {
    long mask = (1L << width) - 1;
    int n = groups << 3;
    for (int i = 0, bit = 0; i < n; i++, bit += width) {
      dst[off + i] = (int) ((Memory.getLong(address + (bit >>> 3)) >>> (bit & 7)) & mask);
    }
  }

  /**
   * Unpacks {@code groups} groups of 8 values of {@code width} (1..64) bits from a heap copy into
   * {@code dst}: {@code src} must stay readable 9 bytes past the groups. A value whose bits spill
   * out of its long load (shift + width > 64) takes its last bits from the ninth byte.
   */
  static void unpackGroups(byte[] src, int groups, int width, long[] dst, int off) {
    long mask = width == 64 ? -1L : (1L << width) - 1;
    int n = groups << 3;
    for (int i = 0, bit = 0; i < n; i++, bit += width) {
      int at = bit >>> 3;
      int shift = bit & 7;
      long v = (long) LONGS.get(src, at) >>> shift;
      if (shift + width > 64) {
        v |= (src[at + 8] & 0xFFL) << (64 - shift);
      }
      dst[off + i] = v & mask;
    }
  }

  /** Unpacks 8 values of {@code width} (0..32) bits at {@code pos} into {@code dst[off, off + 8)}. */
  static void unpack8(ByteBuf buf, int pos, int end, int width, long[] words, int[] dst, int off) {
    if (width == 0) {
      java.util.Arrays.fill(dst, off, off + 8, 0);
      return;
    }
    loadWords(buf, pos, end, width, words);
    long mask = (1L << width) - 1;
    if (width <= 8) { // the whole group sits in the first word
      long w0 = words[0];
      for (int i = 0; i < 8; i++) {
        dst[off + i] = (int) ((w0 >>> (i * width)) & mask);
      }
      return;
    }
    for (int i = 0, bit = 0; i < 8; i++, bit += width) {
      int idx = bit >>> 6;
      int shift = bit & 63;
      long v = words[idx] >>> shift;
      if (shift + width > 64) {
        v |= words[idx + 1] << (64 - shift);
      }
      dst[off + i] = (int) (v & mask);
    }
  }

  /** Loads the {@code width} bytes of one group as longs; bytes at or past {@code end} are zero. */
  private static void loadWords(ByteBuf buf, int pos, int end, int width, long[] words) {
    int count = (width + 7) >>> 3;
    for (int k = 0; k < count; k++) {
      int at = pos + (k << 3);
      words[k] = at + 8 <= end ? buf.getLongLE(at) : tailLong(buf, at, end);
    }
  }

  /** Little-endian long from the bytes in {@code [at, end)}, zero beyond. */
  static long tailLong(ByteBuf buf, int at, int end) {
    long v = 0;
    for (int i = 0; at + i < end && i < 8; i++) {
      v |= (buf.getByte(at + i) & 0xFFL) << (i << 3);
    }
    return v;
  }
}
