package io.turboparquet.page.codec;

import java.io.InputStream;
import java.nio.ByteBuffer;

/** An InputStream over a private duplicate of a buffer's [position, limit). */
final class ByteBufferInputStream extends InputStream {
  private final ByteBuffer buffer;

  ByteBufferInputStream(ByteBuffer buffer) {
    this.buffer = buffer.duplicate();
  }

  @Override
  public int read() {
    return buffer.hasRemaining() ? buffer.get() & 0xFF : -1;
  }

  @Override
  public int read(byte[] b, int off, int len) {
    if (len == 0) {
      return 0;
    }
    if (!buffer.hasRemaining()) {
      return -1;
    }
    int n = Math.min(len, buffer.remaining());
    buffer.get(b, off, n);
    return n;
  }

  @Override
  public long skip(long n) {
    int k = (int) Math.max(0, Math.min(n, buffer.remaining()));
    buffer.position(buffer.position() + k);
    return k;
  }

  @Override
  public int available() {
    return buffer.remaining();
  }
}
