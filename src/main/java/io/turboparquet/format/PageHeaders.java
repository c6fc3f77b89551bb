package io.turboparquet.format;

import io.turboparquet.format.thrift.PageHeaderDecoder;
import java.io.IOException;
import java.io.InputStream;

/**
 * Decodes a Thrift page header and checks the sizes the reader will trust. Readers of many pages
 * keep one {@link PageHeaderDecoder} instead, which allocates nothing beyond each result.
 */
public final class PageHeaders {
  private PageHeaders() {}

  /**
   * Reads one page header from {@code in}, which {@code position} tracks, so the header's file
   * offset and length are known; {@code where} names the row group and column in errors.
   */
  public static PageHeaderInfo read(InputStream in, CountingPosition position, String file, String where)
      throws IOException {
    return new PageHeaderDecoder(file).read(in, position.position(), where);
  }

  /** Something that knows the file offset of the next byte it will read. */
  public interface CountingPosition {
    long position();
  }
}
