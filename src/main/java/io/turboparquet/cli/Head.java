package io.turboparquet.cli;

import io.turboparquet.format.FileMetadata;
import io.turboparquet.scan.Batch;
import io.turboparquet.scan.ParquetFileScanner;
import io.turboparquet.scan.ScanOptions;
import io.turboparquet.scan.ScanContext;
import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.fs.FileStatus;

/**
 * {@code turbo-parquet head}: the first rows of a file or dataset as JSON lines ({@link RowRenderer},
 * {@link ValueText}). It reads no further than the rows it prints: batches of at most that many
 * rows, on the calling thread, without reading ahead, so that only the row groups (and files) those
 * rows are in are read.
 */
final class Head {
  /** Rows printed when -n is not given. */
  static final int DEFAULT_ROWS = 10;

  private Head() {}

  /** The scan options of {@code head -n rows}: one thread, no read-ahead, batches of at most {@code rows}. */
  static ScanOptions options(long rows) {
    return ScanOptions.builder().scanThreads(1).decodeThreads(1).asyncPageReads(false).parallelDecode(false)
        .prefetchRowGroups(false).decodeAhead(false)
        .batchSize((int) Math.max(1, Math.min(rows, ScanOptions.defaults().decode().batchSize()))).build();
  }

  /**
   * Hands the first {@code limit} rows of {@code files}, read in order as one dataset, to
   * {@code out}; returns their count.
   */
  static long rows(ScanContext context, List<FileStatus> files, List<String> columns, long limit,
      Consumer<String> out) throws IOException {
    long printed = 0;
    for (FileStatus file : files) {
      if (printed >= limit) {
        break;
      }
      FileMetadata metadata = ParquetFileScanner.readMetadata(context, file,
          ParquetFileScanner.footerFor(columns, null));
      try (ParquetFileScanner scanner = ParquetFileScanner.open(context, file.getPath(), metadata, columns)) {
        RowRenderer renderer = new RowRenderer(metadata.file(), metadata.schema().root(), scanner.projection());
        Batch batch;
        while (printed < limit && (batch = scanner.next()) != null) {
          renderer.load(batch);
          int n = (int) Math.min(renderer.rows(), limit - printed);
          for (int r = 0; r < n; r++) {
            out.accept(renderer.row(r));
          }
          printed += n;
        }
      }
    }
    return printed;
  }
}
