package io.turboparquet.page.codec;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import org.brotli.dec.BrotliInputStream;

/** BROTLI: one brotli stream, decoded by the pure-Java reference decoder (org.brotli:dec). */
final class BrotliDecompressor extends BaseDecompressor {
  private byte[] chunk;

  BrotliDecompressor() {
    super("BROTLI", false);
  }

  @Override
  long measure(ByteBuffer in, long limit) throws IOException {
    try (InputStream brotli = new BrotliInputStream(new ByteBufferInputStream(in))) {
      return StreamCopy.count(brotli, chunk(), limit);
    }
  }

  private byte[] chunk() {
    if (chunk == null) {
      chunk = new byte[StreamCopy.CHUNK];
    }
    return chunk;
  }

  @Override
  void decompress(ByteBuffer in, ByteBuffer out) throws IOException {
    byte[] chunk = chunk();
    long produced;
    try (InputStream brotli = new BrotliInputStream(new ByteBufferInputStream(in))) {
      produced = StreamCopy.readExactly(brotli, out, chunk);
    }
    if (produced != out.limit()) {
      throw produced > out.limit() ? tooLong(out.limit()) : lengthMismatch(produced, out.limit());
    }
  }
}
