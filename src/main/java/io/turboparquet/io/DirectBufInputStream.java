package io.turboparquet.io;

import io.netty.buffer.ByteBuf;
import java.io.EOFException;
import java.io.IOException;
import org.apache.hadoop.fs.FSDataInputStream;

/**
 * Unbuffered access to a byte range: every page body is one read into a buffer of its exact size,
 * and page headers come through the Hadoop stream's own small buffer.
 */
public final class DirectBufInputStream extends ChunkInput {
  private final FSDataInputStream in;
  private final String file;
  private final long fileLength;
  private final long rangeEnd;
  private final BufferSource source;
  private final RangeReads.RangeReader reads;
  private long position;

  public DirectBufInputStream(FSDataInputStream in, String file, long fileLength, long start, long length,
      BufferSource source) throws IOException {
    this.in = in;
    this.file = file;
    this.fileLength = fileLength;
    this.rangeEnd = Math.min(start + length, fileLength);
    this.source = source;
    this.reads = RangeReads.forStream(in);
    this.position = start;
    in.seek(start);
  }

  @Override
  public long position() {
    return position;
  }

  @Override
  public int available() {
    return (int) Math.min(Integer.MAX_VALUE, Math.max(0, rangeEnd - position));
  }

  @Override
  public int read() throws IOException {
    // Page headers arrive byte by byte from the Hadoop stream's own buffer: count the byte but
    // spend no clock reads on it (the bulk reads that refill that buffer are timed).
    int b = in.read();
    if (b >= 0) {
      position++;
      recordBufferedRead(0, 1);
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    long t0 = System.nanoTime();
    int n = in.read(b, off, len);
    if (n > 0) {
      position += n;
    }
    recordBufferedRead(System.nanoTime() - t0, Math.max(n, 0));
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    if (n <= 0) {
      return 0;
    }
    position += n;
    in.seek(position);
    return n;
  }

  @Override
  public ByteBuf getNext(int n) throws IOException {
    if (position + n > fileLength) {
      throw new EOFException("[" + file + "] wanted " + n + " bytes at offset " + position + " but the file ends at "
          + fileLength);
    }
    ByteBuf out = source.buffer(n);
    try {
      long t0 = System.nanoTime();
      reads.readFully(position, out, 0, n);
      recordRead(System.nanoTime() - t0, n);
      out.writerIndex(n);
    } catch (IOException | RuntimeException e) {
      out.release();
      throw e;
    }
    position += n;
    in.seek(position);
    return out;
  }

  @Override
  public void close() {
    // The Hadoop stream belongs to whoever opened it.
  }
}
