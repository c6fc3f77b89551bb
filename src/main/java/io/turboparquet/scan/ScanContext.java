package io.turboparquet.scan;

import io.turboparquet.io.BufferSource;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import org.apache.hadoop.fs.FileSystem;

/**
 * What a scan runs with: its options and the stateful resources it borrows (file system, buffers,
 * pools), plus the metrics it fills. The pools are only used when the options ask for async reads
 * or parallel decoding.
 */
public record ScanContext(FileSystem fileSystem, ScanOptions options, BufferSource buffers,
    ExecutorService scanPool, ExecutorService decodePool, ScanMetrics metrics) {

  public ScanContext {
    Objects.requireNonNull(fileSystem, "fileSystem");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(buffers, "buffers");
    Objects.requireNonNull(metrics, "metrics");
    if (options.io().asyncPageReads() && scanPool == null) {
      throw new IllegalArgumentException("async page reads need a scan pool");
    }
    if (options.decode().parallelDecode() && decodePool == null) {
      throw new IllegalArgumentException("parallel decoding needs a decode pool");
    }
    if (scanPool != null && scanPool == decodePool) {
      throw new IllegalArgumentException("the scan and decode pools must differ (a decode task waiting on a read"
          + " queued behind it would deadlock)");
    }
  }

  /** The same resources and metrics with other options (e.g. a row group's batch size). */
  public ScanContext withOptions(ScanOptions other) {
    return new ScanContext(fileSystem, other, buffers, scanPool, decodePool, metrics);
  }
}
