package io.turboparquet.scan;

import io.turboparquet.filter.PageIndexFilter;
import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.ColumnIndex;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.OffsetIndex;
import io.turboparquet.format.PageIndexLocation;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.format.crypto.ModuleType;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.format.thrift.PageIndexDecoder;
import io.turboparquet.io.FileOpener;
import io.turboparquet.io.StoreReads;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;

/**
 * One row group's page indexes, read and checked: offset indexes of the columns asked for and
 * column indexes of the filter's columns. An index that is absent, claims bytes outside the file,
 * does not decode, or whose pages do not fit its chunk and row group (see {@link #validate}) is
 * treated as absent, with the reason kept for the caller: the scan then reads that row group
 * without skipping, which is always correct.
 */
final class PageIndexes implements PageIndexFilter.Indexes {
  /** Larger index structures than this are not read (a crafted length must not make us allocate it). */
  static final int MAX_INDEX_BYTES = 16 << 20;
  /** Index parts this close together are read as one range. */
  private static final long MERGE_GAP = 64 << 10;

  private final Map<Integer, OffsetIndex> offsets = new HashMap<>();
  private final Map<Integer, long[]> firstRows = new HashMap<>();
  private final Map<Integer, ColumnIndex> columns = new HashMap<>();
  private final List<String> rejected = new ArrayList<>();
  private long bytesRead;

  private PageIndexes() {}

  /**
   * Reads the offset indexes of {@code offsetLeaves} and the column indexes of {@code columnLeaves}
   * (leaf indexes) of row group {@code rowGroup}.
   */
  static PageIndexes read(ScanContext context, FileMetadata meta, Path path, int rowGroup, Set<Integer> offsetLeaves,
      Set<Integer> columnLeaves) throws IOException {
    PageIndexes out = new PageIndexes();
    RowGroupMeta rg = meta.rowGroups().get(rowGroup);
    List<long[]> parts = new ArrayList<>(); // offset, length, leaf, kind (0 offset index, 1 column index)
    for (int leaf : offsetLeaves) {
      PageIndexLocation at = rg.column(leaf).pageIndex();
      if (at == null || !at.hasOffsetIndex()) {
        out.rejected.add(rg.column(leaf).column().dottedPath() + ": no offset index");
      } else if (out.inFile(meta, rg.column(leaf), at.offsetIndexOffset(), at.offsetIndexLength(), "offset index")) {
        parts.add(new long[] {at.offsetIndexOffset(), at.offsetIndexLength(), leaf, 0});
      }
    }
    for (int leaf : columnLeaves) {
      PageIndexLocation at = rg.column(leaf).pageIndex();
      ColumnDescriptor column = rg.column(leaf).column();
      if (at != null && at.hasColumnIndex() && meta.columnOrder(column).boundsUsable(column)
          && out.inFile(meta, rg.column(leaf), at.columnIndexOffset(), at.columnIndexLength(), "column index")) {
        parts.add(new long[] {at.columnIndexOffset(), at.columnIndexLength(), leaf, 1});
      }
    }
    if (parts.isEmpty()) {
      return out;
    }
    parts.sort((a, b) -> Long.compare(a[0], b[0]));
    long t0 = System.nanoTime();
    long calls = 0;
    try (FSDataInputStream in = FileOpener.open(context.fileSystem(), path, meta.fileLength(), false)) {
      int i = 0;
      while (i < parts.size()) {
        // One read for parts close together (writers put a row group's indexes side by side).
        long start = parts.get(i)[0];
        long end = start + parts.get(i)[1];
        int j = i + 1;
        while (j < parts.size() && parts.get(j)[0] - end <= MERGE_GAP
            && Math.max(end, parts.get(j)[0] + parts.get(j)[1]) - start <= MAX_INDEX_BYTES) {
          end = Math.max(end, parts.get(j)[0] + parts.get(j)[1]);
          j++;
        }
        byte[] bytes = new byte[(int) (end - start)];
        in.readFully(start, bytes, 0, bytes.length);
        calls++;
        out.bytesRead += bytes.length;
        for (int k = i; k < j; k++) {
          out.decode(meta, rg, parts.get(k), bytes, (int) (parts.get(k)[0] - start));
        }
        i = j;
      }
      context.metrics().addStoreReads(StoreReads.of(in));
    } finally {
      context.metrics().addDiskRead(System.nanoTime() - t0, out.bytesRead, calls);
    }
    return out;
  }

  private boolean inFile(FileMetadata meta, ColumnChunkMeta chunk, long offset, int length, String what) {
    if (offset < 0 || length <= 0 || length > MAX_INDEX_BYTES || offset > meta.fileLength() - length) {
      rejected.add(chunk.column().dottedPath() + ": " + what + " at [" + offset + ", +" + length
          + ") is not inside the file");
      return false;
    }
    return true;
  }

  /**
   * Decodes one index; an encrypted chunk's is decrypted first, and one that does not decrypt is an
   * error (a wrong key or a changed file), not an index set aside.
   */
  private void decode(FileMetadata meta, RowGroupMeta rg, long[] part, byte[] bytes, int at)
      throws ParquetCorruptionException {
    int leaf = (int) part[2];
    ColumnChunkMeta chunk = rg.column(leaf);
    int length = (int) part[1];
    if (chunk.decryptor() != null) {
      bytes = chunk.decryptor().module(bytes, at, length, part[3] == 0 ? ModuleType.OFFSET_INDEX
          : ModuleType.COLUMN_INDEX, 0);
      at = 0;
      length = bytes.length;
    }
    try {
      if (part[3] == 0) {
        OffsetIndex index = PageIndexDecoder.readOffsetIndex(meta.file(), bytes, at, length);
        String problem = validate(index, chunk, rg.numRows(), meta.fileLength());
        if (problem != null) {
          rejected.add(chunk.column().dottedPath() + ": offset index " + problem);
        } else {
          offsets.put(leaf, index);
          firstRows.put(leaf, index.firstRowIndexes());
        }
      } else {
        columns.put(leaf, PageIndexDecoder.readColumnIndex(meta.file(), bytes, at, length));
      }
    } catch (ParquetCorruptionException e) {
      rejected.add(chunk.column().dottedPath() + ": " + e.getMessage());
    }
  }

  /**
   * Why {@code index} cannot be trusted to locate the pages of {@code chunk} in a row group of
   * {@code numRows} rows, or null when it can: pages must lie inside the chunk in increasing order
   * without overlapping, each with at least one row, the first at row 0.
   */
  static String validate(OffsetIndex index, ColumnChunkMeta chunk, long numRows, long fileLength) {
    int n = index.pageCount();
    if (n == 0) {
      return "lists no pages";
    }
    long chunkStart = chunk.startOffset();
    long chunkEnd = Math.min(fileLength, chunkStart + Math.max(0, chunk.totalCompressedSize()));
    long[] first = index.firstRowIndexes();
    long[] at = index.offsets();
    int[] size = index.compressedPageSizes();
    if (first[0] != 0) {
      return "starts at row " + first[0] + ", not 0";
    }
    long prevEnd = chunkStart;
    for (int i = 0; i < n; i++) {
      if (i > 0 && first[i] <= first[i - 1]) {
        return "page " + i + " starts at row " + first[i] + ", not after page " + (i - 1) + "'s row " + first[i - 1];
      }
      if (first[i] >= numRows) {
        return "page " + i + " starts at row " + first[i] + " of a row group of " + numRows;
      }
      if (size[i] <= 0 || at[i] < prevEnd || at[i] > chunkEnd - size[i]) {
        return "page " + i + " at [" + at[i] + ", +" + size[i] + ") is not inside the chunk [" + chunkStart + ", "
            + chunkEnd + ") after the previous page (ending at " + prevEnd + ")";
      }
      prevEnd = at[i] + size[i];
    }
    return null;
  }

  @Override
  public ColumnIndex columnIndex(int leaf) {
    return columns.get(leaf);
  }

  @Override
  public long[] pageFirstRows(int leaf) {
    return firstRows.get(leaf);
  }

  /** The validated offset index of {@code leaf}, or null. */
  OffsetIndex offsetIndex(int leaf) {
    return offsets.get(leaf);
  }

  /** Why indexes were set aside: "column: reason". */
  List<String> rejected() {
    return rejected;
  }

  long bytesRead() {
    return bytesRead;
  }
}
