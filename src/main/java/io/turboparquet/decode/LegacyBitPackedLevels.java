package io.turboparquet.decode;

import io.netty.buffer.ByteBuf;

/**
 * The deprecated BIT_PACKED level encoding of V1 pages: levels packed most significant bit first,
 * without a length prefix, {@code ceil(count * bitWidth / 8)} bytes.
 */
public final class LegacyBitPackedLevels {
  private LegacyBitPackedLevels() {}

  /** Bytes that {@code count} levels of {@code bitWidth} bits take. */
  public static int byteLength(int count, int bitWidth) {
    return (int) (((long) count * bitWidth + 7) / 8);
  }

  /** Decodes {@code count} levels (bit width at most 8) from {@code buf[offset...)} into {@code dst[0, count)}. */
  public static void decode(ByteBuf buf, int offset, int count, int bitWidth, byte[] dst) {
    int end = offset + byteLength(count, bitWidth);
    if (end > buf.capacity()) {
      throw new DecodeException("BIT_PACKED levels need " + (end - offset) + " bytes, the page has "
          + (buf.capacity() - offset));
    }
    long bit = 0;
    int mask = (1 << bitWidth) - 1;
    for (int i = 0; i < count; i++) {
      int value = 0;
      for (int b = 0; b < bitWidth; b++, bit++) {
        int byteValue = buf.getByte(offset + (int) (bit >>> 3)) & 0xff;
        value = (value << 1) | ((byteValue >>> (7 - (int) (bit & 7))) & 1);
      }
      dst[i] = (byte) (value & mask);
    }
  }
}
