package io.turboparquet.drill;

import com.google.common.collect.LinkedListMultimap;
import com.google.common.collect.Multimap;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.drill.common.exceptions.UserException;
import org.apache.drill.common.util.DrillVersionInfo;
import org.apache.drill.exec.metastore.MetadataProviderManager;
import org.apache.drill.exec.metastore.store.parquet.ParquetTableMetadataProvider;
import org.apache.drill.exec.metastore.store.parquet.ParquetTableMetadataProviderBuilder;
import org.apache.drill.exec.metastore.store.parquet.ParquetTableMetadataProviderImpl;
import org.apache.drill.exec.record.metadata.TupleMetadata;
import org.apache.drill.exec.store.TimedCallable;
import org.apache.drill.exec.store.dfs.DrillFileSystem;
import org.apache.drill.exec.store.dfs.FileSelection;
import org.apache.drill.exec.store.dfs.ReadEntryWithPath;
import org.apache.drill.exec.store.parquet.BaseParquetMetadataProvider;
import org.apache.drill.exec.store.parquet.ParquetReaderConfig;
import org.apache.drill.exec.store.parquet.metadata.Metadata;
import org.apache.drill.exec.store.parquet.metadata.MetadataVersion;
import org.apache.drill.exec.store.parquet.metadata.Metadata_V4;
import org.apache.drill.exec.util.DrillFileSystemUtil;
import org.apache.drill.exec.util.ImpersonationUtil;
import org.apache.drill.metastore.metadata.RowGroupMetadata;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The table metadata a turbo-parquet group scan plans with: Drill's own Parquet metadata
 * ({@link Metadata_V4}, what Drill's {@code Metadata.getParquetFileMetadata_v4} makes of each file's
 * footer, so statistics, types, row counts and every planning decision are the built-in reader's),
 * made directly from the footers our decoder reads through the drillbit's {@link FooterCache}
 * ({@link DrillFileMetadata}). It lists files and reads footers as Drill's {@code ParquetTableMetadataProviderImpl}
 * does when no metadata cache file is present; where one is, the {@link Builder} hands the table
 * to Drill's provider, which reads that file and no footers.
 */
final class TurboParquetMetadataProvider extends BaseParquetMetadataProvider
    implements ParquetTableMetadataProvider {
  private static final Logger logger = LoggerFactory.getLogger(TurboParquetMetadataProvider.class);
  /** Footers read at once, as Drill's Metadata reads them. */
  private static final int PARALLELISM = 16;

  private final DrillFileSystem fs;
  private final FooterCache footers;
  /** The plugin's Hadoop configuration: its crypto factory decrypts footers. */
  private final org.apache.hadoop.conf.Configuration fsConf;
  /** How the format properties type columns in planning. */
  private final DrillFileMetadata.Typing typing;
  private final Path selectionRoot;
  private Multimap<Path, RowGroupMetadata> rowGroups;
  /** The row groups of the provider this one reuses, when Drill's rule lets it reuse them. */
  private Multimap<Path, RowGroupMetadata> reusedRowGroups;

  private TurboParquetMetadataProvider(Builder builder) throws IOException {
    super(builder);
    this.fs = builder.fs;
    this.footers = builder.footers;
    this.fsConf = builder.fsConf;
    this.typing = builder.typing;
    BaseParquetMetadataProvider source =
        (BaseParquetMetadataProvider) builder.metadataProviderManager().getTableMetadataProvider();
    if (builder.entries() != null) {
      this.selectionRoot = builder.selectionRoot(); // a plan read back from JSON
    } else {
      this.selectionRoot = builder.selection().getSelectionRoot();
      for (Path file : builder.selection().getFiles()) {
        entries.add(new ReadEntryWithPath(file));
      }
    }
    init(reusable(source));
    // Kept for the group scans made from this one (pruning, filter pushdown), as Drill's provider does.
    if (source == null || source.getRowGroupsMeta().size() < getRowGroupsMeta().size()) {
      builder.metadataProviderManager().setTableMetadataProvider(this);
    }
  }

  @Override
  public boolean isUsedMetadataCache() {
    return false;
  }

  @Override
  public Path getSelectionRoot() {
    return selectionRoot;
  }

  /**
   * Drill's row-group metadata of the table's files: those of the provider this one reuses, else
   * built by {@link RowGroupsMetadata} (once per column list, where Drill builds them once per row group).
   */
  @Override
  public Multimap<Path, RowGroupMetadata> getRowGroupsMetadataMap() {
    if (rowGroups == null) {
      if (reusedRowGroups != null) {
        List<Path> files = getLocations();
        rowGroups = LinkedListMultimap.create();
        reusedRowGroups.entries().stream().filter(e -> files.contains(e.getKey()))
            .forEach(e -> rowGroups.put(e.getKey(), e.getValue()));
      } else {
        rowGroups = RowGroupsMetadata.of(parquetTableMetadata);
      }
    }
    return rowGroups;
  }

  /**
   * The provider to hand Drill's {@code init} as the one to reuse. Drill reuses a provider's row
   * groups when they cover this table's files, and otherwise builds all metadata anew; it checks
   * that in a field our providers leave empty (they keep row groups in their own), so for one of
   * ours the check is made here, with Drill's rule, and the provider is passed only where it holds.
   */
  private BaseParquetMetadataProvider reusable(BaseParquetMetadataProvider source) throws IOException {
    if (!(source instanceof TurboParquetMetadataProvider ours)) {
      return source;
    }
    initInternal(); // this table's files, for the check; init() does not read them again
    if (ours.rowGroups != null && ours.rowGroups.keySet().containsAll(getLocations())) {
      reusedRowGroups = ours.rowGroups;
      return ours;
    }
    return null;
  }

  @Override
  protected void initInternal() throws IOException {
    if (parquetTableMetadata != null) {
      return; // read already, by reusable()
    }
    // Footers are read as the process user, file lists as the query user, as by Drill's provider.
    try (FileSystem processUserFs =
        ImpersonationUtil.createFileSystem(ImpersonationUtil.getProcessUserName(), fs.getConf())) {
      List<FileStatus> files = new ArrayList<>();
      if (entries.size() == 1) {
        Path p = Path.getPathWithoutSchemeAndAuthority(entries.get(0).getPath());
        FileStatus status = processUserFs.getFileStatus(p);
        files.addAll(status.isFile() ? List.of(status) : DrillFileSystemUtil.listFiles(processUserFs, p, true));
      } else {
        for (ReadEntryWithPath entry : entries) {
          files.addAll(DrillFileSystemUtil.listFiles(fs, Path.getPathWithoutSchemeAndAuthority(entry.getPath()), true));
        }
      }
      parquetTableMetadata = tableMetadata(files, processUserFs);
    }
  }

  /** What Drill's Metadata.getParquetTableMetadata makes of the files, from our footers. */
  private Metadata_V4.ParquetTableMetadata_v4 tableMetadata(List<FileStatus> files, FileSystem processUserFs)
      throws IOException {
    Metadata_V4.ParquetTableMetadata_v4 table = new Metadata_V4.ParquetTableMetadata_v4(
        new Metadata_V4.MetadataSummary(MetadataVersion.Constants.SUPPORTED_VERSIONS.last().toString(),
            DrillVersionInfo.getVersion(), new ArrayList<>(), true));
    List<TimedCallable<Metadata_V4.ParquetFileAndRowCountMetadata>> tasks = new ArrayList<>(files.size());
    for (FileStatus file : files) {
      tasks.add(new FileTask(table, file, processUserFs));
    }
    List<Metadata_V4.ParquetFileMetadata_v4> fileMetadata = new ArrayList<>(files.size());
    if (!tasks.isEmpty()) {
      try {
        for (Metadata_V4.ParquetFileAndRowCountMetadata f :
            TimedCallable.run("Fetch parquet metadata", logger, tasks, PARALLELISM)) {
          fileMetadata.add(f.getFileMetadata());
        }
      } catch (IOException e) {
        if (e.getCause() instanceof UserException user) {
          throw user; // a footer's error, which names its file
        }
        throw e;
      }
    }
    table.assignFiles(fileMetadata);
    return table;
  }

  /** One file's metadata ({@link DrillFileMetadata}), both it and the footer cached by the drillbit's {@link FooterCache}. */
  private final class FileTask extends TimedCallable<Metadata_V4.ParquetFileAndRowCountMetadata> {
    private final Metadata_V4.ParquetTableMetadata_v4 table;
    private final FileStatus file;
    private final FileSystem processUserFs;

    FileTask(Metadata_V4.ParquetTableMetadata_v4 table, FileStatus file, FileSystem processUserFs) {
      this.table = table;
      this.file = file;
      this.processUserFs = processUserFs;
    }

    @Override
    protected Metadata_V4.ParquetFileAndRowCountMetadata runInner() throws Exception {
      DrillFileMetadata metadata;
      try {
        metadata = footers.derived(processUserFs, file, fsConf, List.of(readerConfig, typing),
            footer -> DrillFileMetadata.of(footer, file, processUserFs, readerConfig, typing));
      } catch (IOException | RuntimeException e) {
        throw FooterCache.unreadable(file.getPath(), e);
      }
      // What Drill's Metadata.getParquetFileMetadata_v4 does with its collector's result.
      table.getColumnTypeInfoMap().putAll(metadata.types());
      return metadata.file();
    }

    @Override
    public String toString() {
      return file.getPath().toString();
    }
  }

  /**
   * Builds our provider, or Drill's where the table has a metadata cache file (Drill reads that
   * file, not footers; Drill's refresh command writes it, with parquet-java's footers).
   */
  static final class Builder extends BaseParquetMetadataProvider.Builder<Builder>
      implements ParquetTableMetadataProviderBuilder<Builder> {
    private final FooterCache footers;
    private final org.apache.hadoop.conf.Configuration fsConf;
    private final DrillFileMetadata.Typing typing;
    private final ParquetTableMetadataProviderImpl.Builder drills;
    private DrillFileSystem fs;
    private Path cacheFileRoot;

    Builder(MetadataProviderManager source, FooterCache footers, org.apache.hadoop.conf.Configuration fsConf,
        DrillFileMetadata.Typing typing) {
      super(source);
      this.footers = footers;
      this.fsConf = fsConf;
      this.typing = typing;
      this.drills = new ParquetTableMetadataProviderImpl.Builder(source);
    }

    // Every setting goes to Drill's builder too, in case the table turns out to have a metadata cache.

    @Override
    public Builder withEntries(List<ReadEntryWithPath> entries) {
      drills.withEntries(entries);
      return super.withEntries(entries);
    }

    @Override
    public Builder withSelectionRoot(Path selectionRoot) {
      drills.withSelectionRoot(selectionRoot);
      return super.withSelectionRoot(selectionRoot);
    }

    @Override
    public Builder withReaderConfig(ParquetReaderConfig readerConfig) {
      drills.withReaderConfig(readerConfig);
      return super.withReaderConfig(readerConfig);
    }

    @Override
    public Builder withSelection(FileSelection selection) {
      drills.withSelection(selection);
      return super.withSelection(selection);
    }

    @Override
    public Builder withSchema(TupleMetadata schema) {
      drills.withSchema(schema);
      return super.withSchema(schema);
    }

    @Override
    public Builder withCacheFileRoot(Path cacheFileRoot) {
      drills.withCacheFileRoot(cacheFileRoot);
      this.cacheFileRoot = cacheFileRoot;
      return this;
    }

    @Override
    public Builder withFileSystem(DrillFileSystem fs) {
      drills.withFileSystem(fs);
      this.fs = fs;
      return this;
    }

    @Override
    public Builder withCorrectCorruptedDates(boolean autoCorrectCorruptedDates) {
      drills.withCorrectCorruptedDates(autoCorrectCorruptedDates); // only Drill's cache-file path uses it
      return this;
    }

    @Override
    protected Builder self() {
      return this;
    }

    @Override
    public ParquetTableMetadataProvider build() throws IOException {
      return hasMetadataCache() ? drills.build() : new TurboParquetMetadataProvider(this);
    }

    /** Whether the directory Drill's provider would look in holds any of Drill's metadata cache files. */
    private boolean hasMetadataCache() throws IOException {
      Path root = cacheFileRoot != null ? cacheFileRoot
          : selection() != null ? selection().getSelectionRoot() : selectionRoot();
      if (root == null) {
        return false;
      }
      root = Path.getPathWithoutSchemeAndAuthority(root);
      if (!fs.isDirectory(root)) {
        return false;
      }
      for (String name : Metadata.CURRENT_METADATA_FILENAMES) {
        if (fs.exists(new Path(root, name))) {
          return true;
        }
      }
      for (String name : Metadata.OLD_METADATA_FILENAMES) {
        if (fs.exists(new Path(root, name))) {
          return true;
        }
      }
      return fs.exists(new Path(root, Metadata.METADATA_DIRECTORIES_FILENAME));
    }
  }
}
