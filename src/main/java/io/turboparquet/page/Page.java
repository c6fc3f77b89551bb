package io.turboparquet.page;

import io.netty.buffer.ByteBuf;
import io.turboparquet.format.PageHeaderInfo;

/**
 * One page as read from the file: its header and its body as stored (possibly compressed). The
 * holder owns {@code body} and must {@link #release()} it.
 *
 * @param offset file offset of the page header
 * @param firstRow the row of the row group the page starts at, when an offset index says so; else -1
 * @param rows the rows the offset index gives the page (it starts at a record); -1 without an index
 */
public record Page(PageHeaderInfo header, ByteBuf body, long offset, long firstRow, long rows) {
  public Page(PageHeaderInfo header, ByteBuf body, long offset) {
    this(header, body, offset, -1, -1);
  }

  public void release() {
    if (body.refCnt() > 0) {
      body.release();
    }
  }
}
