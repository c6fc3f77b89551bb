package io.turboparquet.io;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.fs.FSDataInputStream;

/**
 * A stream over one byte range of a file (a column chunk): bytes for the page-header decoder
 * through {@link InputStream}, page bodies as buffers through {@link #getNext(int)}. The range, which
 * the footer checked to lie in the file, bounds every read: the stream ends there, whatever the
 * input, and {@link #getNext(int)} refuses bytes past it.
 */
public abstract class ChunkInput extends InputStream {
  private long mark = -1;
  private long readNanos;
  private long bytesRead;
  private long readCalls;

  /**
   * The stream over {@code [start, start + length)} of the open file {@code in}: through a read
   * buffer of {@code bufferSize} bytes when {@code buffered}, else one exact read per page.
   */
  public static ChunkInput open(FSDataInputStream in, String file, long fileLength, long start, long length,
      boolean buffered, int bufferSize, BufferSource buffers) {
    return buffered
        ? new BufferedDirectBufInputStream(in, file, fileLength, start, length, bufferSize, buffers)
        : new DirectBufInputStream(in, file, fileLength, start, length, buffers);
  }

  /**
   * The next {@code n} bytes as a buffer the caller owns and must release. May be a slice of a
   * larger read buffer (no copy); it stays valid after later reads.
   */
  public abstract ByteBuf getNext(int n) throws IOException;

  /** File offset of the next byte. */
  public abstract long position();

  /** Moves to file offset {@code at}, at or before the position (see {@link #reset}). */
  protected abstract void seek(long at);

  /** Page headers are peeked: marked, read ahead, then reset to (a header is as long as it decodes). */
  @Override
  public final boolean markSupported() {
    return true;
  }

  @Override
  public final void mark(int readLimit) {
    mark = position();
  }

  @Override
  public final void reset() throws IOException {
    if (mark < 0) {
      throw new IOException("reset without mark");
    }
    seek(mark);
  }

  /**
   * The error of a read of {@code n} bytes at {@code at} that the chunk, ending at {@code end}, does
   * not hold: every input's, so that every read mode words it alike.
   */
  static java.io.EOFException pastEnd(ErrorContext where, long n, long at, long end) {
    return where.eof("wanted " + n + " bytes at offset " + at + " but the column chunk ends at " + end);
  }

  /** Nanoseconds spent waiting on the file system so far. */
  public final long readNanos() {
    return readNanos;
  }

  /** Bytes read from the file system so far. */
  public final long bytesRead() {
    return bytesRead;
  }

  /** Read calls issued to the file system so far. */
  public final long readCalls() {
    return readCalls;
  }

  /** Counts one read call to the file system. */
  protected final void recordRead(long nanos, long bytes) {
    recordBufferedRead(nanos, bytes);
    readCalls++;
  }

  /** Counts bytes served by the Hadoop stream's own buffer: time and bytes, but no call of ours. */
  protected final void recordBufferedRead(long nanos, long bytes) {
    readNanos += nanos;
    bytesRead += bytes;
  }

  /** Releases the read buffer; never throws. */
  @Override
  public abstract void close();

  /** Reads into {@code dst} at its writer index; returns bytes read or -1 at the end of the range. */
  public int read(ByteBuf dst) throws IOException {
    return read(dst, dst.writerIndex(), dst.writableBytes());
  }

  /**
   * Reads up to {@code len} bytes into {@code dst[off, off + len)}, advancing dst's writer index
   * to the end of what was written; returns the count or -1 at the end of the range.
   */
  public int read(ByteBuf dst, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    int n = (int) Math.min(len, available());
    if (n <= 0) {
      return -1;
    }
    ByteBuf next = getNext(n);
    try {
      dst.setBytes(off, next, next.readerIndex(), n);
      dst.writerIndex(Math.max(dst.writerIndex(), off + n));
    } finally {
      next.release();
    }
    return n;
  }
}
