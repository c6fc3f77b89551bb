package io.turboparquet.scan;

import io.turboparquet.filter.Filter;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.io.ErrorContext;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.fs.Path;

/**
 * One row group a {@link RowGroupPipeline} reads: the file and its footer, the row group's index
 * (negative: a file without row groups, nothing to read), the projected leaves (empty: row counts
 * only), the filter bound to the file's schema (null: every row), the options its batches are
 * read with (batch size may differ per row group; everything the pipeline itself decides comes
 * from the pipeline's own options), and the rows wanted: the row group's first {@code rowLimit}
 * (an engine's LIMIT; with a page index only their pages are read), or all when negative.
 */
public record RowGroupRead(Path path, FileMetadata metadata, int rowGroup, List<ColumnDescriptor> projection,
    Filter filter, ScanOptions options, long rowLimit) {

  /** Every row of the row group. */
  public RowGroupRead(Path path, FileMetadata metadata, int rowGroup, List<ColumnDescriptor> projection,
      Filter filter, ScanOptions options) {
    this(path, metadata, rowGroup, projection, filter, options, -1);
  }

  public RowGroupRead {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(options, "options");
    projection = List.copyOf(projection);
    if (rowGroup >= metadata.rowGroups().size()) {
      throw ErrorContext.of(metadata.file()).illegalArgument("has " + metadata.rowGroups().size() + " row groups, not "
          + (rowGroup + 1));
    }
    if (rowGroup >= 0) {
      RowGroupMeta rg = metadata.rowGroups().get(rowGroup);
      for (ColumnDescriptor c : projection) {
        requireDecoded(metadata, rg, c, "projected");
      }
      if (filter != null) {
        for (ColumnDescriptor c : filter.columns().values()) {
          requireDecoded(metadata, rg, c, "filtered on");
        }
      }
    }
  }

  /**
   * A footer decoded without a chunk the read needs fails here, not mid-scan; a filter's column
   * would otherwise be passed over and skip nothing, with nothing to say why.
   */
  private static void requireDecoded(FileMetadata metadata, RowGroupMeta rg, ColumnDescriptor c, String role) {
    if (!rg.isDecoded(c.index())) {
      throw ErrorContext.of(metadata.file()).inRowGroup(rg.index()).column(c.dottedPath()).illegalArgument(role
          + " but its chunk is not in the decoded footer (decode the footer with"
          + " ParquetFileScanner.footerFor(columns, filter))");
    }
  }

  /** Rows the row group holds (0 for a file without row groups). */
  public long numRows() {
    return rowGroup < 0 ? 0 : metadata.rowGroups().get(rowGroup).numRows();
  }

  /** Whether only the row group's first {@link #rowLimit} rows are wanted, fewer than it has. */
  boolean limited() {
    return rowLimit >= 0 && rowLimit < numRows();
  }

  /** Whether any column data is to be read: a projected column, and rows to read it for. */
  boolean readsData() {
    return !projection.isEmpty() && numRows() > 0;
  }
}
