package io.turboparquet.io;

import io.netty.buffer.ByteBuf;
import java.io.IOException;

/**
 * A column chunk whose bytes were (or are being) read ahead into memory: waits once for the read
 * to finish, then serves page headers and retained slices (no copy) from it. The chunk's bytes are
 * all there is: a page that runs past them fails, as it does in every other read mode.
 */
public final class FetchedChunkInput extends ChunkInput {
  /** Blocks until the fetched bytes are in memory; throws the read's error. */
  @FunctionalInterface
  public interface Ready {
    void await() throws IOException;
  }

  private final ErrorContext where; // the file, for errors
  private final long chunkStart;
  private final long chunkEnd;
  private final Ready ready;
  private final WaitListener waits;
  private ByteBuf buffer; // file bytes [chunkStart, chunkEnd); released on close
  private boolean waited;
  private long position;

  /** Told how long a consumer waited for the fetched bytes. */
  @FunctionalInterface
  public interface WaitListener {
    void waited(long nanos);
  }

  /**
   * @param buffer the fetched bytes of the chunk, exactly {@code chunkLength} of them; this input
   *     owns the reference and releases it on close
   */
  public FetchedChunkInput(String file, ByteBuf buffer, long chunkStart, long chunkLength, Ready ready,
      WaitListener waits) {
    if (chunkStart < 0 || chunkLength != buffer.capacity()) {
      throw new IllegalArgumentException("a chunk of " + chunkLength + " bytes at " + chunkStart + " in a buffer of "
          + buffer.capacity());
    }
    this.where = ErrorContext.of(file);
    this.buffer = buffer;
    this.chunkStart = chunkStart;
    this.chunkEnd = chunkStart + chunkLength;
    this.position = chunkStart;
    this.ready = ready;
    this.waits = waits;
  }

  /** Bytes left in the chunk at the position, once they are in memory (0 when the position is past its end). */
  private int buffered() throws IOException {
    if (buffer == null) {
      throw where.io("read after close");
    }
    if (!waited) {
      long t0 = System.nanoTime();
      ready.await();
      waits.waited(System.nanoTime() - t0);
      waited = true;
    }
    return available();
  }

  private int index() {
    return (int) (position - chunkStart);
  }

  @Override
  protected void seek(long at) {
    position = at;
  }

  @Override
  public long position() {
    return position;
  }

  @Override
  public int available() {
    return (int) Math.min(Integer.MAX_VALUE, Math.max(0, chunkEnd - position));
  }

  @Override
  public int read() throws IOException {
    if (buffered() == 0) {
      return -1;
    }
    int b = buffer.getByte(index()) & 0xff;
    position++;
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    int have = buffered();
    if (have == 0) {
      return -1;
    }
    int n = Math.min(len, have);
    buffer.getBytes(index(), b, off, n);
    position += n;
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    if (n <= 0) {
      return 0;
    }
    position += n;
    return n;
  }

  @Override
  public ByteBuf getNext(int n) throws IOException {
    if (n < 0) {
      throw new IllegalArgumentException("negative length " + n);
    }
    if (buffered() < n) {
      throw ChunkInput.pastEnd(where, n, position, chunkEnd);
    }
    ByteBuf slice = buffer.retainedSlice(index(), n);
    position += n;
    return slice;
  }

  @Override
  public void close() {
    if (buffer != null) {
      buffer.release();
      buffer = null;
    }
  }
}
