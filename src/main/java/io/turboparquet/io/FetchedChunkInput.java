package io.turboparquet.io;

import io.netty.buffer.ByteBuf;
import java.io.IOException;

/**
 * A column chunk whose bytes were (or are being) read ahead into memory: waits once for the read
 * to finish, then serves page headers and retained slices (no copy) from it. Bytes past what was
 * read (old writers understate a chunk's length) come from a positional read of their own.
 */
public final class FetchedChunkInput extends ChunkInput {
  /** Blocks until the fetched bytes are in memory; throws the read's error. */
  @FunctionalInterface
  public interface Ready {
    void await() throws IOException;
  }

  private final ErrorContext where; // the file, for errors
  private final long fileLength;
  private final long bufferStart;
  private final long chunkEnd;
  private final Ready ready;
  private final RangeReads.RangeReader beyond;
  private final BufferSource source;
  private final WaitListener waits;
  private ByteBuf buffer; // file bytes [bufferStart, bufferStart + buffer.capacity()); released on close
  private boolean waited;
  private long position;

  /** Told how long a consumer waited for the fetched bytes. */
  @FunctionalInterface
  public interface WaitListener {
    void waited(long nanos);
  }

  /**
   * @param buffer the fetched bytes from {@code chunkStart} on (it may hold more than the chunk);
   *     this input owns the reference and releases it on close
   */
  public FetchedChunkInput(String file, long fileLength, ByteBuf buffer, long chunkStart, long chunkLength,
      Ready ready, RangeReads.RangeReader beyond, BufferSource source, WaitListener waits) {
    this.where = ErrorContext.of(file);
    this.fileLength = fileLength;
    this.buffer = buffer;
    this.bufferStart = chunkStart;
    this.chunkEnd = Math.min(fileLength, chunkStart + chunkLength);
    this.position = chunkStart;
    this.ready = ready;
    this.beyond = beyond;
    this.source = source;
    this.waits = waits;
  }

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
    long left = bufferStart + buffer.capacity() - position;
    return (int) Math.max(0, Math.min(Integer.MAX_VALUE, left));
  }

  private int index() {
    return (int) (position - bufferStart);
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
    if (buffered() > 0) {
      int b = buffer.getByte(index()) & 0xff;
      position++;
      return b;
    }
    if (position >= fileLength) {
      return -1;
    }
    ByteBuf one = getNext(1);
    try {
      return one.getByte(one.readerIndex()) & 0xff;
    } finally {
      one.release();
    }
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    int have = buffered();
    if (have == 0) {
      int n = (int) Math.min(len, fileLength - position);
      if (n <= 0) {
        return -1;
      }
      ByteBuf more = getNext(n);
      try {
        more.getBytes(more.readerIndex(), b, off, n);
      } finally {
        more.release();
      }
      return n;
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
    int have = buffered();
    if (have >= n) {
      ByteBuf slice = buffer.retainedSlice(index(), n);
      position += n;
      return slice;
    }
    if (position + n > fileLength) {
      throw where.eof("wanted " + n + " bytes at offset " + position + " but the file ends at " + fileLength);
    }
    // Past the fetched bytes: the buffered part, then one read for the rest.
    ByteBuf out = source.buffer(n);
    try {
      if (have > 0) {
        out.setBytes(0, buffer, index(), have);
      }
      long t0 = System.nanoTime();
      beyond.readFully(position + have, out, have, n - have);
      recordRead(System.nanoTime() - t0, n - have);
      out.writerIndex(n);
    } catch (IOException | RuntimeException e) {
      out.release();
      throw e;
    }
    position += n;
    return out;
  }

  @Override
  public void close() {
    if (buffer != null) {
      buffer.release();
      buffer = null;
    }
  }
}
