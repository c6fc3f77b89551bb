package io.turboparquet.format.crypto;

import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.io.ErrorContext;

/**
 * An encrypted column (or footer) whose key the decryption properties do not give. Not corruption,
 * but it travels the same way (the file, row group and column in its message; a DATA_READ error in
 * Drill), so it is a subclass rather than a second error path.
 */
public final class KeyUnavailableException extends ParquetCorruptionException {
  public KeyUnavailableException(ErrorContext where, String what) {
    super(where, what);
  }
}
