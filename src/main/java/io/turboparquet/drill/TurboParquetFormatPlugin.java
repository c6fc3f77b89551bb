package io.turboparquet.drill;

import io.turboparquet.format.FooterReader;
import java.io.IOException;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.drill.common.exceptions.UserException;
import org.apache.drill.common.expression.SchemaPath;
import org.apache.drill.common.logical.StoragePluginConfig;
import org.apache.drill.exec.metastore.MetadataProviderManager;
import org.apache.drill.exec.physical.base.AbstractGroupScan;
import org.apache.drill.exec.physical.base.AbstractWriter;
import org.apache.drill.exec.physical.base.PhysicalOperator;
import org.apache.drill.exec.physical.base.SchemalessScan;
import org.apache.drill.exec.server.DrillbitContext;
import org.apache.drill.exec.server.options.OptionManager;
import org.apache.drill.exec.store.dfs.BasicFormatMatcher;
import org.apache.drill.exec.store.dfs.FileSelection;
import org.apache.drill.exec.store.dfs.FormatMatcher;
import org.apache.drill.exec.store.dfs.FormatPlugin;
import org.apache.drill.exec.store.dfs.MagicString;
import org.apache.drill.exec.store.parquet.ParquetReaderConfig;
import org.apache.drill.exec.util.ImpersonationUtil;
import org.apache.drill.exec.planner.common.DrillStatsTable.TableStatistics;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drill format plugin for {@code turbo-parquet}: Drill plans the scan (row-group parallelism,
 * projection, filter and partition pruning through {@link TurboParquetGroupScan}, which reuses
 * Drill's Parquet metadata), and our scan core reads the row groups. Read-only.
 */
public final class TurboParquetFormatPlugin implements FormatPlugin {
  private static final Logger logger = LoggerFactory.getLogger(TurboParquetFormatPlugin.class);
  private static final String DEFAULT_NAME = TurboParquetFormatConfig.NAME;
  private static final List<Pattern> PATTERNS = List.of(Pattern.compile(".*\\.parquet$"));
  private static final List<MagicString> MAGIC = List.of(new MagicString(0, new byte[] {'P', 'A', 'R', '1'}));

  static {
    ScanMetric.registerNames(TurboParquetRowGroupScan.OPERATOR_TYPE);
  }

  private final String name;
  private final DrillbitContext context;
  private final Configuration fsConf;
  private final StoragePluginConfig storageConfig;
  private final TurboParquetFormatConfig config;
  private final FormatMatcher matcher;

  /** The constructor Drill's FormatCreator looks for. */
  public TurboParquetFormatPlugin(String name, DrillbitContext context, Configuration fsConf,
      StoragePluginConfig storageConfig, TurboParquetFormatConfig config) {
    this.name = name == null ? DEFAULT_NAME : name;
    this.context = context;
    this.fsConf = fsConf;
    this.storageConfig = storageConfig;
    this.config = config == null ? new TurboParquetFormatConfig() : config;
    this.matcher = new Matcher(this);
  }

  /**
   * Matches {@code .parquet} files, at a priority below the built-in parquet format's: where both
   * formats are registered (the bootstrap file registers this one on dfs, s3 and cp), a plain query
   * keeps Drill's reader and {@code table(...(type => 'turbo-parquet'))} selects ours.
   */
  private static final class Matcher extends BasicFormatMatcher {
    Matcher(TurboParquetFormatPlugin plugin) {
      super(plugin, PATTERNS, MAGIC);
    }

    @Override
    public int priority() {
      return MEDIUM_PRIORITY - 1;
    }
  }

  @Override
  public boolean supportsRead() {
    return true;
  }

  @Override
  public boolean supportsWrite() {
    return false;
  }

  @Override
  public boolean supportsAutoPartitioning() {
    return false;
  }

  @Override
  public FormatMatcher getMatcher() {
    return matcher;
  }

  @Override
  public AbstractWriter getWriter(PhysicalOperator child, String location, List<String> partitionColumns) {
    throw new UnsupportedOperationException("turbo-parquet is read-only; write with the parquet format");
  }

  @Override
  public AbstractGroupScan getGroupScan(String userName, FileSelection selection, List<SchemaPath> columns)
      throws IOException {
    return getGroupScan(userName, selection, columns, (OptionManager) null, null);
  }

  @Override
  public AbstractGroupScan getGroupScan(String userName, FileSelection selection, List<SchemaPath> columns,
      OptionManager options) throws IOException {
    return getGroupScan(userName, selection, columns, options, null);
  }

  @Override
  public AbstractGroupScan getGroupScan(String userName, FileSelection selection, List<SchemaPath> columns,
      MetadataProviderManager metadataProviderManager) throws IOException {
    return getGroupScan(userName, selection, columns, null, metadataProviderManager);
  }

  @Override
  public AbstractGroupScan getGroupScan(String userName, FileSelection selection, List<SchemaPath> columns,
      OptionManager options, MetadataProviderManager metadataProviderManager) throws IOException {
    // Drill's metadata layer (footers, statistics, pruning) reads the files with its own options.
    ParquetReaderConfig readerConfig = ParquetReaderConfig.builder().withOptions(options).build();
    TurboParquetGroupScan scan;
    try {
      scan = new TurboParquetGroupScan(userName, selection, this, columns, readerConfig, metadataProviderManager);
    } catch (UserException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw footerError(userName, selection, e);
    }
    if (scan.getEntries().isEmpty()) {
      return new SchemalessScan(userName, scan.getSelectionRoot());
    }
    return scan;
  }

  /**
   * Drill's metadata layer failed on a footer (a corrupt or truncated file) with an error that may not
   * name the file: our footer decoder reads the selection's files again to find the first it rejects
   * and say why; if it rejects none, Drill's error is reported against the selection.
   */
  private UserException footerError(String userName, FileSelection selection, Exception drills) {
    try {
      FileSystem fs = ImpersonationUtil.createFileSystem(ImpersonationUtil.resolveUserName(userName), fsConf);
      for (Path selected : selection.getFiles()) {
        RemoteIterator<LocatedFileStatus> files = fs.listFiles(selected, true);
        while (files.hasNext()) {
          Path file = files.next().getPath();
          if (!PATTERNS.get(0).matcher(file.getName()).matches()) {
            continue;
          }
          try (FSDataInputStream in = fs.open(file)) {
            FooterReader.read(in, file.toString(), fs.getFileStatus(file).getLen());
          } catch (IOException | RuntimeException e) {
            return UserException.dataReadError(e)
                .message("turbo-parquet could not read the footer of %s: %s", file, e.getMessage())
                .addContext("File", file.toString())
                .build(logger);
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      drills.addSuppressed(e);
    }
    return UserException.dataReadError(drills)
        .message("Drill's Parquet metadata (parquet-java, which plans turbo-parquet scans) could not read the "
            + "footers of %s: %s", selection.getSelectionRoot(), drills)
        .addContext("Files", selection.getFiles().toString())
        .build(logger);
  }

  @Override
  public boolean supportsStatistics() {
    return false;
  }

  @Override
  public TableStatistics readStatistics(FileSystem fs, Path statsTablePath) {
    throw new UnsupportedOperationException("turbo-parquet does not read table statistics yet");
  }

  @Override
  public void writeStatistics(TableStatistics statistics, FileSystem fs, Path statsTablePath) {
    throw new UnsupportedOperationException("turbo-parquet does not write table statistics");
  }

  @Override
  public TurboParquetFormatConfig getConfig() {
    return config;
  }

  @Override
  public StoragePluginConfig getStorageConfig() {
    return storageConfig;
  }

  @Override
  public Configuration getFsConf() {
    return fsConf;
  }

  @Override
  public DrillbitContext getContext() {
    return context;
  }

  @Override
  public String getName() {
    return name;
  }
}
