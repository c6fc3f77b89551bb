package io.turboparquet.page.codec;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * ZSTD: one or more concatenated zstd frames (skippable frames allowed, content size optional),
 * decoded natively by zstd-jni on direct buffers. libzstd bounds every write by the destination
 * size and fails with "Destination buffer is too small" when the data would exceed it.
 */
final class ZstdDecompressor extends BaseDecompressor {
  private ZstdDecompressCtx context;

  ZstdDecompressor() {
    super("ZSTD", true);
  }

  @Override
  long measure(ByteBuffer in, long limit) throws IOException {
    byte[] chunk = new byte[StreamCopy.CHUNK];
    try (InputStream zstd = new ZstdInputStreamNoFinalizer(new ByteBufferInputStream(in))) {
      return StreamCopy.count(zstd, chunk, limit);
    }
  }

  @Override
  void decompress(ByteBuffer in, ByteBuffer out) throws IOException {
    if (context == null) {
      context = new ZstdDecompressCtx(); // freed by zstd-jni's cleaner once this decompressor is unreachable
    }
    int expected = out.limit();
    int produced;
    try {
      produced = context.decompressDirectByteBuffer(out, 0, expected, in, 0, in.limit());
    } catch (ZstdException e) {
      context.reset();
      throw error(e, "cannot decompress %d-byte page to %d bytes: %s", in.limit(), expected, e.getMessage());
    }
    if (produced != expected) {
      throw lengthMismatch(produced, expected);
    }
  }
}
