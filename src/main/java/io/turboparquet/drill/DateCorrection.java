package io.turboparquet.drill;

import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.FileMetadata;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.drill.common.expression.SchemaPath;
import org.apache.drill.exec.store.parquet.ParquetReaderConfig;
import org.apache.drill.exec.store.parquet.ParquetReaderUtility;
import org.apache.drill.exec.store.parquet.ParquetReaderUtility.DateCorruptionStatus;
import org.apache.parquet.ParquetReadOptions;

/**
 * Whether a file's dates need Drill's DRILL-4203 correction: Drill before 1.9 wrote DATE values
 * shifted by {@link ParquetReaderUtility#CORRECT_CORRUPT_DATE_SHIFT} days, and Drill's readers
 * shift them back, deciding per file from the writer's metadata and the first row group's date
 * statistics (its {@link ParquetReaderUtility#detectCorruptDates} rule, used here as is, so both
 * readers return the same dates and planning's corrected statistics describe what the scan returns).
 * {@link DrillColumn} applies the answer; a filter does not judge the stored values of a file whose
 * dates are shifted ({@link DrillPredicates.Reading#dates}).
 */
final class DateCorrection {
  /** The INT32 date statistics Drill's rule reads convert the same under any options. */
  private static final ParquetReadOptions OPTIONS = ParquetReadOptions.builder().build();

  private DateCorrection() {}

  /**
   * The file's date status for a scan of {@code columns} (the table's columns, or the star) with
   * the reader's {@code config}. Files without rows or whose projection has no DATE column, and
   * every file when the correction is off, need none; for the others Drill's rule reads parquet-java's form of the
   * footer, made for the date columns only.
   */
  static DateCorruptionStatus of(FileMetadata footer, List<SchemaPath> columns, ParquetReaderConfig config)
      throws IOException {
    if (!config.autoCorrectCorruptedDates() || footer.rowGroups().isEmpty()) {
      return DateCorruptionStatus.META_SHOWS_NO_CORRUPTION; // off: what Drill's rule gives too; no rows: no dates
    }
    Set<String> projected = columns.stream().map(c -> c.getRootSegmentPath().toLowerCase(Locale.ROOT))
        .collect(Collectors.toSet());
    boolean star = columns.stream().anyMatch(SchemaPath::isDynamicStar);
    Set<String> dateRoots = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    for (ColumnDescriptor c : footer.schema().columns()) {
      String root = c.path().get(0);
      if ("DATE".equalsIgnoreCase(c.logicalType()) && (star || projected.contains(root.toLowerCase(Locale.ROOT)))) {
        dateRoots.add(root);
      }
    }
    if (dateRoots.isEmpty()) {
      return DateCorruptionStatus.META_SHOWS_NO_CORRUPTION;
    }
    return ParquetReaderUtility.detectCorruptDates(ParquetJavaFooters.of(footer, OPTIONS, dateRoots), columns, true);
  }
}
