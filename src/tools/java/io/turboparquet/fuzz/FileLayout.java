package io.turboparquet.fuzz;

import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.PageHeaderInfo;
import io.turboparquet.format.PageType;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.format.thrift.FooterDecoder;
import io.turboparquet.format.thrift.PageHeaderDecoder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a seed file's structures lie: the footer, and each column chunk's pages (header and body
 * ranges) as the project's own footer and page-header decoders find them. A file the decoders
 * reject (or reject in part) has a layout with what was found up to there, possibly nothing.
 */
record FileLayout(int footerStart, int footerLength, List<Page> pages) {

  /**
   * One page: its header at {@code [offset, bodyStart)}, body at {@code [bodyStart, end)}, and the
   * bytes its header says it decompresses to.
   */
  record Page(int chunk, int offset, int bodyStart, int end, PageType type, int numValues, int uncompressedSize) {
    boolean isData() {
      return type == PageType.DATA_PAGE || type == PageType.DATA_PAGE_V2;
    }
  }

  static FileLayout of(byte[] file) {
    int n = file.length;
    if (n < 12 || file[n - 4] != 'P' || file[n - 3] != 'A' || file[n - 2] != 'R' || file[n - 1] != '1') {
      return new FileLayout(-1, 0, List.of());
    }
    int footerLength = (file[n - 8] & 0xff) | (file[n - 7] & 0xff) << 8 | (file[n - 6] & 0xff) << 16
        | (file[n - 5] & 0xff) << 24;
    if (footerLength <= 0 || footerLength > n - 12) {
      return new FileLayout(-1, 0, List.of());
    }
    int footerStart = n - 8 - footerLength;
    List<Page> pages = new ArrayList<>();
    try {
      FileMetadata meta = FooterDecoder.decode("seed", n, file, footerStart, footerLength);
      int chunkIndex = 0;
      for (RowGroupMeta rg : meta.rowGroups()) {
        for (ColumnChunkMeta chunk : rg.columns()) {
          if (chunk != null) {
            pages(file, chunk, chunkIndex, footerStart, pages);
          }
          chunkIndex++;
        }
      }
    } catch (IOException | RuntimeException e) {
      // A seed the core rejects still gets the byte-level mutations.
    }
    return new FileLayout(footerStart, footerLength, List.copyOf(pages));
  }

  private static void pages(byte[] file, ColumnChunkMeta chunk, int chunkIndex, int footerStart, List<Page> out) {
    long start = chunk.startOffset();
    long end = Math.min(footerStart, start + chunk.totalCompressedSize());
    if (start < 4 || end <= start) {
      return;
    }
    PageHeaderDecoder decoder = new PageHeaderDecoder("seed");
    long offset = start;
    while (offset < end) {
      ByteArrayInputStream in = new ByteArrayInputStream(file, (int) offset, (int) (end - offset));
      PageHeaderInfo h;
      try {
        h = decoder.read(in, offset, "chunk " + chunkIndex);
      } catch (IOException | RuntimeException e) {
        return;
      }
      long bodyStart = offset + h.headerLength();
      long bodyEnd = bodyStart + h.compressedSize();
      if (h.compressedSize() < 0 || bodyEnd > end) {
        return;
      }
      out.add(new Page(chunkIndex, (int) offset, (int) bodyStart, (int) bodyEnd, h.type(), h.numValues(),
          h.uncompressedSize()));
      offset = bodyEnd;
    }
  }

  boolean hasFooter() {
    return footerStart >= 0;
  }

  List<Page> pagesOf(PageType type) {
    return pages.stream().filter(p -> p.type() == type).toList();
  }

  /** Chunks (by index) with at least two data pages: the ones a page swap can reorder. */
  List<Integer> chunksWithTwoDataPages() {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < pages.size(); i++) {
      Page p = pages.get(i);
      if (p.isData() && !out.contains(p.chunk())
          && pages.stream().filter(q -> q.chunk() == p.chunk() && q.isData()).count() >= 2) {
        out.add(p.chunk());
      }
    }
    return out;
  }
}
