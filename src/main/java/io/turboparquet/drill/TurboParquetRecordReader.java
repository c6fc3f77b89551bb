package io.turboparquet.drill;

import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.format.SchemaNode;
import io.turboparquet.scan.Batch;
import io.turboparquet.scan.RowGroupScanner;
import io.turboparquet.scan.ScanContext;
import io.turboparquet.scan.ScanMetrics;
import io.turboparquet.scan.ScanOptions;
import java.io.IOException;
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
import org.apache.drill.exec.ops.OperatorContext;
import org.apache.drill.exec.ops.OperatorStats;
import org.apache.drill.exec.physical.impl.OutputMutator;
import org.apache.drill.exec.record.MaterializedField;
import org.apache.drill.exec.server.options.OptionManager;
import org.apache.drill.exec.store.AbstractRecordReader;
import org.apache.drill.exec.vector.NullableIntVector;
import org.apache.drill.exec.vector.ValueVector;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one row group with the scan core's {@link RowGroupScanner} over the projected columns and
 * writes each batch into Drill value vectors (by copying, in this increment). Projected columns
 * the file lacks come out as nullable INT nulls, as from Drill's own reader; a query that projects
 * no column (count(*)) gets row counts only.
 */
final class TurboParquetRecordReader extends AbstractRecordReader {
  /** Drill's reader's stand-in column for a scan that projects nothing (ParquetRecordReader's name). */
  private static final List<SchemaPath> NO_COLUMN = List.of(SchemaPath.getSimplePath("_DEFAULT_COL_TO_READ_"));
  private static final Logger logger = LoggerFactory.getLogger(TurboParquetRecordReader.class);

  private final Path path;
  private final FileMetadata metadata;
  private final int rowGroupIndex;
  private final long rowsToRead;
  private final FileSystem fs;
  private final OptionManager options;
  private final TurboParquetFormatConfig config;
  private final List<DrillColumn> columns = new ArrayList<>();
  private final List<ValueVector> vectors = new ArrayList<>();
  private final List<NullableIntVector> missing = new ArrayList<>();
  private final ScanMetrics metrics = new ScanMetrics();
  private RowGroupScanner scanner;
  /** The reader ScanBatch runs after this one, which this one prepares while its last batch is used. */
  private TurboParquetRecordReader successor;
  /** This reader's scanner, opened and decoding ahead before setup by the reader before it; or null. */
  private RowGroupScanner prepared;
  /** next() has returned 0: ScanBatch goes on to the next reader (not so on LIMIT or cancel). */
  private boolean exhausted;
  private OperatorContext operatorContext;
  /** Row groups the scan was given, and how many of them it pruned at run time (for the profile). */
  private long scanRowGroups = 1;
  private long prunedRowGroups;
  private OperatorStats stats;
  private ScanOptions scanOptions;
  /** Set when the query touches a nested column: that reader then reads every projected column. */
  private ComplexRowGroupReader complex;
  private int batchSize;
  private long rowsDone;
  private long fixedWidthNanos;
  private long variableWidthNanos;
  private long processNanos;

  TurboParquetRecordReader(OptionManager options, TurboParquetFormatConfig config, Path path, FileMetadata metadata,
      int rowGroupIndex, long numRecordsToRead, List<SchemaPath> projection, FileSystem fs) {
    this.options = options;
    this.config = config;
    this.path = path;
    this.metadata = metadata;
    this.rowGroupIndex = rowGroupIndex;
    // Drill plans a file without row groups as one entry with row group -1: schema only, no rows.
    long rows = rowGroupIndex < 0 ? 0 : metadata.rowGroups().get(rowGroupIndex).numRows();
    this.rowsToRead = numRecordsToRead < 0 ? rows : Math.min(rows, numRecordsToRead);
    this.fs = fs;
    setColumns(projection);
  }

  @Override
  public void setup(OperatorContext context, OutputMutator output) throws ExecutionSetupException {
    long start = System.nanoTime();
    RowGroupScanner early = prepared;
    prepared = null;
    operatorContext = context;
    stats = context.getStats();
    boolean microsTimestamp = options.getBoolean(ExecConstants.PARQUET_READER_TIMESTAMP_MICROS_AS_INT64);
    boolean microsTime = options.getBoolean(ExecConstants.PARQUET_READER_TIME_MICROS_AS_INT64);
    boolean int96 = options.getBoolean(ExecConstants.PARQUET_READER_INT96_AS_TIMESTAMP);
    try {
      complex = ComplexRowGroupReader.open(options, path, metadata, rowGroupIndex, rowsToRead,
          isSkipQuery() ? List.of() : new ArrayList<>(getColumns()), isStarQuery());
      if (complex != null) {
        RowGroupMeta rowGroup = rowGroupIndex < 0 ? null : metadata.rowGroups().get(rowGroupIndex);
        complex.setup(output, records -> {
          scanOptions = DrillScanOptions.of(options, config, rowGroup, List.of()).toBuilder()
              .batchSize(records).build();
          return scanContext(context, scanOptions);
        });
        return;
      }
      for (SchemaPath column : missingColumns()) {
        // Named as Drill's reader names it (quoted, so no expression matches it): Drill's operators
        // then see the column as absent in this file and give it the untyped NULL, which compares
        // and unions with the column's type in other files, as with the built-in reader.
        missing.add(output.addField(MaterializedField.create(column.toExpr(),
            Types.optional(MinorType.INT)), NullableIntVector.class));
      }
      for (ColumnDescriptor c : flatColumns()) {
        DrillColumn column = DrillColumn.of(c, microsTimestamp, microsTime, int96);
        columns.add(column);
        MaterializedField field = MaterializedField.create(c.path().get(0), column.type());
        vectors.add(output.addField(field,
            TypeHelper.getValueVectorClass(column.type().getMinorType(), column.type().getMode())));
      }
      List<ColumnDescriptor> projected = columns.stream().map(DrillColumn::column).toList();
      RowGroupMeta rowGroup = rowGroupIndex < 0 ? null : metadata.rowGroups().get(rowGroupIndex);
      scanOptions = DrillScanOptions.of(options, config, rowGroup, projected);
      batchSize = scanOptions.batchSize();
      if (!columns.isEmpty() && rowsToRead > 0) {
        scanner = early != null ? early
            : new RowGroupScanner(scanContext(context, scanOptions), metadata, path, rowGroupIndex, projected);
      }
    } catch (SchemaChangeException e) {
      throw new ExecutionSetupException(e);
    } catch (IOException | RuntimeException e) {
      throw error(e);
    } finally {
      if (early != null && scanner != early) {
        early.close();
      }
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

  /** The scan's row-group counts, reported in the profile as Drill's reader reports them. */
  void rowGroupCounts(long total, long pruned) {
    this.scanRowGroups = total;
    this.prunedRowGroups = pruned;
  }

  /** ScanBatch runs {@code next} right after this reader (the batch creator knows the order). */
  void setSuccessor(TurboParquetRecordReader next) {
    this.successor = next;
  }

  /**
   * Opens this reader's scanner before its setup, so that its row group's reads and first batch's
   * decode overlap the use of the previous reader's last batch. Only for flat columns read
   * coalesced, asynchronously and decoding ahead, and only while both row groups' reads fit the
   * memory budget ({@code alsoHeld}: what the previous reader still holds). Anything that goes
   * wrong here is left for setup to meet again and report.
   */
  private void prepare(OperatorContext context, long alsoHeld) {
    if (prepared != null || rowGroupIndex < 0 || rowsToRead <= 0
        || options.getBoolean(ExecConstants.PARQUET_NEW_RECORD_READER)
        || ComplexRowGroupReader.hasNested(metadata.schema())) {
      return;
    }
    try {
      List<ColumnDescriptor> projected = flatColumns();
      ScanOptions o = DrillScanOptions.of(options, config, metadata.rowGroups().get(rowGroupIndex), projected);
      if (projected.isEmpty() || !o.decodeAhead() || !o.parallelDecode()) {
        return;
      }
      prepared = RowGroupScanner.prefetched(scanContext(context, o), metadata, path, rowGroupIndex, projected, alsoHeld);
      if (prepared != null) {
        prepared.decodeAhead();
      }
    } catch (IOException | RuntimeException e) {
      logger.debug("turbo-parquet could not prepare row group {} of {} early; its setup reads it", rowGroupIndex,
          path, e);
      closePrepared();
    }
  }

  private void closePrepared() {
    if (prepared != null) {
      prepared.close();
      prepared = null;
    }
  }

  private ScanContext scanContext(OperatorContext context, ScanOptions scanOptions) {
    return new ScanContext(StoreFileSystem.of(fs), scanOptions, new DrillBufferSource(context.getAllocator()),
        context.getScanExecutor(), context.getScanDecodeExecutor(), metrics);
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
    if (remaining <= 0) {
      exhausted = true;
      return empty();
    }
    int rows;
    try {
      if (complex != null) {
        rows = complex.next();
        rowsDone += rows;
        return rows;
      }
      if (scanner == null) {
        rows = (int) Math.min(batchSize, remaining);
      } else {
        Batch batch = scanner.next();
        if (batch == null) {
          exhausted = true;
          return empty();
        }
        rows = (int) Math.min(batch.rows(), remaining);
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
        // The batch is in the vectors: decode the next one while Drill's operators use these, or
        // after the last one, open the next reader's row group.
        if (rowsDone + rows < rowsToRead) {
          scanner.decodeAhead();
        } else if (successor != null && scanOptions.decodeAhead()) {
          successor.prepare(operatorContext, scanner.fetchedBytes());
        }
      }
    } catch (IOException | RuntimeException e) {
      throw error(e);
    }
    DrillColumn.fillNulls(missing, rows);
    rowsDone += rows;
    return rows;
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
    return UserException.dataReadError(e)
        .message("turbo-parquet failed to read %s: %s", path, e.getMessage())
        .addContext("File", path.toString())
        .addContext("Row group", rowGroupIndex)
        .addContext("Columns", columns.stream().map(c -> c.column().dottedPath()).toList().toString())
        .build(logger);
  }

  @Override
  public void close() {
    if (successor != null && !exhausted) {
      successor.closePrepared(); // closed early (LIMIT, cancel, failure): ScanBatch never sets it up
    }
    if (complex != null) {
      complex.close();
      complex = null;
    }
    if (scanner != null) {
      scanner.close();
      scanner = null;
    }
    if (stats != null) {
      ProfileMetrics.report(stats, metrics, scanOptions, scanRowGroups, prunedRowGroups, rowsDone, fixedWidthNanos,
          variableWidthNanos, processNanos);
      stats = null;
    }
  }

  @Override
  public String toString() {
    return "TurboParquetRecordReader[file=" + path + ", rowGroup=" + rowGroupIndex + ", rows=" + rowsToRead
        + ", read=" + rowsDone + "]";
  }
}
