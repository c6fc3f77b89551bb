package io.turboparquet.drill;

import org.apache.drill.exec.store.dfs.DrillFileSystem;
import org.apache.hadoop.fs.FileSystem;

/**
 * The store's own file system under Drill's {@link DrillFileSystem} wrapper, for the streams the
 * core opens. DrillFileSystem inherits {@code FileSystem.openFile()}, which drops the open options
 * (read policy, file length): through it an object store would answer every stream with its default
 * read policy and a HEAD request first. The wrapper adds nothing to a non-tracking file system (no
 * operator statistics, no open-file tracking), the only kind our scans and planning use; the
 * wrapped instance belongs to the same user (the wrapper makes it inside the user's doAs).
 */
final class StoreFileSystem {
  private StoreFileSystem() {}

  static FileSystem of(FileSystem fs) {
    return fs instanceof DrillFileSystem drill && drill.getUnderlyingFs() != null ? drill.getUnderlyingFs() : fs;
  }
}
