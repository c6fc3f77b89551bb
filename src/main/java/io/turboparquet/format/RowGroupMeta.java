package io.turboparquet.format;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * One row group: its rows and its column chunks, in schema leaf order. A footer decoded with a
 * projection holds null for the chunks it did not decode.
 */
public record RowGroupMeta(int index, long numRows, long totalByteSize, List<ColumnChunkMeta> columns) {
  public RowGroupMeta {
    // May hold nulls (projection), which List.copyOf refuses; one copy, as wide footers have many chunks.
    columns = Collections.unmodifiableList(Arrays.asList(columns.toArray(new ColumnChunkMeta[0])));
  }

  /** The chunk of leaf {@code leafIndex}; fails when the footer was decoded without it. */
  public ColumnChunkMeta column(int leafIndex) {
    ColumnChunkMeta c = columns.get(leafIndex);
    if (c == null) {
      throw new IllegalStateException("row group " + index + ": column " + leafIndex
          + " was not decoded (outside the footer projection)");
    }
    return c;
  }

  /** Whether the chunk of leaf {@code leafIndex} was decoded. */
  public boolean isDecoded(int leafIndex) {
    return columns.get(leafIndex) != null;
  }

  /** Bytes of the decoded column chunks as stored (compressed). */
  public long compressedSize() {
    long sum = 0;
    for (ColumnChunkMeta c : columns) {
      if (c != null) {
        sum += c.totalCompressedSize();
      }
    }
    return sum;
  }
}
