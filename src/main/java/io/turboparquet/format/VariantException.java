package io.turboparquet.format;

/**
 * Variant bytes or a shredded VARIANT's columns contradict VariantEncoding.md or
 * VariantShredding.md. Unchecked and without file context: the scan core catches it where the
 * file, row group, column and row are known and rethrows it as a {@link ParquetCorruptionException}.
 */
public final class VariantException extends RuntimeException {
  public VariantException(String message) {
    super(message);
  }

  /** Throws unless {@code condition} holds. */
  static void check(boolean condition, String format, Object... args) {
    if (!condition) {
      throw new VariantException(String.format(format, args));
    }
  }
}
