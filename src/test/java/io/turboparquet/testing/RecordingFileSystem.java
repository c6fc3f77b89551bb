package io.turboparquet.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import org.apache.hadoop.fs.ByteBufferPositionedReadable;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.FutureDataInputStreamBuilder;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.impl.OpenFileParameters;

/**
 * A file system that passes everything to another one and records, for every stream it opens, how
 * the stream was read: ByteBuffer positional reads (with their ranges), byte-array positional reads,
 * sequential reads and vectored reads; a hook may run before each positional read. Each stream reports the capabilities of the stream it wraps,
 * so a reader that picks its read path by capability picks the path it would pick on the wrapped
 * file system.
 */
public final class RecordingFileSystem extends FilterFileSystem {
  private final List<Recorded> streams = new CopyOnWriteArrayList<>();
  private volatile ReadHook hook = (stream, position, length) -> { };

  /** Runs on the reading thread before every positional read is passed on. */
  @FunctionalInterface
  public interface ReadHook {
    void beforeRead(Recorded stream, long position, int length) throws IOException;
  }

  public RecordingFileSystem(FileSystem fs) {
    super(fs);
  }

  public void setReadHook(ReadHook hook) {
    this.hook = hook;
  }

  /** Every stream opened so far, in opening order. */
  public List<Recorded> streams() {
    return streams;
  }

  /** Bytes read so far through every stream, by every kind of read. */
  public long bytesRead() {
    return streams.stream().mapToLong(Recorded::bytes).sum();
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    return record(f, false, super.open(f, bufferSize));
  }

  /** Through this file system's {@link #openFileWithOptions}, not straight to the wrapped one's. */
  @Override
  public FutureDataInputStreamBuilder openFile(Path path) throws IOException {
    return createDataInputStreamBuilder(this, path);
  }

  @Override
  protected CompletableFuture<FSDataInputStream> openFileWithOptions(Path path, OpenFileParameters parameters)
      throws IOException {
    // A range narrower than the file: a column chunk or a coalesced range; the footer's stream covers the file.
    long start = parameters.getOptions().getLong("fs.option.openfile.split.start", 0);
    long end = parameters.getOptions().getLong("fs.option.openfile.split.end", -1);
    long length = parameters.getOptions().getLong("fs.option.openfile.length", -1);
    boolean chunks = start > 0 || end != length;
    return super.openFileWithOptions(path, parameters).thenApply(in -> record(path, chunks, in));
  }

  private FSDataInputStream record(Path path, boolean readsColumnChunks, FSDataInputStream in) {
    Recorded r = new Recorded(path, readsColumnChunks, in);
    streams.add(r);
    return new FSDataInputStream(new CountingStream(in, r, this));
  }

  /** One positional read into a ByteBuffer: {@code [position, position + length)}. */
  public record Range(long position, int length) {
    public long end() {
      return position + length;
    }
  }

  /** What one stream was asked to do. */
  public static final class Recorded {
    private final Path path;
    private final boolean readsColumnChunks;
    private final FSDataInputStream wrapped;
    final List<Range> byteBufferPreads = new CopyOnWriteArrayList<>();
    final AtomicLong byteBufferBytes = new AtomicLong();
    final AtomicLong arrayPreads = new AtomicLong();
    final AtomicLong arrayBytes = new AtomicLong();
    final AtomicLong sequentialReads = new AtomicLong();
    final AtomicLong sequentialBytes = new AtomicLong();
    final AtomicLong vectoredReads = new AtomicLong();
    final AtomicLong vectoredBytes = new AtomicLong();

    Recorded(Path path, boolean readsColumnChunks, FSDataInputStream wrapped) {
      this.path = path;
      this.readsColumnChunks = readsColumnChunks;
      this.wrapped = wrapped;
    }

    public Path path() {
      return path;
    }

    /**
     * Opened with {@code openFile()} for a range of the file (the scan's column chunks), rather than
     * for all of it (the footer) or with {@code open()}.
     */
    public boolean readsColumnChunks() {
      return readsColumnChunks;
    }

    /** The file system's own stream under the recording one. */
    public FSDataInputStream wrapped() {
      return wrapped;
    }

    public List<Range> byteBufferPreads() {
      return byteBufferPreads;
    }

    public long byteBufferBytes() {
      return byteBufferBytes.get();
    }

    public long arrayPreads() {
      return arrayPreads.get();
    }

    public long sequentialReads() {
      return sequentialReads.get();
    }

    public long vectoredReads() {
      return vectoredReads.get();
    }

    public long bytes() {
      return byteBufferBytes.get() + arrayBytes.get() + sequentialBytes.get() + vectoredBytes.get();
    }
  }

  /** Passes every read to the wrapped stream and counts it. */
  private static final class CountingStream extends FSInputStream
      implements ByteBufferPositionedReadable, StreamCapabilities {
    private final FSDataInputStream in;
    private final Recorded r;
    private final RecordingFileSystem fs;

    CountingStream(FSDataInputStream in, Recorded r, RecordingFileSystem fs) {
      this.in = in;
      this.r = r;
      this.fs = fs;
    }

    @Override
    public int read(long position, ByteBuffer buf) throws IOException {
      fs.hook.beforeRead(r, position, buf.remaining());
      int n = in.read(position, buf);
      if (n > 0) {
        r.byteBufferPreads.add(new Range(position, n));
        r.byteBufferBytes.addAndGet(n);
      }
      return n;
    }

    @Override
    public void readFully(long position, ByteBuffer buf) throws IOException {
      int n = buf.remaining();
      fs.hook.beforeRead(r, position, n);
      in.readFully(position, buf);
      r.byteBufferPreads.add(new Range(position, n));
      r.byteBufferBytes.addAndGet(n);
    }

    @Override
    public int read(long position, byte[] buffer, int offset, int length) throws IOException {
      fs.hook.beforeRead(r, position, length);
      int n = in.read(position, buffer, offset, length);
      r.arrayPreads.incrementAndGet();
      r.arrayBytes.addAndGet(Math.max(n, 0));
      return n;
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
      fs.hook.beforeRead(r, position, length);
      in.readFully(position, buffer, offset, length);
      r.arrayPreads.incrementAndGet();
      r.arrayBytes.addAndGet(length);
    }

    @Override
    public void readVectored(List<? extends FileRange> ranges, IntFunction<ByteBuffer> allocate) throws IOException {
      in.readVectored(ranges, allocate);
      r.vectoredReads.incrementAndGet();
      r.vectoredBytes.addAndGet(ranges.stream().mapToLong(FileRange::getLength).sum());
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      r.sequentialReads.incrementAndGet();
      r.sequentialBytes.addAndGet(b < 0 ? 0 : 1);
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = in.read(b, off, len);
      r.sequentialReads.incrementAndGet();
      r.sequentialBytes.addAndGet(Math.max(n, 0));
      return n;
    }

    @Override
    public void seek(long pos) throws IOException {
      in.seek(pos);
    }

    @Override
    public long getPos() throws IOException {
      return in.getPos();
    }

    @Override
    public boolean seekToNewSource(long targetPos) throws IOException {
      return in.seekToNewSource(targetPos);
    }

    @Override
    public int available() throws IOException {
      return in.available();
    }

    @Override
    public boolean hasCapability(String capability) {
      return in.hasCapability(capability);
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
