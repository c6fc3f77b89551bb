package io.turboparquet.drill;

import io.turboparquet.format.FooterReader;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptRule;
import org.apache.drill.common.exceptions.UserException;
import org.apache.drill.common.expression.SchemaPath;
import org.apache.drill.common.logical.StoragePluginConfig;
import org.apache.drill.exec.metastore.MetadataProviderManager;
import org.apache.drill.exec.physical.base.AbstractFileGroupScan;
import org.apache.drill.exec.physical.base.SchemalessScan;
import org.apache.drill.exec.planner.PlannerPhase;
import org.apache.drill.exec.planner.logical.DrillTable;
import org.apache.drill.exec.server.DrillbitContext;
import org.apache.drill.exec.server.options.OptionManager;
import org.apache.drill.exec.store.SchemaConfig;
import org.apache.drill.exec.store.dfs.DrillFileSystem;
import org.apache.drill.exec.store.dfs.FileSelection;
import org.apache.drill.exec.store.dfs.FileSystemPlugin;
import org.apache.drill.exec.store.dfs.FormatMatcher;
import org.apache.drill.exec.store.dfs.FormatPlugin;
import org.apache.drill.exec.store.parquet.ParquetFormatPlugin;
import org.apache.drill.exec.store.parquet.ParquetReaderConfig;
import org.apache.drill.exec.util.ImpersonationUtil;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drill format plugin for {@code turbo-parquet}: Drill plans the scan (row-group parallelism,
 * projection, filter and partition pruning through {@link TurboParquetGroupScan}, which reuses
 * Drill's Parquet metadata), and our scan core reads the row groups. Everything else is Drill's
 * Parquet format, inherited: writing (CTAS through Drill's Parquet writer), table statistics, and
 * the matcher that finds tables and their metadata cache. So a {@code "parquet"} format entry
 * whose type is {@code turbo-parquet} serves every Parquet feature of Drill, reading through us.
 */
public final class TurboParquetFormatPlugin extends ParquetFormatPlugin {
  private static final Logger logger = LoggerFactory.getLogger(TurboParquetFormatPlugin.class);

  static {
    ScanMetric.registerNames(TurboParquetRowGroupScan.OPERATOR_TYPE);
  }

  private final TurboParquetFormatConfig config;
  private final FormatMatcher matcher;

  /** The constructor Drill's FormatCreator looks for. */
  public TurboParquetFormatPlugin(String name, DrillbitContext context, Configuration fsConf,
      StoragePluginConfig storageConfig, TurboParquetFormatConfig config) {
    super(name == null ? TurboParquetFormatConfig.NAME : name, context, fsConf, storageConfig,
        config == null ? new TurboParquetFormatConfig() : config);
    this.config = (TurboParquetFormatConfig) super.getConfig();
    this.matcher = new LowerPriority(super.getMatcher());
  }

  /**
   * Drill's Parquet matcher (it finds directories, their metadata cache and files by magic), one
   * priority lower: where a plugin registers both this format and the built-in one, plain queries
   * keep the built-in reader; where this format is the plugin's {@code "parquet"} entry (the switch)
   * it is the only Parquet matcher there is.
   */
  private static final class LowerPriority extends FormatMatcher {
    private final FormatMatcher parquet;

    LowerPriority(FormatMatcher parquet) {
      this.parquet = parquet;
    }

    @Override
    public boolean supportDirectoryReads() {
      return parquet.supportDirectoryReads();
    }

    @Override
    public DrillTable isReadable(DrillFileSystem fs, FileSelection selection, FileSystemPlugin fsPlugin,
        String storageEngineName, SchemaConfig schemaConfig) throws IOException {
      return parquet.isReadable(fs, selection, fsPlugin, storageEngineName, schemaConfig);
    }

    @Override
    public boolean isFileReadable(DrillFileSystem fs, FileStatus status) throws IOException {
      return parquet.isFileReadable(fs, status);
    }

    @Override
    public FormatPlugin getFormatPlugin() {
      return parquet.getFormatPlugin();
    }

    @Override
    public int priority() {
      return parquet.priority() - 1;
    }
  }

  @Override
  public FormatMatcher getMatcher() {
    return matcher;
  }

  /** Drill's Parquet plugin drops the metastore's provider on this path; it must reach the group scan. */
  @Override
  public AbstractFileGroupScan getGroupScan(String userName, FileSelection selection, List<SchemaPath> columns,
      MetadataProviderManager metadataProviderManager) throws IOException {
    return getGroupScan(userName, selection, columns, null, metadataProviderManager);
  }

  @Override
  public AbstractFileGroupScan getGroupScan(String userName, FileSelection selection, List<SchemaPath> columns,
      OptionManager options, MetadataProviderManager metadataProviderManager) throws IOException {
    // Drill's metadata layer (statistics, pruning) reads footers as the entry and the session say.
    ParquetReaderConfig readerConfig = ParquetReaderConfig.builder().withFormatConfig(config).withOptions(options)
        .build();
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
      FileSystem fs = ImpersonationUtil.createFileSystem(ImpersonationUtil.resolveUserName(userName), getFsConf());
      for (Path selected : selection.getFiles()) {
        RemoteIterator<LocatedFileStatus> files = fs.listFiles(selected, true);
        while (files.hasNext()) {
          Path file = files.next().getPath();
          if (file.getName().startsWith(".") || file.getName().startsWith("_")) { // Drill's hidden files
            continue;
          }
          try (FSDataInputStream in = fs.open(file)) {
            FooterReader.read(in, file.toString(), fs.getFileStatus(file).getLen(),
                io.turboparquet.format.FooterOptions.DEFAULT,
                io.turboparquet.format.crypto.DecryptionKeys.fromHadoop(getFsConf()).forFile(file));
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
  public TurboParquetFormatConfig getConfig() {
    return config;
  }

  /** ANALYZE ... REFRESH METADATA from the footers (Drill's own rule for this takes only its group scan). */
  @Override
  public Set<? extends RelOptRule> getOptimizerRules(PlannerPhase phase) {
    return phase == PlannerPhase.PHYSICAL ? Set.of(AnalyzeFromFootersRule.INSTANCE) : Set.of();
  }

}
