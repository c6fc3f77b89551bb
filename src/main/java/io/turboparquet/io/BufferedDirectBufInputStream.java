package io.turboparquet.io;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import org.apache.hadoop.fs.FSDataInputStream;

/**
 * Reads the range {@code [start, start + length)} of a file through one direct buffer of
 * {@code min(length, bufferSize)} bytes, filled with large positional reads.
 *
 * <p>{@link #getNext(int)} hands out retained slices of the buffer, so page bytes are not copied a
 * second time. A refill reuses the buffer when no slice is alive, and otherwise takes a fresh one
 * (slices keep the old one alive until they are released). A request larger than the buffer is
 * read directly into a buffer of its own.
 *
 * <p>The range bounds every read: nothing past it is read, and a page that runs past it fails.
 */
public final class BufferedDirectBufInputStream extends ChunkInput {
  private final FSDataInputStream in;
  private final ErrorContext where; // the file, for errors

  private final long rangeEnd;
  private final int bufferSize;
  private final BufferSource source;
  private final RangeReads.RangeReader reads;

  private ByteBuf buffer;
  private long bufferStart; // file offset of buffer byte 0
  private int pos; // next byte to hand out, relative to bufferStart
  private int limit; // valid bytes in the buffer
  private boolean closed;

  public BufferedDirectBufInputStream(FSDataInputStream in, String file, long fileLength, long start, long length,
      int bufferSize, BufferSource source) {
    if (start < 0 || length < 0 || length > fileLength - start || bufferSize <= 0) {
      throw new IllegalArgumentException("bad range or buffer: start " + start + " length " + length + " in a file of "
          + fileLength + " bytes, buffer " + bufferSize);
    }
    this.in = in;
    this.where = ErrorContext.of(file);
    this.rangeEnd = start + length;
    this.bufferSize = (int) Math.max(1, Math.min(bufferSize, Math.max(length, 1)));
    this.source = source;
    this.reads = RangeReads.forStream(in);
    this.bufferStart = start;
  }

  @Override
  protected void seek(long at) {
    if (at >= bufferStart && at <= bufferStart + limit) {
      pos = (int) (at - bufferStart);
    } else { // before the buffer: read again from there
      bufferStart = at;
      pos = 0;
      limit = 0;
    }
  }

  @Override
  public long position() {
    return bufferStart + pos;
  }

  @Override
  public int available() {
    return (int) Math.min(Integer.MAX_VALUE, Math.max(0, rangeEnd - position()));
  }

  @Override
  public int read() throws IOException {
    if (pos >= limit && !fill(1)) {
      return -1;
    }
    return buffer.getByte(pos++) & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    if (pos >= limit && !fill(1)) {
      return -1;
    }
    int n = Math.min(len, limit - pos);
    buffer.getBytes(pos, b, off, n);
    pos += n;
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    if (n <= 0) {
      return 0;
    }
    long buffered = Math.min(n, limit - pos);
    pos += (int) buffered;
    long rest = n - buffered;
    if (rest > 0) {
      // Past the buffer: move the window without reading the skipped bytes.
      bufferStart = position() + rest;
      pos = 0;
      limit = 0;
    }
    return n;
  }

  @Override
  public ByteBuf getNext(int n) throws IOException {
    if (n < 0) {
      throw new IllegalArgumentException("negative length " + n);
    }
    if (limit - pos >= n) {
      ByteBuf slice = buffer.retainedSlice(pos, n);
      pos += n;
      return slice;
    }
    if (n > bufferSize) {
      return readLarge(n);
    }
    if (!fill(n)) {
      throw ChunkInput.pastEnd(where, n, position(), rangeEnd);
    }
    ByteBuf slice = buffer.retainedSlice(pos, n);
    pos += n;
    return slice;
  }

  /** Reads a request bigger than the buffer into a buffer of its own, using what is buffered. */
  private ByteBuf readLarge(int n) throws IOException {
    ensureOpen();
    long at = position();
    if (n > rangeEnd - at) {
      throw ChunkInput.pastEnd(where, n, at, rangeEnd);
    }
    ByteBuf out = source.buffer(n);
    try {
      int buffered = limit - pos;
      if (buffered > 0) {
        out.setBytes(0, buffer, pos, buffered);
      }
      timedRead(at + buffered, out, buffered, n - buffered);
      out.writerIndex(n);
    } catch (IOException | RuntimeException e) {
      out.release();
      throw e;
    }
    bufferStart = at + n;
    pos = 0;
    limit = 0;
    return out;
  }

  /**
   * Makes at least {@code needed} bytes available at {@code pos}, reading up to a buffer's worth.
   * Returns false when the range ends first.
   */
  private boolean fill(int needed) throws IOException {
    ensureOpen();
    long at = position();
    long toRead = Math.min(Math.max(needed, bufferSize), rangeEnd - at);
    if (toRead < needed) {
      return false;
    }
    int keep = limit - pos;
    if (buffer == null || buffer.refCnt() > 1 || buffer.capacity() < toRead) {
      // Slices of the current buffer are alive (or it is too small): start a new one.
      ByteBuf fresh = source.buffer((int) Math.max(bufferSize, toRead));
      if (keep > 0) {
        fresh.setBytes(0, buffer, pos, keep);
      }
      if (buffer != null) {
        buffer.release();
      }
      buffer = fresh;
    } else if (keep > 0) {
      buffer.setBytes(0, buffer, pos, keep);
    }
    bufferStart = at;
    pos = 0;
    limit = keep;
    int more = (int) Math.min(buffer.capacity(), toRead) - keep;
    if (more > 0) {
      timedRead(at + keep, buffer, keep, more);
      limit += more;
    }
    return limit >= needed;
  }

  private void timedRead(long position, ByteBuf dst, int dstIndex, int length) throws IOException {
    long t0 = System.nanoTime();
    reads.readFully(position, dst, dstIndex, length);
    recordRead(System.nanoTime() - t0, length);
  }

  private void ensureOpen() throws IOException {
    if (closed) {
      throw where.io("read after close");
    }
  }

  @Override
  public void close() {
    closed = true;
    if (buffer != null) {
      buffer.release();
      buffer = null;
    }
    limit = 0;
    pos = 0;
  }
}
