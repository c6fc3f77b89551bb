package io.turboparquet.scan;

import io.turboparquet.filter.Filter;
import io.turboparquet.filter.Predicate;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.FooterReader;
import io.turboparquet.io.FileOpener;
import io.turboparquet.io.StoreReads;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * Scans a whole file over a projection: its row groups in order, batch by batch. With a filter, a
 * row group whose dictionaries or bloom filters show that no row can match is not read
 * ({@link RowGroupPruning}; {@link ScanOptions#dictionaryPruning()}, {@link ScanOptions#bloomFilterPruning()}),
 * and (with {@link ScanOptions#pageIndexSkipping()} on) each other row group's page index narrows the
 * rows to those that may match ({@link PageSelection}): row groups without such rows are not read,
 * and only their pages are read of the others. Batches then hold a superset of the matching rows;
 * evaluating the filter on them is the caller's job.
 */
public final class ParquetFileScanner implements AutoCloseable {
  private final ScanContext context;
  private final Path path;
  private final FileMetadata metadata;
  private final List<ColumnDescriptor> projection;
  private final Filter filter;
  /** Each row group's page selection once planned (null entries: read whole). */
  private final PageSelection[] selections;
  private final boolean[] planned;
  private int nextRowGroup;
  private RowGroupScanner current;
  /**
   * Most row groups read ahead at once: with per-call latency a single row group's reads leave
   * the storage idle between row groups (measured: 33% of a 400 MiB/s ceiling with one ahead).
   */
  static final int PREFETCH_DEPTH = 4;

  /** The next row groups' reads, in order, started while the current one decodes. */
  private final ArrayDeque<RowGroupFetch> pending = new ArrayDeque<>();

  private ParquetFileScanner(ScanContext context, Path path, FileMetadata metadata, List<String> columns,
      Predicate predicate) {
    this.context = context;
    this.path = path;
    this.metadata = metadata;
    try {
      this.projection = metadata.schema().project(columns);
      this.filter = predicate == null ? null : Filter.bind(predicate, metadata.schema());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("[" + metadata.file() + "] " + e.getMessage(), e);
    }
    this.selections = new PageSelection[metadata.rowGroups().size()];
    this.planned = new boolean[selections.length];
  }

  /** Opens {@code path}, reads its footer and prepares to scan {@code columns} (null: all). */
  public static ParquetFileScanner open(ScanContext context, Path path, List<String> columns) throws IOException {
    return new ParquetFileScanner(context, path, readMetadata(context, path), columns, null);
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
    return readMetadata(context, context.fileSystem().getFileStatus(path), path.toString());
  }

  /** The footer of the file {@code status} describes (as a listing gave it: no further request for its length). */
  public static FileMetadata readMetadata(ScanContext context, FileStatus status) throws IOException {
    return readMetadata(context, status, status.getPath().toString());
  }

  private static FileMetadata readMetadata(ScanContext context, FileStatus status, String name) throws IOException {
    try (FSDataInputStream in = FileOpener.open(context.fileSystem(), status, false)) {
      FileMetadata metadata = FooterReader.read(in, name, status.getLen());
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
   * current row group's next batch starts decoding on the decode pool. A no-op otherwise.
   */
  public void decodeAhead() {
    if (current != null) {
      current.decodeAhead();
    }
  }

  /** The next batch, or null after the last row group. */
  public Batch next() throws IOException {
    while (true) {
      if (current == null) {
        if (nextRowGroup >= metadata.rowGroups().size()) {
          return null;
        }
        int index = nextRowGroup++;
        if (projection.isEmpty() || metadata.rowGroups().get(index).numRows() == 0) {
          context.metrics().addRowGroup(metadata.rowGroups().get(index).numRows());
          continue;
        }
        PageSelection selection = selection(index);
        if (selection != null && selection.rows().isEmpty()) {
          // prefetching stopped before it (see prefetch): nothing was read of it
          context.metrics().addRowGroup(metadata.rowGroups().get(index).numRows());
          continue;
        }
        RowGroupFetch fetch = takePending(index);
        if (fetch == null) {
          fetch = RowGroupScanner.startFetch(context, metadata, path, index, projection, 0, selection);
        }
        current = new RowGroupScanner(context, metadata, path, index, projection, fetch, selection);
        context.metrics().addRowGroup(current.rowGroup().numRows());
        prefetch(index + 1);
      }
      Batch batch = current.next();
      if (batch != null) {
        return batch;
      }
      current.close();
      current = null;
    }
  }

  private RowGroupFetch takePending(int index) {
    RowGroupFetch fetch = pending.poll();
    if (fetch != null && fetch.rowGroup() != index) {
      // Not the row group we need (cannot happen while row groups go in order): start afresh.
      fetch.close();
      closePending();
      return null;
    }
    return fetch;
  }

  /**
   * Starts reading the row groups after the current one, from {@code first} on, while it
   * decodes: only with coalesced async reads, at most {@link #PREFETCH_DEPTH} ahead, and only
   * while the current and the prefetched row groups' bytes fit the memory budget together.
   */
  private void prefetch(int first) throws IOException {
    ScanOptions options = context.options();
    if (!options.prefetchRowGroups() || !options.asyncPageReads() || context.scanPool() == null
        || current.fetchedBytes() == 0) {
      return;
    }
    long held = current.fetchedBytes();
    int next = first;
    for (RowGroupFetch f : pending) {
      held += f.bytes();
      next = f.rowGroup() + 1;
    }
    while (pending.size() < PREFETCH_DEPTH && next < metadata.rowGroups().size()
        && metadata.rowGroups().get(next).numRows() > 0) {
      PageSelection selection = selection(next);
      if (selection != null && selection.rows().isEmpty()) {
        return; // read nothing of it; prefetching goes on after it
      }
      RowGroupFetch fetch = RowGroupScanner.startFetch(context, metadata, path, next, projection, held, selection);
      if (fetch == null) {
        return;
      }
      pending.add(fetch);
      context.metrics().addPrefetchedRowGroup();
      held += fetch.bytes();
      next++;
    }
  }

  /**
   * The page selection of row group {@code index}, planned once: none when its dictionaries or bloom
   * filters rule it out ({@link RowGroupPruning}), else from its page index (read then).
   */
  private PageSelection selection(int index) throws IOException {
    if (filter == null) {
      return null;
    }
    if (!planned[index]) {
      selections[index] = RowGroupPruning.prunes(context, metadata, path, index, filter) ? PageSelection.none()
          : PageSelection.plan(context, metadata, path, index, projection, filter);
      planned[index] = true;
    }
    return selections[index];
  }

  private void closePending() {
    RowGroupFetch f;
    while ((f = pending.poll()) != null) {
      f.close();
    }
  }

  @Override
  public void close() {
    if (current != null) {
      current.close();
      current = null;
    }
    closePending();
  }
}
