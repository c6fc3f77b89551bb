package io.turboparquet.page;

import io.netty.buffer.ByteBuf;
import io.turboparquet.format.PageHeaderInfo;
import io.turboparquet.format.PageType;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.format.thrift.PageHeaderDecoder;
import io.turboparquet.io.BufferSource;
import io.turboparquet.io.ChunkInput;
import java.io.EOFException;
import java.io.IOException;

/**
 * Reads a column chunk's pages one after another from a {@link ChunkInput}, on the caller's thread.
 * The chunk ends when its data pages hold the chunk's {@code num_values}; index pages and page
 * types from the future are skipped.
 */
public final class PageReader implements PageSource {
  private final ChunkInput input;
  private final ChunkLocation location;
  private final long numValues;
  private final String where;
  private final PageHeaderDecoder headers;
  private final int maxPageBytes;
  /** Null unless the chunk is encrypted. */
  private final EncryptedPages encrypted;
  private long valuesSeen;
  private boolean seenDataPage;
  private int dataPages;

  /**
   * @param maxPageBytes the largest uncompressed page read: a header claiming more is refused, the page unread
   * @param buffers where an encrypted chunk's decrypted pages go
   * @throws IOException when the chunk is encrypted and its key unavailable
   */
  public PageReader(ChunkInput input, ChunkLocation location, int maxPageBytes, BufferSource buffers)
      throws IOException {
    this.input = input;
    this.location = location;
    this.maxPageBytes = maxPageBytes;
    this.numValues = location.chunk().numValues();
    this.where = location.describe(); // once, not per page header
    this.headers = new PageHeaderDecoder(location.file()); // reused: no allocation per header but the result
    this.encrypted = EncryptedPages.of(location, buffers, headers);
  }

  public ChunkInput input() {
    return input;
  }

  @Override
  public Page next() throws IOException {
    while (valuesSeen < numValues) {
      long offset = input.position();
      PageHeaderInfo header;
      ByteBuf body;
      if (encrypted == null) {
        header = headers.read(input, offset, where);
        body = body(input, header, offset, location, maxPageBytes);
      } else {
        Page page = encrypted.page(input, encrypted.header(input, offset, dataPages), offset, dataPages, maxPageBytes,
            -1, -1);
        header = page.header();
        body = page.body();
      }
      PageType type = header.type();
      if (type == PageType.DICTIONARY_PAGE) {
        if (seenDataPage) {
          body.release();
          throw new ParquetCorruptionException(location.context(),
              "a dictionary page at offset " + offset + " follows data pages");
        }
        return new Page(header, body, offset);
      }
      if (header.isDataPage()) {
        seenDataPage = true;
        dataPages++;
        valuesSeen += header.numValues();
        if (valuesSeen > numValues) {
          body.release();
          throw new ParquetCorruptionException(location.context(), "pages hold more values ("
              + valuesSeen + ") than ColumnMetaData.num_values (" + numValues + ") at offset " + offset);
        }
        return new Page(header, body, offset);
      }
      body.release(); // index pages and unknown page types
    }
    return null;
  }

  /**
   * The stored bytes of the page whose header was just read from {@code in} at {@code offset}, once
   * its uncompressed size is found within {@code maxPageBytes}.
   */
  static ByteBuf body(ChunkInput in, PageHeaderInfo header, long offset, ChunkLocation location, int maxPageBytes)
      throws IOException {
    location.checkPageSize(offset, header.uncompressedSize(), maxPageBytes);
    try {
      return in.getNext(header.compressedSize());
    } catch (EOFException e) { // the inputs check against the chunk's end before they allocate
      throw location.corruption(offset, "its " + header.compressedSize()
          + " stored bytes run past the end of the column chunk", e);
    }
  }

  @Override
  public void close() {
    try {
      input.close();
    } finally {
      if (encrypted != null) {
        encrypted.close();
      }
    }
  }
}
