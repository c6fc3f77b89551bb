package io.turboparquet.page.codec;

import io.airlift.compress.lz4.Lz4Decompressor;
import java.io.IOException;
import java.nio.ByteBuffer;

/** LZ4_RAW: one raw LZ4 block (no framing), decoded by aircompressor. */
final class Lz4RawBlockDecompressor extends BaseDecompressor {
  private final Lz4Decompressor lz4 = new Lz4Decompressor();

  Lz4RawBlockDecompressor() {
    super("LZ4_RAW", false);
  }

  @Override
  boolean zeroesDestination() {
    return true; // see Lz4Blocks
  }

  @Override
  void decompress(ByteBuffer in, ByteBuffer out) throws IOException {
    int produced = Lz4Blocks.decompress(lz4, in, 0, in.limit(), out, 0, out.limit());
    if (produced != out.limit()) {
      throw lengthMismatch(produced, out.limit());
    }
  }
}
