package io.turboparquet.io;

import io.netty.buffer.ByteBuf;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.StreamCapabilities;

/**
 * Positional reads from a Hadoop stream straight into a direct buffer. Streams that can read into a
 * ByteBuffer (HDFS) do so without a copy; the others (the local and checksum file systems) go
 * through a per-thread heap staging array.
 */
public final class RangeReads {
  private static final int STAGING = 1 << 20;
  private static final ThreadLocal<byte[]> STAGING_BUFFER = ThreadLocal.withInitial(() -> new byte[STAGING]);

  private RangeReads() {}

  /** Whether {@code in} reads into ByteBuffers at a position. */
  public static boolean supportsByteBufferReads(FSDataInputStream in) {
    return in.hasCapability(StreamCapabilities.PREADBYTEBUFFER);
  }

  /**
   * Reads exactly {@code length} bytes at file offset {@code position} into
   * {@code dst[dstIndex, dstIndex + length)}.
   */
  public static void readFully(FSDataInputStream in, boolean byteBufferReads, long position, ByteBuf dst,
      int dstIndex, int length) throws IOException {
    if (length == 0) {
      return;
    }
    if (byteBufferReads && dst.nioBufferCount() == 1) {
      ByteBuffer target = dst.nioBuffer(dstIndex, length);
      in.readFully(position, target);
      return;
    }
    byte[] staging = STAGING_BUFFER.get();
    int done = 0;
    while (done < length) {
      int n = Math.min(staging.length, length - done);
      int got = readSome(in, position + done, staging, n);
      dst.setBytes(dstIndex + done, staging, 0, got);
      done += got;
    }
  }

  private static int readSome(FSDataInputStream in, long position, byte[] buf, int n) throws IOException {
    int got = in.read(position, buf, 0, n);
    if (got < 0) {
      throw new EOFException("end of file at offset " + position + " with " + n + " bytes still to read");
    }
    return got;
  }
}
