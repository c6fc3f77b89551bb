package io.turboparquet.format;

import io.turboparquet.io.ErrorContext;
import java.io.IOException;

/**
 * The file's bytes contradict the Parquet format. The message always starts with the file and
 * names what is wrong ({@link ErrorContext#message}), so a user sees where it broke.
 */
public class ParquetCorruptionException extends IOException {
  public ParquetCorruptionException(ErrorContext where, String what) {
    super(where.message(what));
  }

  public ParquetCorruptionException(ErrorContext where, String what, Throwable cause) {
    super(where.message(what), cause);
  }

  /** An error somewhere in {@code file}: the footer, a struct, a place the message names. */
  public ParquetCorruptionException(String file, String message) {
    this(ErrorContext.of(file), message);
  }

  public ParquetCorruptionException(String file, String message, Throwable cause) {
    this(ErrorContext.of(file), message, cause);
  }

  /** Throws a corruption error at {@code where} unless {@code condition} holds. */
  public static void validate(boolean condition, ErrorContext where, String format, Object... args)
      throws ParquetCorruptionException {
    if (!condition) {
      throw new ParquetCorruptionException(where, String.format(format, args));
    }
  }

  /** Throws a corruption error for {@code file} unless {@code condition} holds. */
  public static void validate(boolean condition, String file, String format, Object... args)
      throws ParquetCorruptionException {
    validate(condition, ErrorContext.of(file), format, args);
  }
}
