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
   * reading or writing outside them; but it takes a match offset of 0 (which LZ4 forbids) and then
   * copies output bytes not yet written: the LZ4 decompressors have their destination zeroed first
   * ({@link BaseDecompressor#zeroesDestination}).
   */
  static int decompress(
      Lz4Decompressor lz4, ByteBuffer in, int inOffset, int inLength, ByteBuffer out, int outOffset, int outLimit) {
    ByteBuffer input = in.duplicate();
    input.limit(inOffset + inLength).position(inOffset);
    ByteBuffer output = out.duplicate();
    output.limit(outLimit).position(outOffset);
    lz4.decompress(input, output);
    return output.position() - outOffset;
  }
}
