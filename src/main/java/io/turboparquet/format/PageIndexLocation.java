package io.turboparquet.format;

/**
 * Where a column chunk's page index lies ({@code ColumnChunk.offset_index_*} and
 * {@code column_index_*}); an absent part has offset -1 and length 0.
 */
public record PageIndexLocation(long offsetIndexOffset, int offsetIndexLength, long columnIndexOffset,
    int columnIndexLength) {

  public boolean hasOffsetIndex() {
    return offsetIndexOffset >= 0;
  }

  public boolean hasColumnIndex() {
    return columnIndexOffset >= 0;
  }
}
