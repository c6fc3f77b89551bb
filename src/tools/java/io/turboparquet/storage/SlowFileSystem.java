package io.turboparquet.storage;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageStatistics;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * Slow storage for tests and benchmarks: the local file system under the scheme {@code slow}
 * ({@code slow:///tmp/t.parquet} is {@code /tmp/t.parquet}), with a latency per read call and a
 * bandwidth cap per stream and across all streams of this instance, counting every read call and
 * byte ({@link #counters()}). Writes, listings and metadata go to the local file system untouched.
 *
 * <p>Configured through Hadoop {@link Configuration} keys: {@value #LATENCY} (a duration, e.g.
 * {@code 10ms}; a bare number is milliseconds), {@value #STREAM_BANDWIDTH} and
 * {@value #TOTAL_BANDWIDTH} (bytes per second, with Hadoop's size suffixes: {@code 100m} is 100
 * MiB/s; 0, the default, is unlimited). Registered for the scheme through
 * {@code META-INF/services/org.apache.hadoop.fs.FileSystem}, so {@code new Path("slow:///...")
 * .getFileSystem(conf)} finds it.
 */
public final class SlowFileSystem extends FileSystem {
  public static final String SCHEME = "slow";
  public static final String LATENCY = "fs.slow.read.latency";
  public static final String STREAM_BANDWIDTH = "fs.slow.stream.bytes-per-second";
  public static final String TOTAL_BANDWIDTH = "fs.slow.total.bytes-per-second";
  /** Names of {@link #getStorageStatistics()}: the CLI's {@code scan --json} reports them as {@code storage_*}. */
  public static final String READ_CALLS = "read_calls";
  public static final String READ_BYTES = "bytes";
  public static final String STREAMS = "streams";

  private final StorageCounters counters = new StorageCounters();
  private RawLocalFileSystem local;
  private URI uri;
  private Path workingDir;
  private long latencyNanos;
  private long streamBandwidth;
  private BandwidthPipe totalLink;

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(name, conf);
    uri = URI.create(SCHEME + ":///");
    local = new RawLocalFileSystem();
    local.initialize(URI.create("file:///"), conf);
    latencyNanos = conf.getTimeDuration(LATENCY, 0, TimeUnit.MILLISECONDS, TimeUnit.NANOSECONDS);
    streamBandwidth = conf.getLongBytes(STREAM_BANDWIDTH, 0);
    long total = conf.getLongBytes(TOTAL_BANDWIDTH, 0);
    if (latencyNanos < 0 || streamBandwidth < 0 || total < 0) {
      throw new IllegalArgumentException(LATENCY + ", " + STREAM_BANDWIDTH + " and " + TOTAL_BANDWIDTH
          + " must not be negative");
    }
    totalLink = new BandwidthPipe(total);
    workingDir = toSlow(local.getWorkingDirectory());
    setConf(conf);
  }

  /** Read calls and bytes this instance served. */
  public StorageCounters counters() {
    return counters;
  }

  /**
   * The totals of {@link #counters()} under Hadoop's own API ({@link #READ_CALLS}, {@link
   * #READ_BYTES}, {@link #STREAMS}; {@code reset()} zeroes them), so that the CLI reports what the
   * harness served without depending on it.
   */
  @Override
  public StorageStatistics getStorageStatistics() {
    return new StorageStatistics(SCHEME) {
      @Override
      public Iterator<LongStatistic> getLongStatistics() {
        return List.of(new LongStatistic(READ_CALLS, counters.calls()), new LongStatistic(READ_BYTES, counters.bytes()),
            new LongStatistic(STREAMS, counters.opens())).iterator();
      }

      @Override
      public Long getLong(String key) {
        return switch (key) {
          case READ_CALLS -> counters.calls();
          case READ_BYTES -> counters.bytes();
          case STREAMS -> counters.opens();
          default -> null;
        };
      }

      @Override
      public boolean isTracked(String key) {
        return getLong(key) != null;
      }

      @Override
      public void reset() {
        counters.reset();
      }
    };
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public URI getUri() {
    return uri;
  }

  private Path toLocal(Path p) {
    Path abs = p.isAbsolute() ? p : new Path(workingDir, p);
    return new Path("file", null, abs.toUri().getPath());
  }

  private static Path toSlow(Path localPath) {
    return new Path(SCHEME, null, localPath.toUri().getPath());
  }

  private FileStatus toSlow(FileStatus s) throws IOException {
    FileStatus out = new FileStatus(s);
    out.setPath(toSlow(s.getPath()));
    return out;
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    Path l = toLocal(f);
    java.nio.file.Path file = java.nio.file.Path.of(l.toUri().getPath());
    if (!java.nio.file.Files.isRegularFile(file)) {
      throw new FileNotFoundException(toSlow(l) + " is not a file");
    }
    counters.recordOpen();
    return new FSDataInputStream(new SlowInputStream(file, toSlow(l).toString(), latencyNanos, streamBandwidth,
        totalLink, counters));
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
      short replication, long blockSize, Progressable progress) throws IOException {
    return local.create(toLocal(f), permission, overwrite, bufferSize, replication, blockSize, progress);
  }

  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress) throws IOException {
    return local.append(toLocal(f), bufferSize, progress);
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    return local.rename(toLocal(src), toLocal(dst));
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    return local.delete(toLocal(f), recursive);
  }

  @Override
  public FileStatus[] listStatus(Path f) throws IOException {
    FileStatus[] statuses = local.listStatus(toLocal(f));
    FileStatus[] out = new FileStatus[statuses.length];
    for (int i = 0; i < statuses.length; i++) {
      out[i] = toSlow(statuses[i]);
    }
    return out;
  }

  @Override
  public void setWorkingDirectory(Path dir) {
    workingDir = toSlow(toLocal(dir));
  }

  @Override
  public Path getWorkingDirectory() {
    return workingDir;
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) throws IOException {
    return local.mkdirs(toLocal(f), permission);
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    return toSlow(local.getFileStatus(toLocal(f)));
  }

  @Override
  public void close() throws IOException {
    try {
      local.close();
    } finally {
      super.close();
    }
  }
}
