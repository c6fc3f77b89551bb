package io.turboparquet.page.codec;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/** Draining a decompressing stream into a buffer of known size. */
final class StreamCopy {
  static final int CHUNK = 64 * 1024;

  private StreamCopy() {}

  /**
   * Reads {@code stream} into {@code out} from position 0 until the stream ends or {@code out} is
   * full; if it is full, reads one more byte to see whether the stream really ends there. Returns
   * the bytes produced: {@code out.limit() + 1} means "more than fits".
   */
  static long readExactly(InputStream stream, ByteBuffer out, byte[] chunk) throws IOException {
    out.clear();
    if (out.hasArray()) {
      byte[] array = out.array();
      int base = out.arrayOffset();
      int pos = 0;
      int limit = out.limit();
      while (pos < limit) {
        int n = stream.read(array, base + pos, limit - pos);
        if (n < 0) {
          return pos;
        }
        pos += n;
      }
    } else {
      while (out.hasRemaining()) {
        int n = stream.read(chunk, 0, Math.min(chunk.length, out.remaining()));
        if (n < 0) {
          return out.position();
        }
        out.put(chunk, 0, n);
      }
    }
    return stream.read() < 0 ? out.limit() : out.limit() + 1L;
  }

  /** Bytes {@code stream} yields, read through {@code chunk} and dropped, stopping once past {@code limit}. */
  static long count(InputStream stream, byte[] chunk, long limit) throws IOException {
    long total = 0;
    int n;
    while (total <= limit && (n = stream.read(chunk, 0, chunk.length)) >= 0) {
      total += n;
    }
    return total;
  }
}
