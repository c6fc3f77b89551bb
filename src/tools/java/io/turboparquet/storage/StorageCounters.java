package io.turboparquet.storage;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Read calls and bytes a {@link SlowFileSystem} served, in total and per path, with the byte
 * ranges of every call, so a test can check which parts of a file a scan touched.
 */
public final class StorageCounters {
  /** One read call: {@code length} bytes from file offset {@code offset}. */
  public record Read(long offset, long length) {
    public long end() {
      return offset + length;
    }

    /** True when this read touched a byte of {@code [start, end)}. */
    public boolean overlaps(long start, long end) {
      return offset < end && start < offset + length;
    }
  }

  /** Calls and bytes of one path. */
  public static final class PathCounters {
    private final List<Read> reads = new ArrayList<>();
    private long bytes;

    synchronized void add(long offset, long length) {
      reads.add(new Read(offset, length));
      bytes += length;
    }

    public synchronized long calls() {
      return reads.size();
    }

    public synchronized long bytes() {
      return bytes;
    }

    /** Every read call so far, in the order they completed. */
    public synchronized List<Read> reads() {
      return List.copyOf(reads);
    }
  }

  private final LongAdder calls = new LongAdder();
  private final LongAdder bytes = new LongAdder();
  private final LongAdder opens = new LongAdder();
  private final Map<String, PathCounters> byPath = new ConcurrentHashMap<>();

  void recordOpen() {
    opens.increment();
  }

  void recordRead(String path, long offset, long length) {
    calls.increment();
    bytes.add(length);
    byPath.computeIfAbsent(path, p -> new PathCounters()).add(offset, length);
  }

  public long calls() {
    return calls.sum();
  }

  public long bytes() {
    return bytes.sum();
  }

  /** Streams opened. */
  public long opens() {
    return opens.sum();
  }

  /** The counters of {@code path} (as the file system names it, e.g. {@code slow:///tmp/a.parquet}); empty if never read. */
  public PathCounters forPath(String path) {
    PathCounters c = byPath.get(path);
    return c == null ? new PathCounters() : c;
  }

  public void reset() {
    calls.reset();
    bytes.reset();
    opens.reset();
    byPath.clear();
  }
}
