package io.turboparquet.drill;

import io.turboparquet.filter.Filter;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.format.SchemaNode;
import io.turboparquet.page.PageTooLargeException;
import io.turboparquet.scan.Batch;
import io.turboparquet.scan.RowGroupPipeline;
import io.turboparquet.scan.RowGroupRead;
import io.turboparquet.scan.ScanOptions;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.drill.common.exceptions.ExecutionSetupException;
import org.apache.drill.common.exceptions.UserException;
import org.apache.drill.common.expression.SchemaPath;
import org.apache.drill.common.types.TypeProtos.MinorType;
import org.apache.drill.common.types.Types;
import org.apache.drill.exec.ExecConstants;
import org.apache.drill.exec.exception.SchemaChangeException;
import org.apache.drill.exec.expr.TypeHelper;
import org.apache.drill.exec.ops.FragmentContext;
import org.apache.drill.exec.ops.OperatorContext;
import org.apache.drill.exec.ops.OperatorStats;
import org.apache.drill.exec.physical.impl.OutputMutator;
import org.apache.drill.exec.record.MaterializedField;
import org.apache.drill.exec.server.options.OptionManager;
import org.apache.drill.exec.store.AbstractRecordReader;
import org.apache.drill.exec.vector.NullableIntVector;
import org.apache.drill.exec.vector.ValueVector;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drill glue for one row group: decides what of it is read ({@link #plan}: flat columns, or the
 * nested reader's leaves when the query touches a nested column), then writes the batches the
 * fragment's {@link RowGroupPipeline} hands it into Drill value vectors (by copying). Everything
 * across row groups (prefetching, page selection, buffers) is the pipeline's. Projected columns the
 * file lacks come out as nullable INT nulls, as from Drill's own reader; a query that projects no
 * column (count(*)) gets row counts only.
 */
final class TurboParquetRecordReader extends AbstractRecordReader {
  /** Drill's reader's stand-in column for a scan that projects nothing (ParquetRecordReader's name). */
  private static final List<SchemaPath> NO_COLUMN = List.of(SchemaPath.getSimplePath("_DEFAULT_COL_TO_READ_"));
  private static final Logger logger = LoggerFactory.getLogger(TurboParquetRecordReader.class);

  private final Path path;
  private final FileMetadata metadata;
  private final int rowGroupIndex;
  private final long rowsToRead;
  private boolean endChecked;
  private final OptionManager options;
  private final TurboParquetFormatConfig config;
  /** How the file's columns are read: session options and the file's date correction. */
  private final DrillPredicates.Reading reading;
  private final List<DrillColumn> columns = new ArrayList<>();
  private final List<ValueVector> vectors = new ArrayList<>();
  private final List<NullableIntVector> missing = new ArrayList<>();
  /** Set when the query touches a nested column: that reader then reads every projected column. */
  private ComplexRowGroupReader complex;
  private RowGroupRead read;
  private RowGroupPipeline pipeline;
  private int readIndex;
  private OperatorStats stats;
  private long rowsDone;
  private long fixedWidthNanos;
  private long variableWidthNanos;
  private long processNanos;

  TurboParquetRecordReader(OptionManager options, TurboParquetFormatConfig config, DrillPredicates.Reading reading,
      Path path, FileMetadata metadata, int rowGroupIndex, long numRecordsToRead, List<SchemaPath> projection) {
    this.options = options;
    this.config = config;
    this.reading = reading;
    this.path = path;
    this.metadata = metadata;
    this.rowGroupIndex = rowGroupIndex;
    // Drill plans a file without row groups as one entry with row group -1: schema only, no rows.
    long rows = rowGroupIndex < 0 ? 0 : metadata.rowGroups().get(rowGroupIndex).numRows();
    this.rowsToRead = numRecordsToRead < 0 ? rows : Math.min(rows, numRecordsToRead);
    setColumns(projection);
  }

  /**
   * What the pipeline reads for this row group: the projected flat columns, or the nested reader's
   * leaves; nothing when no rows are to be read. {@code filter} (bound to the file's schema, or
   * null) lets the pipeline skip pages. Errors come as the reader's own (file, row group, columns).
   */
  RowGroupRead plan(Filter filter) {
    try {
      RowGroupMeta rowGroup = rowGroupIndex < 0 ? null : metadata.rowGroups().get(rowGroupIndex);
      complex = ComplexRowGroupReader.open(options, reading.dates(), path, metadata,
          isSkipQuery() ? List.of() : new ArrayList<>(getColumns()), isStarQuery(), config.readsVariantAsBinary());
      List<ColumnDescriptor> leaves;
      ScanOptions scanOptions;
      if (complex != null) {
        leaves = complex.leaves();
        scanOptions = DrillScanOptions.of(options, config, rowGroup, List.of()).toBuilder()
            .batchSize(complex.batchSize()).build();
      } else {
        for (ColumnDescriptor c : flatColumns()) {
          columns.add(DrillColumn.of(c, reading));
        }
        leaves = columns.stream().map(DrillColumn::column).toList();
        scanOptions = DrillScanOptions.of(options, config, rowGroup, leaves);
      }
      read = new RowGroupRead(path, metadata, rowGroupIndex, rowsToRead > 0 ? leaves : List.of(), filter,
          scanOptions, rowsToRead);
      return read;
    } catch (IOException | RuntimeException e) {
      throw error(e);
    }
  }

  /** The fragment's pipeline, in which this reader's row group is read {@code index}. */
  void attach(RowGroupPipeline pipeline, int index) {
    this.pipeline = pipeline;
    this.readIndex = index;
  }

  /** The fragment's state: a scan stopped by Drill's cancel (an interrupt) reports a cancel, not a read error. */
  private FragmentContext.ExecutorState executorState;

  @Override
  public void setup(OperatorContext context, OutputMutator output) throws ExecutionSetupException {
    long start = System.nanoTime();
    stats = context.getStats();
    executorState = context.getFragmentContext().getExecutorState();
    try {
      if (complex != null) {
        complex.setup(output);
      } else {
        for (SchemaPath column : missingColumns()) {
          // Named as Drill's reader names it (quoted, so no expression matches it): Drill's operators
          // then see the column as absent in this file and give it the untyped NULL, which compares
          // and unions with the column's type in other files, as with the built-in reader.
          missing.add(output.addField(MaterializedField.create(column.toExpr(),
              Types.optional(MinorType.INT)), NullableIntVector.class));
        }
        for (DrillColumn column : columns) {
          MaterializedField field = MaterializedField.create(column.column().path().get(0), column.type());
          vectors.add(output.addField(field,
              TypeHelper.getValueVectorClass(column.type().getMinorType(), column.type().getMode())));
        }
      }
      pipeline.open(readIndex);
    } catch (SchemaChangeException e) {
      throw new ExecutionSetupException(e);
    } catch (IOException | RuntimeException e) {
      throw error(e);
    } finally {
      processNanos += System.nanoTime() - start;
    }
  }

  /**
   * A scan that projects nothing (count(*), also once Drill has dropped a filter every row group
   * matches) reads no column: as Drill's reader does, it stands in a column no file has, which
   * becomes the batch's one (null) vector, so that Drill sees a schema. Drill's default here would
   * be the star, every column.
   */
  @Override
  protected List<SchemaPath> getDefaultColumnsToRead() {
    return NO_COLUMN;
  }

  /** The flat leaves this reader reads, in projection order (none for a scan that projects nothing). */
  private List<ColumnDescriptor> flatColumns() {
    List<ColumnDescriptor> chosen = new ArrayList<>();
    if (isSkipQuery()) {
      return chosen;
    }
    if (isStarQuery()) {
      chosen.addAll(metadata.schema().columns());
    } else {
      for (SchemaPath column : getColumns()) {
        ColumnDescriptor c = resolve(column);
        if (c != null && !chosen.contains(c)) {
          chosen.add(c);
        }
      }
    }
    return chosen;
  }

  /** Projected columns the file lacks (for a scan that projects nothing, its stand-in). */
  private List<SchemaPath> missingColumns() {
    List<SchemaPath> out = new ArrayList<>();
    if (isSkipQuery()) {
      return NO_COLUMN;
    }
    if (!isStarQuery()) {
      for (SchemaPath column : getColumns()) {
        if (resolve(column) == null) {
          out.add(column);
        }
      }
    }
    return out;
  }

  /**
   * The leaf a projected column names, matching names case-insensitively as Drill does; null when
   * the file has no such column. Anything below the top level is a nested column we do not read.
   */
  private ColumnDescriptor resolve(SchemaPath column) {
    String name = column.getRootSegmentPath().toLowerCase(Locale.ROOT);
    for (SchemaNode child : metadata.schema().root().children()) {
      if (!child.name().toLowerCase(Locale.ROOT).equals(name)) {
        continue;
      }
      if (child.column() == null) {
        ColumnDescriptor first = metadata.schema().columns().stream()
            .filter(c -> c.path().get(0).equals(child.name())).findFirst().orElse(null);
        if (first != null) {
          throw DrillColumn.nested(first);
        }
        return null;
      }
      if (!column.isLeaf() || !child.column().isFlat()) {
        throw DrillColumn.nested(child.column());
      }
      return child.column();
    }
    return null;
  }

  @Override
  public int next() {
    long start = System.nanoTime();
    try {
      return readBatch();
    } finally {
      processNanos += System.nanoTime() - start;
    }
  }

  /**
   * Flat columns: nothing, each batch allocates its vectors at their exact size when it writes them
   * (the default would allocate every vector at a default size per batch, only to replace it).
   * Nested columns are written through Drill's complex writers, which need the default.
   */
  @Override
  public void allocate(Map<String, ValueVector> vectorMap) {
    if (complex != null) {
      super.allocate(vectorMap);
    }
  }

  private int readBatch() {
    long remaining = rowsToRead - rowsDone;
    int rows;
    try {
      if (remaining <= 0) {
        checkEnd();
        return end();
      }
      if (read.projection().isEmpty()) {
        rows = (int) Math.min(read.options().decode().batchSize(), remaining); // row counts only
      } else {
        Batch batch = pipeline.next();
        if (batch == null) {
          return end();
        }
        rows = (int) Math.min(batch.rows(), remaining);
        if (complex != null) {
          complex.write(batch, rows);
        } else {
          writeFlat(batch, rows);
        }
        // The batch is in the vectors: decode the next one while Drill's operators use these.
        pipeline.decodeAhead();
      }
    } catch (IOException | RuntimeException e) {
      throw error(e);
    }
    if (complex != null) {
      complex.fillMissing(rows);
    } else {
      DrillColumn.fillNulls(missing, rows);
    }
    rowsDone += rows;
    return rows;
  }

  /**
   * Once every row of the row group is read: the pipeline's end check, which no column may fail by
   * holding values past the row group's rows (a footer that claims too few rows would otherwise cut
   * the answer short in silence). Not when Drill asked for fewer rows (a pushed LIMIT).
   */
  private void checkEnd() throws IOException {
    if (endChecked || read.projection().isEmpty() || rowsToRead < read.numRows()) {
      return;
    }
    endChecked = true;
    if (pipeline.next() != null) {
      throw new IllegalStateException("a batch past the row group's " + read.numRows() + " rows");
    }
  }

  private void writeFlat(Batch batch, int rows) {
    for (int i = 0; i < columns.size(); i++) {
      long t = System.nanoTime();
      DrillColumn column = columns.get(i);
      column.write(batch.columns().get(i), vectors.get(i), rows);
      if (column.isVariableWidth()) {
        variableWidthNanos += System.nanoTime() - t;
      } else {
        fixedWidthNanos += System.nanoTime() - t;
      }
    }
  }

  /** The end of the row group; the nested reader's writers need nothing more. */
  private int end() {
    return complex != null ? 0 : empty();
  }

  /** The end of the row group: empty vectors, allocated so that Drill may set their counts. */
  private int empty() {
    for (ValueVector v : vectors) {
      v.allocateNew();
      v.getMutator().setValueCount(0);
    }
    for (NullableIntVector v : missing) {
      v.allocateNew();
      v.getMutator().setValueCount(0);
    }
    return 0;
  }

  private UserException error(Exception e) {
    if (e instanceof UserException u) {
      return u;
    }
    if (e instanceof InterruptedIOException && executorState != null) {
      executorState.checkContinue(); // a cancelled fragment: Drill's QueryCancelledException, not a read error
    }
    UserException.Builder error = UserException.dataReadError(e)
        .message("turbo-parquet failed to read %s: %s", path, e.getMessage())
        .addContext("File", path.toString())
        .addContext("Row group", rowGroupIndex)
        .addContext("Columns", (complex != null ? complex.leaves() : columns.stream().map(DrillColumn::column).toList())
            .stream().map(ColumnDescriptor::dottedPath).toList().toString());
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof PageTooLargeException large) {
        error.addContext("Page size limit", String.format("the turbo-parquet format property maxPageBytes (default %d)"
            + " raises it, e.g. for one query: table(<table>(type => 'turbo-parquet', maxPageBytes => %d))",
            DrillScanOptions.DEFAULT_MAX_PAGE_BYTES, large.pageBytes()));
        break;
      }
    }
    return error.build(logger);
  }

  /** Adds this reader's own counters to the profile; the pipeline's are the scan batch's to report. */
  @Override
  public void close() {
    if (stats != null) {
      ProfileMetrics.reportReader(stats, rowsDone, fixedWidthNanos, variableWidthNanos, processNanos);
      stats = null;
    }
  }

  @Override
  public String toString() {
    return "TurboParquetRecordReader[file=" + path + ", rowGroup=" + rowGroupIndex + ", rows=" + rowsToRead
        + ", read=" + rowsDone + "]";
  }
}
