package io.turboparquet.format;

import java.io.IOException;

/**
 * The file's bytes contradict the Parquet format. The message always starts with the file
 * ({@code [path] ...}) and names what is wrong, so a user sees where it broke.
 */
public class ParquetCorruptionException extends IOException {
  public ParquetCorruptionException(String file, String message) {
    super("[" + file + "] " + message);
  }

  public ParquetCorruptionException(String file, String message, Throwable cause) {
    super("[" + file + "] " + message, cause);
  }

  /** Throws a corruption error for {@code file} unless {@code condition} holds. */
  public static void validate(boolean condition, String file, String format, Object... args)
      throws ParquetCorruptionException {
    if (!condition) {
      throw new ParquetCorruptionException(file, String.format(format, args));
    }
  }
}
