package io.turboparquet.testing;

import java.nio.file.Path;

/**
 * A Parquet file written by {@link TestFileGenerator}. The description lists the settings it was written with,
 * slash-separated, e.g. {@code "types / DICT_V2 / ZSTD / v2 / nulls 10% / dist=friendly / checksums"}.
 */
public record GeneratedFile(Path path, String description) {

  /** True if the description contains this slash-separated token (e.g. "v2", "ZSTD", "checksums"). */
  public boolean has(String token) {
    for (String t : description.split("/")) {
      if (t.trim().equals(token)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return path.getFileName() + " [" + description + "]";
  }
}
