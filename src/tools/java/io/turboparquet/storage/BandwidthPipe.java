package io.turboparquet.storage;

/**
 * A link of fixed bandwidth that transfers one read at a time, first come first served: a read of
 * n bytes that is ready at time t finishes at max(t, when the link frees) + n / bandwidth.
 * Bandwidth 0 means unlimited.
 */
final class BandwidthPipe {
  private final double nanosPerByte;
  private long freeAt = Long.MIN_VALUE;

  BandwidthPipe(long bytesPerSecond) {
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException("negative bandwidth " + bytesPerSecond);
    }
    this.nanosPerByte = bytesPerSecond == 0 ? 0 : 1e9 / bytesPerSecond;
  }

  /** Books {@code bytes} on the link no earlier than {@code readyAt} (System.nanoTime); returns when they are through. */
  synchronized long reserve(long readyAt, long bytes) {
    if (nanosPerByte == 0) {
      return readyAt;
    }
    long start = freeAt == Long.MIN_VALUE ? readyAt : Math.max(readyAt, freeAt);
    freeAt = start + (long) Math.ceil(bytes * nanosPerByte);
    return freeAt;
  }
}
