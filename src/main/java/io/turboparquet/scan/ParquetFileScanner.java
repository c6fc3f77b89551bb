package io.turboparquet.scan;

import io.turboparquet.filter.Filter;
import io.turboparquet.filter.Predicate;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.FooterOptions;
import io.turboparquet.format.FooterReader;
import io.turboparquet.io.ErrorContext;
import io.turboparquet.io.FileOpener;
import io.turboparquet.io.StoreReads;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * Scans a whole file over a projection: its row groups in order, batch by batch, through one
 * {@link RowGroupPipeline}. With a filter, a row group whose dictionaries or bloom filters show
 * that no row can match is not read ({@link RowGroupPruning}), and (with
 * {@link ScanOptions.Pruning#pageIndexSkipping()} on) each other row group's page index narrows the rows to
 * those that may match ({@link PageSelection}): row groups without such rows are not read, and only
 * their pages are read of the others. Batches then hold a superset of the matching rows;
 * evaluating the filter on them is the caller's job.
 */
public final class ParquetFileScanner implements AutoCloseable {
  private final FileMetadata metadata;
  private final List<ColumnDescriptor> projection;
  private final RowGroupPipeline pipeline;
  /** The next row group to open, and whether one is open. */
  private int nextRowGroup;
  private boolean inRowGroup;

  private ParquetFileScanner(ScanContext context, Path path, FileMetadata metadata, List<String> columns,
      Predicate predicate) {
    this.metadata = metadata;
    Filter filter;
    try {
      this.projection = metadata.schema().project(columns);
      filter = predicate == null ? null : Filter.bind(predicate, metadata.schema());
    } catch (IllegalArgumentException e) {
      throw ErrorContext.of(metadata.file()).illegalArgument(e.getMessage(), e);
    }
    List<RowGroupRead> reads = new ArrayList<>();
    for (int i = 0; i < metadata.rowGroups().size(); i++) {
      reads.add(new RowGroupRead(path, metadata, i, projection, filter, context.options()));
    }
    this.pipeline = new RowGroupPipeline(context, reads);
  }

  /**
   * Opens {@code path}, reads its footer and prepares to scan {@code columns} (null: all). Only the
   * chunks of those columns are decoded from the footer ({@link #metadata()} holds no others).
   */
  public static ParquetFileScanner open(ScanContext context, Path path, List<String> columns) throws IOException {
    return new ParquetFileScanner(context, path, readMetadata(context, path, footerFor(columns, null)), columns, null);
  }

  /**
   * The footer a scan of {@code columns} (null or empty: all) with {@code filter} (null: none)
   * needs: the chunks of those columns and of the filter's, no statistics (row groups are pruned
   * by the engine, pages by the page index), no key-value metadata.
   */
  public static FooterOptions footerFor(List<String> columns, Predicate filter) {
    FooterOptions chunks = FooterOptions.DEFAULT.withKeyValues(FooterOptions.NO_KEY);
    if (columns == null || columns.isEmpty()) {
      return chunks;
    }
    Set<String> names = new LinkedHashSet<>(columns);
    if (filter != null) {
      names.addAll(filter.columns());
    }
    return chunks.withColumns(FooterOptions.ColumnSelector.names(List.copyOf(names)));
  }

  /** Scans a file whose footer the caller already has. */
  public static ParquetFileScanner open(ScanContext context, Path path, FileMetadata metadata, List<String> columns) {
    return new ParquetFileScanner(context, path, metadata, columns, null);
  }

  /**
   * Scans the rows of a file that may match {@code filter} (null: all rows), by page-index
   * skipping; a superset of the matching rows. IllegalArgumentException when the filter names a
   * column the file lacks or a literal does not fit its column.
   */
  public static ParquetFileScanner open(ScanContext context, Path path, FileMetadata metadata, List<String> columns,
      Predicate filter) {
    return new ParquetFileScanner(context, path, metadata, columns, filter);
  }

  public static FileMetadata readMetadata(ScanContext context, Path path) throws IOException {
    return readMetadata(context, path, FooterOptions.DEFAULT);
  }

  /** The footer of {@code path}, decoded as {@code options} asks (a projection, say). */
  public static FileMetadata readMetadata(ScanContext context, Path path, FooterOptions options) throws IOException {
    return readMetadata(context, context.fileSystem().getFileStatus(path), path.toString(), options);
  }

  /** The footer of the file {@code status} describes (as a listing gave it: no further request for its length). */
  public static FileMetadata readMetadata(ScanContext context, FileStatus status) throws IOException {
    return readMetadata(context, status, FooterOptions.DEFAULT);
  }

  /** {@link #readMetadata(ScanContext, FileStatus)}, decoded as {@code options} asks. */
  public static FileMetadata readMetadata(ScanContext context, FileStatus status, FooterOptions options)
      throws IOException {
    return readMetadata(context, status, status.getPath().toString(), options);
  }

  private static FileMetadata readMetadata(ScanContext context, FileStatus status, String name, FooterOptions options)
      throws IOException {
    try (FSDataInputStream in = FileOpener.open(context.fileSystem(), status, false)) {
      FileMetadata metadata = FooterReader.read(in, name, status.getLen(), options,
          context.decryption().forFile(status.getPath()));
      context.metrics().addStoreReads(StoreReads.of(in));
      return metadata;
    }
  }

  public FileMetadata metadata() {
    return metadata;
  }

  public List<ColumnDescriptor> projection() {
    return projection;
  }

  /**
   * Tells the scanner the caller is done with the last batch: with {@code decodeAhead} on, the
   * next batch starts decoding on the decode pool, and after a row group's last batch its buffers
   * are released (see {@link RowGroupPipeline#decodeAhead}).
   */
  public void decodeAhead() {
    pipeline.decodeAhead();
  }

  /** The next batch, or null after the last row group. */
  public Batch next() throws IOException {
    while (true) {
      if (!inRowGroup) {
        if (nextRowGroup >= pipeline.size()) {
          return null;
        }
        pipeline.open(nextRowGroup++);
        inRowGroup = true;
      }
      Batch batch = pipeline.next();
      if (batch != null) {
        return batch;
      }
      inRowGroup = false;
    }
  }

  /**
   * Asks the scan to stop, from any thread: the thread in {@link #next} gets an
   * {@code InterruptedIOException} within one batch's work, however much work the file claims, and
   * must then {@link #close} the scanner, which releases every buffer. Interrupting that thread
   * does the same.
   */
  public void cancel() {
    pipeline.cancel();
  }

  @Override
  public void close() {
    pipeline.close();
  }
}
