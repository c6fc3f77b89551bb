package io.turboparquet.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.turboparquet.cli.Digester;
import io.turboparquet.io.TrackingBufferSource;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Runs our digest over a file with given options on shared pools, and checks that the scan gave
 * back every buffer it took.
 */
public final class ScanHarness implements AutoCloseable {
  private final ExecutorService scanPool = Executors.newFixedThreadPool(3);
  private final ExecutorService decodePool = Executors.newFixedThreadPool(3);
  private final FileSystem fs;

  public ScanHarness() {
    this(rawLocal());
  }

  /** Scans through {@code fs} (HDFS, a recording wrapper, ...). */
  public ScanHarness(FileSystem fs) {
    this.fs = fs;
  }

  private static FileSystem rawLocal() {
    try {
      return FileSystem.getLocal(new Configuration()).getRaw();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  public FileSystem fileSystem() {
    return fs;
  }

  public ScanContext context(ScanOptions options, TrackingBufferSource buffers, ScanMetrics metrics) {
    return new ScanContext(fs, options, buffers, scanPool, decodePool, metrics);
  }

  /** Our digest lines; fails the test if a buffer is still held afterwards. */
  public List<String> digest(java.nio.file.Path file, List<String> columns, ScanOptions options) throws IOException {
    return digest(hadoopPath(file), columns, options);
  }

  /** Our digest lines of a file on this harness's file system; fails the test if a buffer is still held. */
  public List<String> digest(Path file, List<String> columns, ScanOptions options) throws IOException {
    TrackingBufferSource buffers = new TrackingBufferSource();
    try {
      return Digester.digest(context(options, buffers, new ScanMetrics()), file, columns);
    } finally {
      assertEquals(0, buffers.outstanding(), "buffers leaked scanning " + file + " with " + options);
    }
  }

  public static Path hadoopPath(java.nio.file.Path file) {
    return new Path(file.toAbsolutePath().toUri());
  }

  @Override
  public void close() {
    scanPool.shutdownNow();
    decodePool.shutdownNow();
  }
}
