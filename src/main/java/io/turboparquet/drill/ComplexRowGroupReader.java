package io.turboparquet.drill;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.util.concurrent.UncheckedExecutionException;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.Schema;
import io.turboparquet.scan.Batch;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.apache.drill.common.expression.SchemaPath;
import org.apache.drill.common.types.Types;
import org.apache.drill.exec.ExecConstants;
import org.apache.drill.exec.exception.SchemaChangeException;
import org.apache.drill.exec.physical.impl.OutputMutator;
import org.apache.drill.exec.record.MaterializedField;
import org.apache.drill.exec.server.options.OptionManager;
import org.apache.drill.exec.store.parquet.ParquetReaderConfig;
import org.apache.drill.exec.store.parquet.ParquetReaderUtility;
import org.apache.drill.exec.store.parquet2.DrillParquetRecordMaterializer;
import org.apache.drill.exec.vector.NullableIntVector;
import org.apache.drill.exec.vector.ValueVector;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * Reads one row group the way Drill's built-in format reads it when the query touches a nested
 * column (LIST, MAP, struct, repeated field), where Drill switches from its flat reader to
 * {@code DrillParquetReader}: every projected column, flat ones included, goes through Drill's
 * converters and complex writers ({@link DrillParquetRecordMaterializer}), which decide the vector
 * types (nullable scalars, MAP for groups, REPEATED vectors, RepeatedList, DICT for MAP-annotated
 * groups). The values come from the scan core; {@link RecordAssembler} rebuilds the records from
 * their levels and drives the converters. Reusing Drill's converters rather than writing vectors
 * directly is the price of rows identical to the built-in reader's in every corner (null elements
 * dropped from lists, legacy list layouts, date correction, every logical type). VARIANT groups, at
 * any depth, are the exception: the converters see each as one VARCHAR or VARBINARY leaf
 * ({@link ConverterSchema}), which the assembler fills with the rebuilt value.
 */
final class ComplexRowGroupReader {
  private final OptionManager options;
  private static final Cache<FileMetadata, ParquetMetadata> CONVERTED =
      CacheBuilder.newBuilder().weakKeys().maximumSize(16).build();

  private final ParquetMetadata footer;
  /** The file's DRILL-4203 date status ({@link DateCorrection}), which Drill's converters apply. */
  private final ParquetReaderUtility.DateCorruptionStatus dates;
  private final ComplexProjection projection;
  /** The file's leaves the projection reads, in the order of parquet-java's projected schema. */
  private final List<io.turboparquet.format.ColumnDescriptor> leaves = new ArrayList<>();
  private final int batchSize;
  private final List<NullableIntVector> missing = new ArrayList<>();
  /** The projection as Drill's converters see it (VARIANT groups as leaves); null when nothing is read. */
  private final ConverterSchema converterSchema;
  private final String file;
  private DrillParquetRecordMaterializer materializer;
  private RecordAssembler assembler;

  private ComplexRowGroupReader(OptionManager options, ParquetReaderUtility.DateCorruptionStatus dates, Path path,
      FileMetadata metadata, ParquetMetadata footer, List<SchemaPath> columns, boolean star, boolean variantAsBinary) {
    this.options = options;
    this.dates = dates;
    this.footer = footer;
    this.batchSize = (int) Math.max(1, Math.min(ValueVector.MAX_ROW_COUNT - 1,
        options.getLong(ExecConstants.PARQUET_COMPLEX_BATCH_NUM_RECORDS)));
    this.projection = ComplexProjection.of(footer.getFileMetaData().getSchema(), columns, star);
    this.file = path.toString();
    this.converterSchema = star || !projection.found().isEmpty()
        ? new ConverterSchema(projection.schema(), metadata.schema().root(), variantAsBinary) : null;
    if (converterSchema != null) {
      leaves.addAll(converterSchema.leaves());
    }
  }

  /**
   * A reader for the row group when Drill's built-in format would read it with its nested reader
   * (a projected column is nested, or {@code store.parquet.use_new_reader} is on), else null. Only
   * files with a group or a repeated field pay for converting our footer to parquet-java's, whose
   * schema Drill's converters take.
   */
  static ComplexRowGroupReader open(OptionManager options, ParquetReaderUtility.DateCorruptionStatus dates,
      Path path, FileMetadata metadata, List<SchemaPath> columns, boolean star, boolean variantAsBinary)
      throws IOException {
    if (columns.isEmpty()) {
      return null; // count(*): row counts only
    }
    boolean newReader = options.getBoolean(ExecConstants.PARQUET_NEW_RECORD_READER);
    if (!newReader && !hasNested(metadata.schema())) {
      return null;
    }
    ParquetMetadata footer = parquetJavaFooter(metadata, options);
    if (!newReader && !ParquetReaderUtility.containsComplexColumn(footer, columns)) {
      return null;
    }
    return new ComplexRowGroupReader(options, dates, path, metadata, footer, columns, star, variantAsBinary);
  }

  /**
   * parquet-java's form of the footer, converted once per file for all its row groups while the
   * file is among the last few read (keyed by the decoded footer, which the footer cache shares).
   */
  private static ParquetMetadata parquetJavaFooter(FileMetadata metadata, OptionManager options) throws IOException {
    try {
      return CONVERTED.get(metadata, () -> ParquetJavaFooters.of(metadata,
          ParquetReaderConfig.builder().withOptions(options).build().toReadOptions(), null));
    } catch (ExecutionException | UncheckedExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw new IOException(e.getCause());
    }
  }

  /** Whether any leaf of the schema is below the top level or repeated. */
  static boolean hasNested(Schema schema) {
    return schema.columns().stream().anyMatch(c -> c.path().size() > 1 || !c.isFlat());
  }

  /** The leaves the scan core reads for this projection (none when it names only columns the file lacks). */
  List<io.turboparquet.format.ColumnDescriptor> leaves() {
    return leaves;
  }

  /** Records per batch, as Drill's nested reader sizes them. */
  int batchSize() {
    return batchSize;
  }

  /** Adds the output columns: Drill's converters for the projection, nullable INT for columns the file lacks. */
  void setup(OutputMutator output) throws SchemaChangeException {
    for (SchemaPath column : projection.notFound()) {
      missing.add(output.addField(MaterializedField.create(column.toExpr(), Types.optional(
          org.apache.drill.common.types.TypeProtos.MinorType.INT)), NullableIntVector.class));
    }
    if (!leaves.isEmpty()) {
      materializer = new DrillParquetRecordMaterializer(output, converterSchema.schema(), projection.found(), options,
          dates);
      assembler = new RecordAssembler(converterSchema.schema(), materializer.getRootConverter(),
          converterSchema.sources(), file);
    }
  }

  /** Writes the first {@code rows} records of {@code batch} (the scan core's batch of {@link #leaves}). */
  void write(Batch batch, int rows) throws IOException {
    if (assembler == null) {
      return;
    }
    assembler.start(batch);
    for (int i = 0; i < rows; i++) {
      materializer.setPosition(i);
      assembler.assembleRecord();
    }
    if (rows == batch.rows()) {
      assembler.finishBatch();
    }
    materializer.setValueCount(rows);
  }

  /** The columns the file lacks: {@code rows} nulls each. */
  void fillMissing(int rows) {
    DrillColumn.fillNulls(missing, rows);
  }
}
