package io.turboparquet.page;

import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.io.ErrorContext;

/**
 * A page whose header claims more uncompressed bytes than the scan reads ({@code
 * ScanOptions.Limits#maxPageBytes}), refused before anything is allocated for it. A corruption error like
 * the file's other refused claims, typed so that a boundary can name its own way to raise the limit.
 */
public final class PageTooLargeException extends ParquetCorruptionException {
  private final int pageBytes;

  PageTooLargeException(ErrorContext where, String what, int pageBytes) {
    super(where, what);
    this.pageBytes = pageBytes;
  }

  /** The page's uncompressed size as its header claims it. */
  public int pageBytes() {
    return pageBytes;
  }
}
