package io.turboparquet.drill;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonTypeName;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.apache.drill.common.expression.LogicalExpression;
import org.apache.drill.common.expression.SchemaPath;
import org.apache.drill.common.expression.ValueExpressions;
import org.apache.drill.common.logical.FormatPluginConfig;
import org.apache.drill.common.logical.StoragePluginConfig;
import org.apache.drill.exec.metastore.MetadataProviderManager;
import org.apache.drill.exec.metastore.MetastoreMetadataProviderManager;
import org.apache.drill.exec.metastore.analyze.AnalyzeInfoProvider;
import org.apache.drill.exec.metastore.analyze.AnalyzeParquetInfoProvider;
import org.apache.drill.exec.metastore.store.parquet.MetastoreParquetTableMetadataProvider;
import org.apache.drill.exec.metastore.store.FileSystemMetadataProviderManager;
import org.apache.drill.exec.metastore.store.parquet.ParquetTableMetadataProvider;
import org.apache.drill.exec.metastore.store.parquet.ParquetTableMetadataProviderBuilder;
import org.apache.drill.exec.physical.base.GroupScan;
import org.apache.drill.exec.physical.base.PhysicalOperator;
import org.apache.drill.exec.proto.CoordinationProtos.DrillbitEndpoint;
import org.apache.drill.exec.record.metadata.TupleMetadata;
import org.apache.drill.exec.store.ColumnExplorer;
import org.apache.drill.exec.store.StoragePluginRegistry;
import org.apache.drill.exec.store.dfs.DrillFileSystem;
import org.apache.drill.exec.store.dfs.FileSelection;
import org.apache.drill.exec.store.dfs.ReadEntryWithPath;
import org.apache.drill.exec.store.parquet.AbstractParquetGroupScan;
import org.apache.drill.exec.store.parquet.ParquetReaderConfig;
import org.apache.drill.exec.store.parquet.RowGroupReadEntry;
import org.apache.drill.exec.util.ImpersonationUtil;
import org.apache.drill.metastore.metadata.LocationProvider;
import org.apache.hadoop.fs.Path;

/**
 * The planning side of a turbo-parquet scan. Every planning decision comes from Drill's
 * {@link AbstractParquetGroupScan} (row-group assignment to fragments with affinity, projection,
 * filter and limit pushdown, pruning); the footers it decides on are our decoder's, from the
 * drillbit's {@link FooterCache} ({@link TurboParquetMetadataProvider}), or Drill's metadata cache
 * or Metastore where the table has one; the specific scan it hands each fragment is ours. Mirrors Drill's own ParquetGroupScan, whose copy constructors are private (so it cannot
 * be extended), metadata cache and Drill Metastore included.
 *
 * <p>Dates of files Drill wrote before 1.9 are corrected as Drill's own scan corrects them (the
 * format's {@code autoCorrectCorruptDates}): in Drill's statistics and metadata cache here, and in
 * the values our reader returns ({@link DateCorrection}), so that pruning judges what is read.
 */
@JsonTypeName("turbo-parquet-scan")
public final class TurboParquetGroupScan extends AbstractParquetGroupScan {
  private final TurboParquetFormatPlugin formatPlugin;
  private final Path selectionRoot;
  private final Path cacheFileRoot;
  private final boolean usedMetadataCache;
  /**
   * The rows a LIMIT directly over this scan needs (-1: no such limit). Each row group's reader
   * then reads at most that many of its first rows, and with a page index only their pages: Drill
   * stops the scan once its Limit has the rows, but our reads of a row group start whole.
   */
  private long rowLimit = -1;

  @JsonCreator
  public TurboParquetGroupScan(@JacksonInject StoragePluginRegistry registry,
      @JsonProperty("userName") String userName,
      @JsonProperty("entries") List<ReadEntryWithPath> entries,
      @JsonProperty("storage") StoragePluginConfig storageConfig,
      @JsonProperty("format") FormatPluginConfig formatConfig,
      @JsonProperty("columns") List<SchemaPath> columns,
      @JsonProperty("selectionRoot") Path selectionRoot,
      @JsonProperty("cacheFileRoot") Path cacheFileRoot,
      @JsonProperty("readerConfig") ParquetReaderConfig readerConfig,
      @JsonProperty("filter") LogicalExpression filter,
      @JsonProperty("schema") TupleMetadata schema) throws IOException {
    super(ImpersonationUtil.resolveUserName(userName), columns, entries, readerConfig, filter);
    Objects.requireNonNull(storageConfig, "storage");
    Objects.requireNonNull(formatConfig, "format");
    this.cacheFileRoot = cacheFileRoot;
    this.formatPlugin = registry.resolveFormat(storageConfig, formatConfig, TurboParquetFormatPlugin.class);
    DrillFileSystem fs = ImpersonationUtil.createFileSystem(ImpersonationUtil.resolveUserName(userName),
        formatPlugin.getFsConf());
    this.metadataProvider = defaultTableMetadataProviderBuilder(new FileSystemMetadataProviderManager())
        .withEntries(this.entries)
        .withSelectionRoot(selectionRoot)
        .withCacheFileRoot(cacheFileRoot)
        .withReaderConfig(readerConfig)
        .withFileSystem(fs)
        .withCorrectCorruptedDates(formatPlugin.getConfig().isAutoCorrectCorruptDates())
        .withSchema(schema)
        .build();
    ParquetTableMetadataProvider provider = (ParquetTableMetadataProvider) this.metadataProvider;
    this.selectionRoot = provider.getSelectionRoot();
    this.usedMetadataCache = provider.isUsedMetadataCache();
    this.fileSet = provider.getFileSet();
    init();
  }

  public TurboParquetGroupScan(String userName, FileSelection selection, TurboParquetFormatPlugin formatPlugin,
      List<SchemaPath> columns, ParquetReaderConfig readerConfig, MetadataProviderManager metadataProviderManager)
      throws IOException {
    super(userName, columns, new ArrayList<>(), readerConfig, ValueExpressions.BooleanExpression.TRUE);
    this.formatPlugin = formatPlugin;
    this.cacheFileRoot = selection.getCacheFileRoot();
    DrillFileSystem fs = ImpersonationUtil.createFileSystem(ImpersonationUtil.resolveUserName(userName),
        formatPlugin.getFsConf());
    MetadataProviderManager source = metadataProviderManager == null
        ? new FileSystemMetadataProviderManager() : metadataProviderManager;
    ParquetTableMetadataProvider provider = tableMetadataProviderBuilder(source)
        .withSelection(selection)
        .withReaderConfig(readerConfig)
        .withFileSystem(fs)
        .withCorrectCorruptedDates(formatPlugin.getConfig().isAutoCorrectCorruptDates())
        .build();
    this.usedMetadataCache = provider.isUsedMetadataCache();
    this.usedMetastore = source.usesMetastore();
    this.selectionRoot = provider.getSelectionRoot();
    this.entries = provider.getEntries();
    this.fileSet = provider.getFileSet();
    this.metadataProvider = provider;
    init();
    checkMetadataConsistency(selection, formatPlugin.getFsConf());
  }

  private TurboParquetGroupScan(TurboParquetGroupScan that, FileSelection selection) {
    super(that);
    this.formatPlugin = that.formatPlugin;
    this.selectionRoot = that.selectionRoot;
    this.cacheFileRoot = selection == null ? that.cacheFileRoot : selection.getCacheFileRoot();
    this.usedMetadataCache = that.usedMetadataCache;
    this.rowLimit = that.rowLimit;
  }

  @JsonProperty("format")
  public TurboParquetFormatConfig getFormatConfig() {
    return formatPlugin.getConfig();
  }

  @JsonProperty("storage")
  public StoragePluginConfig getEngineConfig() {
    return formatPlugin.getStorageConfig();
  }

  @Override
  @JsonProperty
  public Path getSelectionRoot() {
    return selectionRoot;
  }

  @JsonProperty
  public Path getCacheFileRoot() {
    return cacheFileRoot;
  }

  /** The format plugin (its file system configuration) this scan reads with. */
  TurboParquetFormatPlugin formatPlugin() {
    return formatPlugin;
  }

  @Override
  public TurboParquetRowGroupScan getSpecificScan(int minorFragmentId) {
    List<RowGroupReadEntry> entries = getReadEntries(minorFragmentId);
    if (rowLimit >= 0) {
      entries = entries.stream().map(e -> new RowGroupReadEntry(e.getPath(), e.getStart(), e.getLength(),
          e.getRowGroupIndex(), Math.min(e.getNumRecordsToRead(), rowLimit))).toList();
    }
    return new TurboParquetRowGroupScan(getUserName(), formatPlugin, entries, columns, readerConfig, selectionRoot,
        filter, tableMetadata == null ? null : tableMetadata.getSchema());
  }

  /**
   * Drill's limit pushdown (fewer row groups, when that leaves out some), and the limit itself for
   * the readers; null when neither changes, so that the rule stops firing.
   */
  @Override
  public GroupScan applyLimit(int maxRecords) {
    int rows = Math.max(maxRecords, 1); // as Drill's: LIMIT 0 still reads one row group, for the schema
    GroupScan fewer = super.applyLimit(rows);
    TurboParquetGroupScan scan = fewer != null ? (TurboParquetGroupScan) fewer : this;
    if (scan.rowLimit >= 0 && scan.rowLimit <= rows) {
      return fewer;
    }
    TurboParquetGroupScan limited = new TurboParquetGroupScan(scan, null);
    limited.rowLimit = rows;
    return limited;
  }

  @Override
  public PhysicalOperator getNewWithChildren(List<PhysicalOperator> children) {
    if (!children.isEmpty()) {
      throw new IllegalArgumentException("a scan has no children");
    }
    return new TurboParquetGroupScan(this, null);
  }

  @Override
  public GroupScan clone(List<SchemaPath> columns) {
    TurboParquetGroupScan scan = new TurboParquetGroupScan(this, null);
    scan.columns = columns;
    return scan;
  }

  @Override
  public TurboParquetGroupScan clone(FileSelection selection) throws IOException {
    TurboParquetGroupScan scan = new TurboParquetGroupScan(this, selection);
    scan.modifyFileSelection(selection);
    scan.init();
    return scan;
  }

  @Override
  public String toString() {
    String filterString = getFilterString();
    // The built-in scan's fields, in its order: tools and tests read plans by them.
    return "TurboParquetGroupScan [entries=" + entries + ", selectionRoot=" + selectionRoot
        + ", numFiles=" + getEntries().size() + ", numRowGroups=" + getRowGroupsMetadata().size()
        + ", usedMetadataFile=" + usedMetadataCache + ", usedMetastore=" + usedMetastore
        + (filterString.isEmpty() ? "" : ", filter=" + filterString)
        + (usedMetadataCache ? ", cacheFileRoot=" + Path.getPathWithoutSchemeAndAuthority(
            cacheFileRoot == null ? selectionRoot : cacheFileRoot) : "")
        + ", columns=" + columns + "]";
  }

  @Override
  protected AbstractParquetGroupScan cloneWithFileSelection(Collection<Path> filePaths) throws IOException {
    FileSelection selection = new FileSelection(null, new ArrayList<>(filePaths), getSelectionRoot(), cacheFileRoot,
        false);
    return clone(selection);
  }

  @Override
  protected RowGroupScanFilterer<?> getFilterer() {
    return new Filterer(this);
  }

  @Override
  protected Collection<DrillbitEndpoint> getDrillbits() {
    return formatPlugin.getContext().getBits();
  }

  @Override
  protected boolean supportsFileImplicitColumns() {
    return selectionRoot != null;
  }

  @Override
  protected List<String> getPartitionValues(LocationProvider locationProvider) {
    return ColumnExplorer.listPartitionValues(locationProvider.getPath(), selectionRoot, false);
  }

  @Override
  protected ParquetTableMetadataProviderBuilder<?> defaultTableMetadataProviderBuilder(
      MetadataProviderManager source) {
    return new TurboParquetMetadataProvider.Builder(source, FooterCache.of(formatPlugin.getContext()),
        formatPlugin.getFsConf(), DrillFileMetadata.Typing.of(formatPlugin.getConfig()));
  }

  @Override
  protected ParquetTableMetadataProviderBuilder<?> tableMetadataProviderBuilder(MetadataProviderManager source) {
    return source.usesMetastore()
        ? new MetastoreParquetTableMetadataProvider.Builder((MetastoreMetadataProviderManager) source)
        : defaultTableMetadataProviderBuilder(source);
  }

  @Override
  public AnalyzeInfoProvider getAnalyzeInfoProvider() {
    return AnalyzeInfo.INSTANCE;
  }

  /** Drill's ANALYZE for Parquet tables, which takes only its own group scan's class by name. */
  private static final class AnalyzeInfo extends AnalyzeParquetInfoProvider {
    static final AnalyzeInfo INSTANCE = new AnalyzeInfo();

    @Override
    public boolean supportsGroupScan(GroupScan groupScan) {
      return groupScan instanceof TurboParquetGroupScan;
    }
  }

  private static final class Filterer extends RowGroupScanFilterer<Filterer> {
    Filterer(TurboParquetGroupScan source) {
      super(source);
    }

    @Override
    protected AbstractParquetGroupScan getNewScan() {
      return new TurboParquetGroupScan((TurboParquetGroupScan) source, null);
    }

    @Override
    protected Filterer self() {
      return this;
    }
  }
}
