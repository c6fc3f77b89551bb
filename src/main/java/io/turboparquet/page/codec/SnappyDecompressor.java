package io.turboparquet.page.codec;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.xerial.snappy.Snappy;
import org.xerial.snappy.SnappyError;

/** SNAPPY: a raw snappy block, decoded natively by snappy-java on direct buffers. */
final class SnappyDecompressor extends BaseDecompressor {
  SnappyDecompressor() {
    super("SNAPPY", true);
  }

  @Override
  void decompress(ByteBuffer in, ByteBuffer out) throws IOException {
    int expected = out.limit();
    try {
      // snappy-java writes as many bytes as the block's own length preamble says, without looking
      // at the destination's capacity: check that length first.
      int declared = Snappy.uncompressedLength(in);
      if (declared != expected) {
        throw lengthMismatch(declared & 0xFFFFFFFFL, expected);
      }
      int produced = Snappy.uncompress(in, out);
      if (produced != expected) {
        throw lengthMismatch(produced, expected);
      }
    } catch (SnappyError e) {
      throw error(e, "cannot decompress page to %d bytes: %s", expected, e.getMessage());
    }
  }
}
