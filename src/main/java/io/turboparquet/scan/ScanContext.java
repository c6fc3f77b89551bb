package io.turboparquet.scan;

import io.turboparquet.format.crypto.DecryptionKeys;
import io.turboparquet.io.BufferSource;
import io.turboparquet.io.ErrorContext;
import java.io.InterruptedIOException;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import org.apache.hadoop.fs.FileSystem;

/**
 * What a scan runs with: its options and the stateful resources it borrows (file system, buffers,
 * pools), plus the metrics it fills. The pools are only used when the options ask for async reads
 * or parallel decoding.
 *
 * <p>{@link #cancel} may be called from any thread: the scan's decoding (on its own thread and on the
 * decode pool) stops at its next batch with an {@link InterruptedIOException}, as it does when the
 * thread that asks for batches is interrupted; the scan's owner then closes it, which releases every
 * buffer. Contexts made by {@link #withOptions} share the signal.
 *
 * <p>{@code decryption} gives encrypted files' keys ({@link DecryptionKeys#NONE} by default).
 * {@code readAhead} bounds the row groups read ahead by all scans sharing it (inside Drill: a
 * drillbit's); unlimited unless {@link #withReadAhead} says otherwise.
 */
public record ScanContext(FileSystem fileSystem, ScanOptions options, BufferSource buffers,
    ExecutorService scanPool, ExecutorService decodePool, ScanMetrics metrics, Cancellation cancellation,
    DecryptionKeys decryption, ReadAheadAllowance readAhead) {

  public ScanContext(FileSystem fileSystem, ScanOptions options, BufferSource buffers, ExecutorService scanPool,
      ExecutorService decodePool, ScanMetrics metrics) {
    this(fileSystem, options, buffers, scanPool, decodePool, metrics, new Cancellation());
  }

  public ScanContext(FileSystem fileSystem, ScanOptions options, BufferSource buffers, ExecutorService scanPool,
      ExecutorService decodePool, ScanMetrics metrics, Cancellation cancellation) {
    this(fileSystem, options, buffers, scanPool, decodePool, metrics, cancellation, DecryptionKeys.NONE,
        ReadAheadAllowance.unlimited());
  }

  public ScanContext {
    Objects.requireNonNull(fileSystem, "fileSystem");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(buffers, "buffers");
    Objects.requireNonNull(metrics, "metrics");
    Objects.requireNonNull(cancellation, "cancellation");
    Objects.requireNonNull(decryption, "decryption");
    Objects.requireNonNull(readAhead, "readAhead");
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
    return new ScanContext(fileSystem, other, buffers, scanPool, decodePool, metrics, cancellation, decryption,
        readAhead);
  }

  /** The same context reading encrypted files with the keys {@code keys} gives. */
  public ScanContext withDecryption(DecryptionKeys keys) {
    return new ScanContext(fileSystem, options, buffers, scanPool, decodePool, metrics, cancellation, keys, readAhead);
  }

  /** The same context whose row groups read ahead count against {@code shared}, with other scans'. */
  public ScanContext withReadAhead(ReadAheadAllowance shared) {
    return new ScanContext(fileSystem, options, buffers, scanPool, decodePool, metrics, cancellation, decryption,
        shared);
  }

  /** Asks the scan to stop (any thread): its decoding fails at its next batch. */
  public void cancel() {
    cancellation.cancelled = true;
  }

  /**
   * Throws when the scan is cancelled or the calling thread interrupted (Drill interrupts a cancelled
   * fragment's thread). Called once per batch of a column and per batch of a row group, so that a
   * cancelled scan stops within one batch's work ({@code batchSize}, {@code batchBytes}) however
   * much work its file claims.
   */
  void checkCancelled(ErrorContext where) throws InterruptedIOException {
    if (cancellation.cancelled || Thread.currentThread().isInterrupted()) {
      throw where.interrupted("the scan was cancelled");
    }
  }

  /** The cancel signal of a scan, shared by its contexts. */
  public static final class Cancellation {
    private volatile boolean cancelled;
  }
}
