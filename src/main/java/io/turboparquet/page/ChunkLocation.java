package io.turboparquet.page;

import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.io.ErrorContext;

/** A column chunk and where it is for error messages: file, row group and column. */
public record ChunkLocation(ErrorContext context, ColumnChunkMeta chunk) {
  public ChunkLocation(String file, int rowGroup, ColumnChunkMeta chunk) {
    this(ErrorContext.of(file).inRowGroup(rowGroup).column(chunk.column().dottedPath()), chunk);
  }

  public String file() {
    return context.file();
  }

  /** "row group 3 column a.b" */
  public String describe() {
    return context.where();
  }

  /**
   * The corruption error for the page at {@code pageOffset}: "[file] row group 3 column a.b, page at
   * offset 4: what", then the cause's message if there is a cause ({@link ErrorContext#causeDetail}).
   */
  public ParquetCorruptionException corruption(long pageOffset, String what, Throwable cause) {
    return new ParquetCorruptionException(context.page(pageOffset),
        cause == null ? what : what + ": " + ErrorContext.causeDetail(cause), cause);
  }

  /**
   * Throws the error for the page at {@code pageOffset} unless its header's uncompressed size is
   * within {@code maxPageBytes}: called before anything is allocated for the page.
   */
  public void checkPageSize(long pageOffset, int uncompressedSize, int maxPageBytes) throws PageTooLargeException {
    if (uncompressedSize > maxPageBytes) {
      throw new PageTooLargeException(context.page(pageOffset), "claims " + uncompressedSize
          + " uncompressed bytes, more than the limit of " + maxPageBytes + " (option maxPageBytes)", uncompressedSize);
    }
  }
}
