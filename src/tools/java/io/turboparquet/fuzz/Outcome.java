package io.turboparquet.fuzz;

/** How a fuzz case ended. The first three are fine; every other one fails the campaign. */
public enum Outcome {
  /** Read to the end, batch contract intact, and equal to parquet-java where it reads the file too. */
  ACCEPTED(false),
  /** A ParquetCorruptionException naming the file. */
  CORRUPTION(false),
  /** An UnsupportedOperationException naming a feature. */
  UNSUPPORTED(false),
  /** Any other exception escaped the core (or a corruption error did not name the file). */
  RAW_EXCEPTION(true),
  /** An OutOfMemoryError, heap or direct. */
  OOM(true),
  /** The case did not end within the per-case timeout. */
  HANG(true),
  /** The JVM running the case died (e.g. SIGSEGV from an unchecked memory access). */
  CRASH(true),
  /** A batch broke the batch contract (row counts, levels, offsets). */
  BROKEN_BATCH(true),
  /** Direct buffers were still held after the scanner closed. */
  BUFFER_LEAK(true),
  /** Accepted, parquet-java read the same bytes without error, and the digests differ. */
  WRONG_VALUES(true);

  private final boolean failure;

  Outcome(boolean failure) {
    this.failure = failure;
  }

  public boolean isFailure() {
    return failure;
  }
}
