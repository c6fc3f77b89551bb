package io.turboparquet.format;

import java.util.List;

/** One row group: its rows and its column chunks, in schema leaf order. */
public record RowGroupMeta(int index, long numRows, long totalByteSize, List<ColumnChunkMeta> columns) {
  public RowGroupMeta {
    columns = List.copyOf(columns);
  }

  public ColumnChunkMeta column(int leafIndex) {
    return columns.get(leafIndex);
  }

  /** Bytes of all column chunks as stored (compressed). */
  public long compressedSize() {
    long sum = 0;
    for (ColumnChunkMeta c : columns) {
      sum += c.totalCompressedSize();
    }
    return sum;
  }
}
