package io.turboparquet.scan;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The two per-process pools where the core owns them (CLI, tests, benchmarks): the scan pool for
 * page reads and the decode pool for decompression and decoding. They must differ: a decode task
 * waiting for a page whose read is queued behind it on the same pool would wait forever. Inside
 * Drill the drillbit's own executors are used instead.
 */
public final class ScanPools implements AutoCloseable {
  private final ExecutorService scanPool;
  private final ExecutorService decodePool;

  public ScanPools(int scanThreads, int decodeThreads) {
    this.scanPool = Executors.newFixedThreadPool(scanThreads, daemon("turbo-scan"));
    this.decodePool = Executors.newFixedThreadPool(decodeThreads, daemon("turbo-decode"));
  }

  public static ScanPools forOptions(ScanOptions options) {
    return new ScanPools(options.threads().scan(), options.threads().decode());
  }

  public ExecutorService scanPool() {
    return scanPool;
  }

  public ExecutorService decodePool() {
    return decodePool;
  }

  private static ThreadFactory daemon(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  @Override
  public void close() {
    scanPool.shutdownNow();
    decodePool.shutdownNow();
    try {
      scanPool.awaitTermination(10, TimeUnit.SECONDS);
      decodePool.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
