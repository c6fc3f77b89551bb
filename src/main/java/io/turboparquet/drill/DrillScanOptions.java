package io.turboparquet.drill;

import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.scan.ScanOptions;
import java.net.URI;
import java.util.List;
import org.apache.drill.common.exceptions.UserException;
import org.apache.drill.exec.ExecConstants;
import org.apache.drill.exec.server.options.OptionManager;
import org.apache.drill.exec.server.options.OptionValue;
import org.apache.drill.exec.vector.ValueVector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns Drill's session options (the ones its own Parquet reader honours) and the format config
 * into the core's {@link ScanOptions}. The pools are the drillbit's, so thread counts stay at their
 * defaults here. See docs/options.md for the table.
 */
final class DrillScanOptions {
  private static final Logger logger = LoggerFactory.getLogger(DrillScanOptions.class);
  /**
   * The largest uncompressed page a scan reads where the format config does not set {@code
   * maxPageBytes}: 256 MiB, the scan's default memory budget. Drill bounds a scan's memory by nothing
   * of its own (an operator's allocator may take 10 GB), and the core's default (2 GiB, one buffer)
   * let a 1 GiB page through, whose value became a Drill batch of over 1 GiB, sent to the client as
   * one message. Writers' pages are about 1 MiB.
   */
  static final int DEFAULT_MAX_PAGE_BYTES = 256 << 20;

  private DrillScanOptions() {
  }

  /** Options for reading {@code rowGroup}'s {@code columns}; batch rows sized as Drill's reader sizes them. */
  static ScanOptions of(OptionManager options, TurboParquetFormatConfig config, RowGroupMeta rowGroup,
      List<ColumnDescriptor> columns) {
    ScanOptions.Builder b = ScanOptions.builder()
        .asyncPageReads(options.getBoolean(ExecConstants.PARQUET_PAGEREADER_ASYNC))
        .bufferedReads(options.getBoolean(ExecConstants.PARQUET_PAGEREADER_USE_BUFFERED_READ))
        .bufferSize(positiveInt(options, ExecConstants.PARQUET_PAGEREADER_BUFFER_SIZE))
        .readAheadHint(options.getBoolean(ExecConstants.PARQUET_PAGEREADER_USE_FADVISE))
        .queueDepth(positiveInt(options, ExecConstants.PARQUET_PAGEREADER_QUEUE_SIZE))
        .parallelDecode(parallelDecode(options, config))
        .batchSize(batchRows(options, rowGroup, columns));
    if (config.getMemoryBudget() != null) {
      b.memoryBudget(atLeast("memoryBudget", config.getMemoryBudget(), ScanOptions.MIN_BUFFER_SIZE));
    }
    if (config.getVerifyChecksums() != null) {
      b.verifyChecksums(config.getVerifyChecksums());
    }
    if (config.getCoalescedReads() != null) {
      b.coalescedReads(config.getCoalescedReads());
    }
    b.decodeAhead(config.getDecodeAhead() == null || config.getDecodeAhead());
    b.maxPageBytes(config.getMaxPageBytes() == null ? DEFAULT_MAX_PAGE_BYTES
        : atLeast("maxPageBytes", config.getMaxPageBytes(), ScanOptions.MIN_BUFFER_SIZE));
    if (config.getMaxPageEntries() != null) {
      b.maxPageEntries(atLeast("maxPageEntries", config.getMaxPageEntries(), 1));
    }
    b.batchBytes(batchBytes(options, config));
    if (config.getPageIndexSkipping() != null) {
      b.pageIndexSkipping(config.getPageIndexSkipping());
    }
    if (config.getDictionaryPruning() != null) {
      b.dictionaryPruning(config.getDictionaryPruning());
    }
    if (config.getBloomFilterPruning() != null) {
      b.bloomFilterPruning(config.getBloomFilterPruning());
    }
    if (config.getLateMaterialization() != null) {
      b.lateMaterialization(config.getLateMaterialization());
    }
    return b.build();
  }

  /**
   * The options of a whole scan over files of {@code store}: {@link #of}'s, and whether row groups
   * are read ahead, as the format config says or, unset, when the store is not local files.
   */
  static ScanOptions ofScan(OptionManager options, TurboParquetFormatConfig config, URI store) {
    Boolean prefetch = config.getPrefetchRowGroups();
    return of(options, config, null, List.of()).toBuilder()
        .prefetchRowGroups(prefetch != null ? prefetch : !ScanOptions.Io.isLocal(store))
        .build();
  }

  /** A format property of at least {@code min}, or a validation error naming it. */
  private static <T extends Number> T atLeast(String property, T value, long min) {
    if (value.longValue() < min) {
      throw UserException.validationError()
          .message("turbo-parquet format property %s must be at least %d, not %d", property, min, value)
          .build(logger);
    }
    return value;
  }

  /**
   * Bytes of values one column may hold in one batch: the format config's {@code batchBytes} when
   * set; else {@code store.parquet.flat.batch.memory_size} (a column never holds more than the whole
   * batch may), or when that is 0 Drill's operator output batch size (16 MiB), as
   * {@link #batchRows} reads them; at most {@link ScanOptions#MAX_BATCH_BYTES}.
   */
  static long batchBytes(OptionManager options, TurboParquetFormatConfig config) {
    Long set = config.getBatchBytes();
    if (set != null) {
      if (set < 1 || set > ScanOptions.MAX_BATCH_BYTES) {
        throw UserException.validationError()
            .message("turbo-parquet format property batchBytes must be between 1 and %d, not %d",
                ScanOptions.MAX_BATCH_BYTES, set)
            .build(logger);
      }
      return set;
    }
    long memory = options.getLong(ExecConstants.PARQUET_FLAT_BATCH_MEMORY_SIZE);
    if (memory <= 0) {
      memory = options.getLong(ExecConstants.OUTPUT_BATCH_SIZE);
    }
    return memory <= 0 ? ScanOptions.defaults().decode().batchBytes() : Math.min(memory, ScanOptions.MAX_BATCH_BYTES);
  }

  /**
   * The format config decides when it says; otherwise Drill's column-reader option where a user set
   * it; otherwise on. Drill's own default (off) exists because its parallel column readers made its
   * scans slower; ours are the reason this reader is fast, so an unset option does not turn them off.
   */
  static boolean parallelDecode(OptionManager options, TurboParquetFormatConfig config) {
    if (config.getParallelDecode() != null) {
      return config.getParallelDecode();
    }
    OptionValue set = options.getOption(ExecConstants.PARQUET_COLUMNREADER_ASYNC);
    if (set != null && set.scope != OptionValue.OptionScope.BOOT) {
      return set.bool_val;
    }
    return true;
  }

  /**
   * {@code store.parquet.flat.batch.num_records}, lowered so that a batch of the projected columns
   * fits {@code store.parquet.flat.batch.memory_size} (or, when that is 0, Drill's operator output
   * batch size), estimating a row's bytes from the row group's uncompressed sizes as Drill's
   * reader does.
   */
  static int batchRows(OptionManager options, RowGroupMeta rowGroup, List<ColumnDescriptor> columns) {
    long rows = Math.max(1, Math.min(ValueVector.MAX_ROW_COUNT - 1,
        options.getLong(ExecConstants.PARQUET_FLAT_BATCH_NUM_RECORDS)));
    long memory = options.getLong(ExecConstants.PARQUET_FLAT_BATCH_MEMORY_SIZE);
    if (memory <= 0) {
      memory = options.getLong(ExecConstants.OUTPUT_BATCH_SIZE);
    }
    if (rowGroup == null || rowGroup.numRows() <= 0 || memory <= 0) {
      return (int) rows;
    }
    double rowBytes = 0;
    for (ColumnDescriptor c : columns) {
      ColumnChunkMeta chunk = rowGroup.column(c.index());
      // Uncompressed page bytes per row approximate the values; offsets and validity add 5 bytes.
      rowBytes += (double) chunk.totalUncompressedSize() / rowGroup.numRows() + 5;
    }
    if (rowBytes > 0) {
      rows = Math.min(rows, Math.max(1, (long) (memory / rowBytes)));
    }
    return (int) rows;
  }

  private static int positiveInt(OptionManager options, String name) {
    long v = options.getLong(name);
    if (v < 1 || v > Integer.MAX_VALUE) {
      throw UserException.validationError()
          .message("turbo-parquet: option %s must be between 1 and %d, not %d", name, Integer.MAX_VALUE, v)
          .build(logger);
    }
    return (int) v;
  }
}
