package io.turboparquet.page;

import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.ParquetCorruptionException;

/** Names a column chunk in error messages: file, row group and column. */
public record ChunkLocation(String file, int rowGroup, ColumnChunkMeta chunk) {
  /** "row group 3 column a.b" */
  public String describe() {
    return "row group " + rowGroup + " column " + chunk.column().dottedPath();
  }

  /**
   * The corruption error for the page at {@code pageOffset}: "[file] row group 3 column a.b, page at
   * offset 4: what". A JDK exception that got this far (a check a decoder lacks) keeps its class
   * name in the message, so the gap can be found.
   */
  public ParquetCorruptionException corruption(long pageOffset, String what, Throwable cause) {
    String detail = cause == null ? what
        : what + ": " + (cause.getClass().getName().startsWith("java.") ? cause.getClass().getSimpleName() + ": " : "")
            + cause.getMessage();
    return new ParquetCorruptionException(file, describe() + ", page at offset " + pageOffset + ": " + detail, cause);
  }

  /**
   * Throws the error for the page at {@code pageOffset} unless its header's uncompressed size is
   * within {@code maxPageBytes}: called before anything is allocated for the page.
   */
  public void checkPageSize(long pageOffset, int uncompressedSize, int maxPageBytes) throws PageTooLargeException {
    if (uncompressedSize > maxPageBytes) {
      throw new PageTooLargeException(file, describe() + ", page at offset " + pageOffset + ": claims "
          + uncompressedSize + " uncompressed bytes, more than the limit of " + maxPageBytes + " (option maxPageBytes)",
          uncompressedSize);
    }
  }
}
