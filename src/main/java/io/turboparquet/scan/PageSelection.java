package io.turboparquet.scan;

import io.turboparquet.filter.Filter;
import io.turboparquet.filter.PageIndexFilter;
import io.turboparquet.filter.RowRanges;
import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.OffsetIndex;
import io.turboparquet.format.RowGroupMeta;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.Path;

/**
 * Page-index skipping for one row group: the rows a filter may match ({@link PageIndexFilter}), of
 * the first ones when only those are wanted ({@link RowGroupRead#rowLimit}), and,
 * per projected column, the pages holding them and the file bytes to read (the bytes before the
 * first indexed page, where a dictionary page lives, and the runs of selected pages). A column
 * without a usable offset index reads its whole chunk and skips rows after decoding. Planned before
 * the row group's reads start, so nothing else is fetched.
 */
final class PageSelection {
  private final RowRanges rows;
  private final OffsetIndex[] offsets;
  private final boolean[][] selected;
  private final long[][] segments;
  private final long bytes;

  private PageSelection(RowRanges rows, OffsetIndex[] offsets, boolean[][] selected, long[][] segments, long bytes) {
    this.rows = rows;
    this.offsets = offsets;
    this.selected = selected;
    this.segments = segments;
    this.bytes = bytes;
  }

  /** The selection of a row group no row of which can match: no rows, nothing read. */
  static PageSelection none() {
    return new PageSelection(RowRanges.empty(), new OffsetIndex[0], new boolean[0][], new long[0][], 0);
  }

  /**
   * The selection for the read's row group, or null to read it whole: no filter and no row limit,
   * skipping switched off, or every row may be wanted. A projected column without a valid offset
   * index is read whole and passes over the rows outside the selection after decoding them
   * (counted as a fallback). Counts what it skips in the scan's metrics.
   */
  static PageSelection plan(ScanContext context, RowGroupRead read) throws IOException {
    Filter filter = read.filter();
    List<ColumnDescriptor> projection = read.projection();
    if ((filter == null && !read.limited()) || !context.options().pruning().pageIndexSkipping()
        || projection.isEmpty()) {
      return null;
    }
    FileMetadata meta = read.metadata();
    Path path = read.path();
    int rowGroup = read.rowGroup();
    RowGroupMeta rg = meta.rowGroups().get(rowGroup);
    Set<Integer> filterLeaves = filter == null ? Set.of() : new LinkedHashSet<>(filter.columns().keySet());
    Set<Integer> offsetLeaves = new LinkedHashSet<>(filterLeaves);
    for (ColumnDescriptor c : projection) {
      offsetLeaves.add(c.index());
    }
    PageIndexes indexes = PageIndexes.read(context, meta, path, rowGroup, offsetLeaves, filterLeaves);
    ScanMetrics metrics = context.metrics();
    metrics.addPageIndexRead(indexes.bytesRead());
    RowRanges rows = filter == null ? RowRanges.all(rg.numRows())
        : PageIndexFilter.rowRanges(filter, rg.numRows(), indexes);
    if (read.limited()) {
      rows = rows.intersect(new RowRanges.Builder().add(0, read.rowLimit()).build());
    }
    if (rows.rowCount() == rg.numRows()) {
      return null;
    }
    int n = projection.size();
    OffsetIndex[] offsets = new OffsetIndex[n];
    boolean[][] selected = new boolean[n][];
    long[][] segments = new long[n][];
    long total = 0;
    long skippedPages = 0;
    long skippedBytes = 0;
    for (int i = 0; i < n; i++) {
      ColumnChunkMeta chunk = rg.column(projection.get(i).index());
      long start = Math.min(chunk.startOffset(), meta.fileLength());
      long end = Math.min(meta.fileLength(), start + Math.max(0, chunk.totalCompressedSize()));
      OffsetIndex index = indexes.offsetIndex(chunk.column().index());
      if (rows.isEmpty()) {
        segments[i] = new long[0];
        skippedPages += index == null ? 0 : index.pageCount();
      } else if (index == null) {
        segments[i] = new long[] {start, end}; // read whole, rows skipped after decoding
        metrics.addPageIndexFallback();
      } else {
        offsets[i] = index;
        selected[i] = select(index, rows, rg.numRows());
        segments[i] = segments(index, selected[i], start);
        for (boolean s : selected[i]) {
          skippedPages += s ? 0 : 1;
        }
      }
      long bytes = 0;
      for (int s = 0; s < segments[i].length; s += 2) {
        bytes += segments[i][s + 1] - segments[i][s];
      }
      total += bytes;
      skippedBytes += end - start - bytes;
    }
    metrics.addPageIndexSkip(skippedPages, rg.numRows() - rows.rowCount(), skippedBytes);
    return new PageSelection(rows, offsets, selected, segments, total);
  }

  /** Pages holding a row of {@code rows}. */
  private static boolean[] select(OffsetIndex index, RowRanges rows, long numRows) {
    long[] first = index.firstRowIndexes();
    boolean[] out = new boolean[first.length];
    for (int p = 0; p < first.length; p++) {
      out[p] = rows.overlaps(first[p], p + 1 < first.length ? first[p + 1] : numRows);
    }
    return out;
  }

  /** Byte ranges to read: the chunk's head before the first indexed page, then runs of selected pages. */
  private static long[] segments(OffsetIndex index, boolean[] selected, long chunkStart) {
    long[] at = index.offsets();
    int[] size = index.compressedPageSizes();
    long[] out = new long[2 * (selected.length + 1)];
    int n = 0;
    if (at[0] > chunkStart) {
      out[n++] = chunkStart;
      out[n++] = at[0];
    }
    for (int p = 0; p < selected.length; p++) {
      if (!selected[p]) {
        continue;
      }
      if (n > 0 && out[n - 1] == at[p]) {
        out[n - 1] = at[p] + size[p]; // continues the run
      } else {
        out[n++] = at[p];
        out[n++] = at[p] + size[p];
      }
    }
    return java.util.Arrays.copyOf(out, n);
  }

  /** The rows to return, in order. */
  RowRanges rows() {
    return rows;
  }

  /** File ranges {@code start0, end0, start1, end1, ...} projection column {@code i} reads. */
  long[] segments(int i) {
    return segments[i];
  }

  /** The validated offset index of projection column {@code i}, or null when it reads its chunk whole. */
  OffsetIndex offsetIndex(int i) {
    return offsets[i];
  }

  /** Which pages of projection column {@code i} are read (null when it reads its chunk whole). */
  boolean[] selectedPages(int i) {
    return selected[i];
  }

  /** Bytes all segments span: what a fetch of them holds. */
  long bytes() {
    return bytes;
  }
}
