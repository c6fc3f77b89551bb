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
}
