package io.turboparquet.io;

import io.netty.buffer.ByteBuf;
import java.io.EOFException;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.HasFileDescriptor;
import org.apache.hadoop.fs.StreamCapabilities;

/**
 * Positional reads from a Hadoop stream straight into a direct buffer, by the best means the
 * stream offers: ByteBuffer reads (HDFS), a FileChannel on the stream's file descriptor (the raw
 * local file system), or else a per-thread heap staging array and a copy (the checksum file
 * system, object stores).
 */
public final class RangeReads {
  private static final int STAGING = 1 << 20;
  private static final ThreadLocal<byte[]> STAGING_BUFFER = ThreadLocal.withInitial(() -> new byte[STAGING]);

  /** Reads exactly {@code length} bytes at file offset {@code position} into {@code dst[dstIndex...)}. */
  @FunctionalInterface
  public interface RangeReader {
    void readFully(long position, ByteBuf dst, int dstIndex, int length) throws IOException;
  }

  private RangeReads() {}

  /** The cheapest reader for {@code in}. */
  public static RangeReader forStream(FSDataInputStream in) {
    if (in.hasCapability(StreamCapabilities.PREADBYTEBUFFER)) {
      return (position, dst, dstIndex, length) -> {
        if (dst.nioBufferCount() == 1) {
          in.readFully(position, dst.nioBuffer(dstIndex, length));
        } else {
          staged(in, position, dst, dstIndex, length);
        }
      };
    }
    FileChannel channel = localChannel(in);
    if (channel != null) {
      return (position, dst, dstIndex, length) -> {
        if (dst.nioBufferCount() == 1) {
          channelRead(channel, position, dst.nioBuffer(dstIndex, length));
        } else {
          staged(in, position, dst, dstIndex, length);
        }
      };
    }
    return (position, dst, dstIndex, length) -> staged(in, position, dst, dstIndex, length);
  }

  /**
   * A channel on the local file behind {@code in}, for positional reads into direct memory, or
   * null. It shares the stream's descriptor and is never closed by us: closing the Hadoop stream
   * closes the descriptor and, through it, the channel.
   */
  private static FileChannel localChannel(FSDataInputStream in) {
    InputStream wrapped = in.getWrappedStream();
    if (!(wrapped instanceof HasFileDescriptor hasFd)) {
      return null;
    }
    try {
      FileDescriptor fd = hasFd.getFileDescriptor();
      return fd != null && fd.valid() ? new FileInputStream(fd).getChannel() : null;
    } catch (IOException | RuntimeException e) {
      return null; // fall back to staged reads
    }
  }

  private static void channelRead(FileChannel channel, long position, ByteBuffer target) throws IOException {
    long at = position;
    while (target.hasRemaining()) {
      int got = channel.read(target, at);
      if (got < 0) {
        throw new EOFException("end of file at offset " + at + " with " + target.remaining()
            + " bytes still to read");
      }
      at += got;
    }
  }

  private static void staged(FSDataInputStream in, long position, ByteBuf dst, int dstIndex, int length)
      throws IOException {
    byte[] staging = STAGING_BUFFER.get();
    int done = 0;
    while (done < length) {
      int n = Math.min(staging.length, length - done);
      int got = in.read(position + done, staging, 0, n);
      if (got < 0) {
        throw new EOFException("end of file at offset " + (position + done) + " with " + (length - done)
            + " bytes still to read");
      }
      dst.setBytes(dstIndex + done, staging, 0, got);
      done += got;
    }
  }
}
