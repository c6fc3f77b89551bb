package io.turboparquet.page.codec;

import io.airlift.compress.lz4.Lz4Decompressor;
import java.nio.ByteBuffer;

/** Raw LZ4 block decoding between ranges of two buffers, through aircompressor. */
final class Lz4Blocks {
  private Lz4Blocks() {}

  /**
   * Decodes the raw block {@code in[inOffset, +inLength)} into {@code out[outOffset, outLimit)} and
   * returns the bytes produced. aircompressor validates every match and literal against both
   * ranges, so corrupt input throws {@link io.airlift.compress.MalformedInputException} instead of
   * reading or writing outside them; but it takes a match offset of 0, which copies output bytes
   * not yet written (whatever the buffer held before: wrong values, and another page's bytes).
   * {@link #checkOffsets} refuses those first.
   */
  static int decompress(
      Lz4Decompressor lz4, ByteBuffer in, int inOffset, int inLength, ByteBuffer out, int outOffset, int outLimit) {
    checkOffsets(in, inOffset, inLength);
    ByteBuffer input = in.duplicate();
    input.limit(inOffset + inLength).position(inOffset);
    ByteBuffer output = out.duplicate();
    output.limit(outLimit).position(outOffset);
    lz4.decompress(input, output);
    return output.position() - outOffset;
  }

  /**
   * Walks the block's sequences (token, literal length, literals skipped, match offset, match
   * length) without copying anything and checks every match offset against the bytes decoded
   * before it: at least 1, at most that count. Ranges and lengths are aircompressor's to check;
   * a walk that runs off the input stops here and leaves the error to it.
   *
   * @throws IllegalArgumentException naming the first bad offset and where it is
   */
  static void checkOffsets(ByteBuffer in, int offset, int length) {
    int p = offset;
    int end = offset + length;
    long produced = 0;
    while (p < end) {
      int token = in.get(p++) & 0xFF;
      long literals = token >>> 4;
      if (literals == 15) {
        int b;
        do {
          if (p >= end) {
            return;
          }
          b = in.get(p++) & 0xFF;
          literals += b;
        } while (b == 255);
      }
      p += (int) Math.min(literals, end - p + 1L);
      produced += literals;
      if (p >= end) {
        return; // the last sequence has literals only
      }
      if (end - p < 2) {
        return;
      }
      int matchOffset = (in.get(p) & 0xFF) | (in.get(p + 1) & 0xFF) << 8;
      if (matchOffset == 0 || matchOffset > produced) {
        throw new IllegalArgumentException("LZ4 match offset " + matchOffset + " at block byte " + (p - offset)
            + " points " + (matchOffset == 0 ? "at bytes not yet decoded" : "before the block's start (" + produced
            + " bytes decoded)"));
      }
      p += 2;
      long match = (token & 0x0F) + 4L;
      if ((token & 0x0F) == 15) {
        int b;
        do {
          if (p >= end) {
            return;
          }
          b = in.get(p++) & 0xFF;
          match += b;
        } while (b == 255);
      }
      produced += match;
    }
  }
}
