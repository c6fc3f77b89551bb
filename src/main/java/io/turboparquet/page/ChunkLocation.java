package io.turboparquet.page;

import io.turboparquet.format.ColumnChunkMeta;

/** Names a column chunk in error messages: file, row group and column. */
public record ChunkLocation(String file, int rowGroup, ColumnChunkMeta chunk) {
  /** "row group 3 column a.b" */
  public String describe() {
    return "row group " + rowGroup + " column " + chunk.column().dottedPath();
  }
}
