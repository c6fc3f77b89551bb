package io.turboparquet.format;

import java.util.List;
import java.util.Map;

/** What a file's footer says, in the core's own model. */
public record FileMetadata(
    String file,
    long fileLength,
    int footerLength,
    long numRows,
    String createdBy,
    Schema schema,
    List<RowGroupMeta> rowGroups,
    Map<String, String> keyValues) {

  public FileMetadata {
    rowGroups = List.copyOf(rowGroups);
    keyValues = Map.copyOf(keyValues);
  }
}
