package io.turboparquet.io;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import org.apache.hadoop.fs.FSDataInputStream;

/**
 * Unbuffered access to a byte range: every page body is one positional read into a buffer of its
 * exact size. Page headers come from a small window filled by positional reads that stop at the
 * range's end, so nothing past the chunk (another column's bytes) is read; the window's bytes that
 * turn out to be body are used, not read again. A page that runs past the range fails.
 */
public final class DirectBufInputStream extends ChunkInput {
  /** Most page headers fit; a larger one takes a second window. */
  private static final int HEADER_WINDOW = 1024;

  private final ErrorContext where; // the file, for errors
  private final long rangeEnd;
  private final BufferSource source;
  private final RangeReads.RangeReader reads;
  private final byte[] window = new byte[HEADER_WINDOW];
  private long windowStart;
  private int windowLength;
  private long position;

  public DirectBufInputStream(FSDataInputStream in, String file, long fileLength, long start, long length,
      BufferSource source) {
    if (start < 0 || length < 0 || length > fileLength - start) {
      throw new IllegalArgumentException("bad range: start " + start + " length " + length + " in a file of "
          + fileLength + " bytes");
    }
    this.where = ErrorContext.of(file);
    this.rangeEnd = start + length;
    this.source = source;
    this.reads = RangeReads.forStream(in);
    this.position = start;
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
    return (int) Math.min(Integer.MAX_VALUE, Math.max(0, rangeEnd - position));
  }

  /** Window bytes at {@code position}, refilling the window when it has none; 0 at the end of the range. */
  private int windowed() throws IOException {
    long at = position - windowStart;
    if (at >= 0 && at < windowLength) {
      return (int) (windowLength - at);
    }
    int n = (int) Math.min(HEADER_WINDOW, rangeEnd - position);
    windowStart = position;
    windowLength = 0;
    if (n <= 0) {
      return 0;
    }
    ByteBuf dst = io.netty.buffer.Unpooled.wrappedBuffer(window);
    long t0 = System.nanoTime();
    reads.readFully(position, dst, 0, n);
    recordRead(System.nanoTime() - t0, n);
    windowLength = n;
    return n;
  }

  @Override
  public int read() throws IOException {
    if (windowed() == 0) {
      return -1;
    }
    int b = window[(int) (position - windowStart)] & 0xff;
    position++;
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    int have = windowed();
    if (have == 0) {
      return -1;
    }
    int n = Math.min(len, have);
    System.arraycopy(window, (int) (position - windowStart), b, off, n);
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
    if (n > rangeEnd - position) {
      throw ChunkInput.pastEnd(where, n, position, rangeEnd);
    }
    ByteBuf out = source.buffer(n);
    try {
      long at = position - windowStart;
      int have = at >= 0 && at < windowLength ? (int) Math.min(n, windowLength - at) : 0;
      if (have > 0) {
        out.setBytes(0, window, (int) at, have);
      }
      if (n > have) {
        long t0 = System.nanoTime();
        reads.readFully(position + have, out, have, n - have);
        recordRead(System.nanoTime() - t0, n - have);
      }
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
    // The Hadoop stream belongs to whoever opened it.
  }
}
