package io.turboparquet.page;

import io.netty.buffer.ByteBuf;
import io.turboparquet.format.OffsetIndex;
import io.turboparquet.format.PageHeaderInfo;
import io.turboparquet.format.PageType;
import io.turboparquet.format.thrift.PageHeaderDecoder;
import io.turboparquet.io.BufferSource;
import io.turboparquet.io.ChunkInput;
import java.io.IOException;
import java.util.List;

/**
 * Reads only the selected pages of a column chunk, where its offset index (validated by the
 * caller against the chunk and row group) says they are: first the pages before the first
 * indexed page (the dictionary page, if any), then each selected page, jumping over the others.
 * The bytes come from segments of the chunk (what was fetched) or one stream over the whole chunk
 * that skips forward. Each page is checked against the index: a data page whose header and stored
 * size add up to the indexed size and whose rows are the indexed rows (a flat column's values; a
 * V2 header's row count; a nested V1 page has at least a value a row, and its reader counts its
 * records once the levels are decoded).
 */
public final class IndexedPageReader implements PageSource {
  /** File bytes {@code [start, end)} served by {@code input}, positioned at start. */
  public record Segment(long start, long end, ChunkInput input) {}

  private final ChunkLocation location;
  private final List<Segment> segments;
  private final OffsetIndex index;
  private final boolean[] selected;
  private final long numRows;
  private final String where;
  private final PageHeaderDecoder headers;
  private final int maxPageBytes;
  /** Null unless the chunk is encrypted. */
  private final EncryptedPages encrypted;
  private boolean headDone;
  private int nextPage;
  private int segment;

  /**
   * @param segments in file order; together they cover the chunk's bytes before its first indexed
   *     page and every selected page
   * @param numRows rows of the row group (the last page's rows end there)
   * @param maxPageBytes the largest uncompressed page read: a header claiming more is refused, the page unread
   * @param buffers where an encrypted chunk's decrypted pages go
   * @throws IOException when the chunk is encrypted and its key unavailable
   */
  public IndexedPageReader(ChunkLocation location, List<Segment> segments, OffsetIndex index, boolean[] selected,
      long numRows, int maxPageBytes, BufferSource buffers) throws IOException {
    if (selected.length != index.pageCount() || segments.isEmpty()) {
      throw location.context().illegalArgument("indexed reads need one flag per page and at least one segment");
    }
    this.location = location;
    this.segments = List.copyOf(segments);
    this.index = index;
    this.selected = selected;
    this.numRows = numRows;
    this.where = location.describe();
    this.headers = new PageHeaderDecoder(location.file());
    this.maxPageBytes = maxPageBytes;
    this.encrypted = EncryptedPages.of(location, buffers, headers);
  }

  @Override
  public Page next() throws IOException {
    if (!headDone) {
      headDone = true;
      Page dictionary = head();
      if (dictionary != null) {
        return dictionary;
      }
    }
    int pages = index.pageCount();
    while (nextPage < pages) {
      int p = nextPage++;
      if (selected[p]) {
        return dataPage(p);
      }
    }
    return null;
  }

  /** The dictionary page among the pages before the first indexed one, if any; other page kinds there are passed over. */
  private Page head() throws IOException {
    long dataStart = index.offsets()[0];
    Segment first = segments.get(0);
    ChunkInput in = first.input();
    while (first.start() < dataStart && in.position() < dataStart) {
      long offset = in.position();
      PageHeaderInfo header;
      ByteBuf body;
      if (encrypted == null) {
        header = headers.read(in, offset, where);
        body = PageReader.body(in, header, offset, location, maxPageBytes);
      } else { // only a dictionary page may come before the data pages (EncryptedPages.header checks it)
        Page page = encrypted.page(in, encrypted.header(in, offset, 0), offset, 0, maxPageBytes, -1, -1);
        header = page.header();
        body = page.body();
      }
      if (in.position() > dataStart) {
        body.release();
        throw location.corruption(offset, "the page runs past the offset index's first page at offset " + dataStart,
            null);
      }
      if (header.type() == PageType.DICTIONARY_PAGE) {
        return new Page(header, body, offset);
      }
      body.release();
      if (header.isDataPage()) {
        throw location.corruption(offset, "a data page lies before the offset index's first page at offset "
            + dataStart, null);
      }
    }
    return null;
  }

  private Page dataPage(int p) throws IOException {
    long offset = index.offsets()[p];
    ChunkInput in = seek(offset);
    PageHeaderInfo header = encrypted == null ? headers.read(in, offset, where) : encrypted.header(in, offset, p);
    long headerLength = in.position() - offset;
    int indexed = index.compressedPageSizes()[p];
    long[] first = index.firstRowIndexes();
    long rows = (p + 1 < first.length ? first[p + 1] : numRows) - first[p];
    if (!header.isDataPage() || headerLength + header.compressedSize() != indexed) {
      throw location.corruption(offset, "the offset index puts page " + p + " of " + indexed + " bytes here, but the"
          + " header found is a " + header.type() + " of " + headerLength + " + " + header.compressedSize() + " bytes",
          null);
    }
    boolean flat = location.chunk().column().isFlat();
    if (flat ? header.numValues() != rows : header.numValues() < rows
        || header.type() == PageType.DATA_PAGE_V2 && header.numRows() != rows) {
      throw location.corruption(offset, "page " + p + " holds " + header.numValues() + " values"
          + (header.type() == PageType.DATA_PAGE_V2 ? " in " + header.numRows() + " rows" : "")
          + ", the offset index gives it " + rows + " rows", null);
    }
    if (encrypted != null) { // the page ordinal of a data page is its place in the offset index
      return encrypted.page(in, header, offset, p, maxPageBytes, first[p], rows);
    }
    return new Page(header, PageReader.body(in, header, offset, location, maxPageBytes), offset, first[p], rows);
  }

  /** The input of the segment holding {@code offset}, positioned there. */
  private ChunkInput seek(long offset) throws IOException {
    while (segment < segments.size() && segments.get(segment).end() <= offset) {
      segment++;
    }
    if (segment == segments.size() || segments.get(segment).start() > offset) {
      throw location.context().illegalState("no segment was read for the page at offset " + offset);
    }
    ChunkInput in = segments.get(segment).input();
    long at = in.position();
    if (at > offset) {
      throw location.corruption(offset, "the previous page ends at offset " + at + ", past this page's start", null);
    }
    if (at < offset) {
      in.skip(offset - at);
    }
    if (in.position() != offset) {
      throw location.context().io("could not move to offset " + offset);
    }
    return in;
  }

  @Override
  public void close() {
    try {
      for (Segment s : segments) {
        s.input().close();
      }
    } finally {
      if (encrypted != null) {
        encrypted.close();
      }
    }
  }
}
