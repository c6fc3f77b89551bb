package io.turboparquet.storage;

import io.turboparquet.io.ErrorContext;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.LockSupport;
import org.apache.hadoop.fs.ByteBufferPositionedReadable;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.StreamCapabilities;

/**
 * A throttled stream over a local file. Every call that reaches the "storage" (a refill of the
 * small sequential buffer, each positional read, each range of a vectored read) pays the latency,
 * then moves its bytes through this stream's link and the file system's shared link, and is
 * counted. Positional reads into ByteBuffers are offered (and throttled), so readers that prefer
 * them, or a FileChannel on a local descriptor, cannot go around the throttle: this stream has no
 * file descriptor to hand out.
 */
final class SlowInputStream extends FSInputStream implements ByteBufferPositionedReadable, StreamCapabilities {
  private static final int SEQUENTIAL_BUFFER = 64 * 1024;

  private final FileChannel channel;
  private final String path;
  private final long latencyNanos;
  private final BandwidthPipe streamLink;
  private final BandwidthPipe totalLink;
  private final StorageCounters counters;
  private final ByteBuffer buffer = ByteBuffer.allocate(SEQUENTIAL_BUFFER).flip();
  private long bufferStart; // file offset of buffer byte 0
  private volatile boolean closed;

  SlowInputStream(java.nio.file.Path file, String path, long latencyNanos, long streamBytesPerSecond,
      BandwidthPipe totalLink, StorageCounters counters) throws IOException {
    this.channel = FileChannel.open(file, StandardOpenOption.READ);
    this.path = path;
    this.latencyNanos = latencyNanos;
    this.streamLink = new BandwidthPipe(streamBytesPerSecond);
    this.totalLink = totalLink;
    this.counters = counters;
  }

  /** One storage call: reads at {@code position} into {@code dst} until full or end of file, then waits out the throttle. */
  private int call(long position, ByteBuffer dst) throws IOException {
    ensureOpen();
    long t0 = System.nanoTime();
    int done = 0;
    while (dst.hasRemaining()) {
      int got = channel.read(dst, position + done);
      if (got < 0) {
        break;
      }
      done += got;
    }
    long ready = t0 + latencyNanos;
    long through = Math.max(streamLink.reserve(ready, done), totalLink.reserve(ready, done));
    counters.recordRead(path, position, done);
    sleepUntil(through);
    return done == 0 && dst.hasRemaining() ? -1 : done;
  }

  private static void sleepUntil(long deadline) throws IOException {
    long left;
    while ((left = deadline - System.nanoTime()) > 0) {
      LockSupport.parkNanos(left);
      if (Thread.interrupted()) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted in a throttled read");
      }
    }
  }

  @Override
  public synchronized int read() throws IOException {
    if (!buffer.hasRemaining() && !refill()) {
      return -1;
    }
    return buffer.get() & 0xff;
  }

  @Override
  public synchronized int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    if (!buffer.hasRemaining()) {
      if (len >= SEQUENTIAL_BUFFER) {
        // A large read goes straight to storage, as one call.
        long at = getPos();
        int n = call(at, ByteBuffer.wrap(b, off, len));
        if (n > 0) {
          bufferStart = at + n;
          buffer.clear().flip();
        }
        return n;
      }
      if (!refill()) {
        return -1;
      }
    }
    int n = Math.min(len, buffer.remaining());
    buffer.get(b, off, n);
    return n;
  }

  private boolean refill() throws IOException {
    bufferStart = getPos();
    buffer.clear();
    int n = call(bufferStart, buffer);
    buffer.flip();
    return n > 0;
  }

  @Override
  public synchronized void seek(long pos) throws IOException {
    if (pos < 0) {
      throw new EOFException("negative seek " + pos);
    }
    if (pos >= bufferStart && pos <= bufferStart + buffer.limit()) {
      buffer.position((int) (pos - bufferStart));
    } else {
      bufferStart = pos;
      buffer.clear().flip();
    }
  }

  @Override
  public synchronized long getPos() {
    return bufferStart + buffer.position();
  }

  @Override
  public boolean seekToNewSource(long targetPos) {
    return false;
  }

  @Override
  public int available() throws IOException {
    ensureOpen();
    return buffer.remaining();
  }

  @Override
  public int read(long position, byte[] b, int off, int len) throws IOException {
    validatePositionedReadArgs(position, b, off, len);
    return len == 0 ? 0 : call(position, ByteBuffer.wrap(b, off, len));
  }

  @Override
  public void readFully(long position, byte[] b, int off, int len) throws IOException {
    validatePositionedReadArgs(position, b, off, len);
    if (len > 0 && call(position, ByteBuffer.wrap(b, off, len)) < len) {
      throw ErrorContext.of(path).eof("end of file reading " + len + " bytes at " + position);
    }
  }

  @Override
  public int read(long position, ByteBuffer buf) throws IOException {
    return buf.hasRemaining() ? call(position, buf) : 0;
  }

  @Override
  public void readFully(long position, ByteBuffer buf) throws IOException {
    int want = buf.remaining();
    if (want > 0 && call(position, buf) < want) {
      throw ErrorContext.of(path).eof("end of file reading " + want + " bytes at " + position);
    }
  }

  @Override
  public boolean hasCapability(String capability) {
    return StreamCapabilities.PREADBYTEBUFFER.equalsIgnoreCase(capability);
  }

  private void ensureOpen() throws IOException {
    if (closed) {
      throw ErrorContext.of(path).io("stream is closed");
    }
  }

  @Override
  public synchronized void close() throws IOException {
    closed = true;
    channel.close();
  }
}
