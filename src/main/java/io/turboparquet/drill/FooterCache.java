package io.turboparquet.drill;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.cache.RemovalNotification;
import com.google.common.util.concurrent.ExecutionError;
import com.google.common.util.concurrent.UncheckedExecutionException;
import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.FooterOptions;
import io.turboparquet.format.FooterReader;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.io.Failures;
import io.turboparquet.io.FileOpener;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.LongAdder;
import org.apache.drill.common.exceptions.UserException;
import org.apache.drill.exec.ExecConstants;
import org.apache.drill.exec.server.DrillbitContext;
import org.apache.drill.exec.store.parquet.ParquetRecordWriter;
import io.turboparquet.format.crypto.DecryptionKeys;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.parquet.crypto.DecryptionPropertiesFactory;
import org.apache.parquet.crypto.FileDecryptionProperties;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsAction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The drillbit's decoded footers, shared by planning (group scan metadata), the fragments' run-time
 * pruning and their readers, so that a query decodes each footer at most once per drillbit, and
 * the next query over the same files none. A footer is decoded whole, with every column's
 * statistics (what Drill's planning collects), but of its key-value metadata only what Drill reads
 * ({@link #DRILL_KEYS}). Entries are keyed by path, length and modification
 * time, so a rewritten file is decoded again (and its older version's footer dropped); a failed
 * decode is not cached. Bounded by the estimated heap bytes of the decoded footers
 * ({@value #MAX_BYTES} in the drillbit's configuration: {@code auto}, an eighth of the heap, or a
 * size; 0 turns caching off), least recently used first out.
 * With impersonation on, a query's user must be allowed to read a file for its cached footer.
 *
 * <p>Beside each footer the cache keeps one thing derived from it ({@link #derived}): Drill's
 * planning metadata of the file, which costs planning more than the decode itself and is the same
 * for every query with the same reader settings. Its heap is counted in the bound from the start.
 */
final class FooterCache {
  static final String MAX_BYTES = "turbo-parquet.footer-cache.max-bytes";
  private static final Logger logger = LoggerFactory.getLogger(FooterCache.class);
  /**
   * The keys Drill reads (its corrupt-date check, {@code ParquetReaderUtility.detectCorruptDates}).
   * Other writers' values are large and of no use to Drill: pyarrow's {@code ARROW:schema} and
   * pandas' column list take tens of KB a file for a thousand columns.
   */
  static final Set<String> DRILL_KEYS = Set.of(ParquetRecordWriter.DRILL_VERSION_PROPERTY,
      ParquetRecordWriter.WRITER_VERSION_PROPERTY, "is.date.correct");
  /** What a cached footer holds. */
  static final FooterOptions OPTIONS = FooterOptions.DEFAULT
      .withStatistics(FooterOptions.ColumnSelector.ALL).withKeyValues(DRILL_KEYS::contains);
  private static final Cache<DrillbitContext, FooterCache> PER_DRILLBIT =
      CacheBuilder.newBuilder().weakKeys().build();

  /**
   * A file version under a decryption setting: a footer decoded with keys carries them (its chunks'
   * decryptors), so a plugin with other keys or none must not be handed it.
   */
  private record Key(String path, long length, long modificationTime, String crypto) {}

  /** A cached footer and what was last derived from it, under the settings it was derived with. */
  private static final class Entry {
    final FileMetadata footer;
    volatile Derived derived;

    Entry(FileMetadata footer) {
      this.footer = footer;
    }
  }

  private record Derived(Object settings, Object value) {}

  /** Makes something from a footer (e.g. Drill's planning metadata of the file). */
  interface Deriver<T> {
    T derive(FileMetadata footer) throws IOException;
  }

  /**
   * Heap bytes per column chunk kept for what planning derives from a footer (Drill's
   * {@code Metadata_V4} of the file: 133 bytes per chunk measured on 1000-column DOUBLE files).
   */
  private static final long DERIVED_BYTES_PER_CHUNK = 140;

  private final long maxBytes;
  /** Users differ per query (impersonation): each must be allowed to read a file to get its footer. */
  private final boolean checkAccess;
  private final Cache<Key, Entry> footers;
  /** The newest version cached of each path: a file rewritten leaves no stale footer behind. */
  private final ConcurrentHashMap<String, Key> newest = new ConcurrentHashMap<>();
  private final LongAdder decodes = new LongAdder();

  FooterCache(long maxBytes) {
    this(maxBytes, false);
  }

  FooterCache(long maxBytes, boolean checkAccess) {
    this.maxBytes = maxBytes;
    this.checkAccess = checkAccess;
    // One segment: Guava splits the bound between segments, and one wide footer could outweigh a share.
    this.footers = CacheBuilder.newBuilder().concurrencyLevel(1).maximumWeight(maxBytes)
        .weigher((Key key, Entry entry) -> (int) Math.min(Integer.MAX_VALUE, weight(entry.footer)))
        .removalListener((RemovalNotification<Key, Entry> gone) -> newest.remove(gone.getKey().path(), gone.getKey()))
        .build();
  }

  /** The cache of the drillbit, sized from its configuration on first use. */
  static FooterCache of(DrillbitContext context) {
    try {
      return PER_DRILLBIT.get(context, () -> new FooterCache(maxBytes(context.getConfig()),
          context.getConfig().getBoolean(ExecConstants.IMPERSONATION_ENABLED)));
    } catch (ExecutionException e) {
      throw new IllegalStateException("turbo-parquet's footer cache: " + e.getCause().getMessage(), e.getCause());
    }
  }

  /** The configured bound; {@code auto} is an eighth of the heap (512 MiB in Drill's default 4 GiB). */
  static long maxBytes(com.typesafe.config.Config config) {
    return config.getString(MAX_BYTES).equals("auto") ? Runtime.getRuntime().maxMemory() / 8
        : config.getBytes(MAX_BYTES);
  }

  /** The footer of the file {@code status} describes, decoded now unless this version of it is cached. */
  FileMetadata get(FileSystem fs, FileStatus status) throws IOException {
    return get(fs, status, fs.getConf());
  }

  /**
   * As {@link #get(FileSystem, FileStatus)}, decrypting with the crypto factory of {@code conf}, the
   * plugin's Hadoop configuration: not {@code fs.getConf()}, which for a file system Hadoop cached is
   * the configuration of whichever plugin made it first.
   */
  FileMetadata get(FileSystem fs, FileStatus status, Configuration conf) throws IOException {
    return entry(fs, status, conf).footer;
  }

  /**
   * What {@code deriver} makes of the footer of the file {@code status} describes under
   * {@code settings} (compared by equals), made now unless it was made from this version of the file
   * under equal settings. One derived value per footer: other settings replace it. Concurrent callers
   * may both derive; either result is kept.
   */
  @SuppressWarnings("unchecked")
  <T> T derived(FileSystem fs, FileStatus status, Configuration conf, Object settings, Deriver<T> deriver)
      throws IOException {
    Entry entry = entry(fs, status, conf);
    Derived derived = entry.derived;
    if (derived == null || !derived.settings().equals(settings)) {
      derived = new Derived(settings, deriver.derive(entry.footer));
      entry.derived = derived;
    }
    return (T) derived.value();
  }

  private Entry entry(FileSystem fs, FileStatus status, Configuration conf) throws IOException {
    if (checkAccess) {
      fs.access(status.getPath(), FsAction.READ); // a footer another user's query cached is no permission
    }
    Key key = new Key(fs.makeQualified(status.getPath()).toString(), status.getLen(), status.getModificationTime(),
        cryptoSetting(conf));
    try {
      return footers.get(key, () -> {
        Entry decoded = new Entry(decode(fs, status, conf)); // concurrent callers of one key wait for one decode
        Key older = newest.put(key.path(), key);
        if (older != null && !older.equals(key)) {
          footers.invalidate(older); // another length or modification time: that version is gone
        }
        return decoded;
      });
    } catch (ExecutionException | UncheckedExecutionException | ExecutionError e) {
      Failures.rethrow(e.getCause());
      throw new IOException(e); // a cache failure without a cause
    }
  }

  /** The footer of the file at {@code path} as it is now. */
  FileMetadata get(FileSystem fs, Path path) throws IOException {
    return get(fs, fs.getFileStatus(path));
  }

  private FileMetadata decode(FileSystem fs, FileStatus status, Configuration conf) throws IOException {
    decodes.increment();
    // The keys come as parquet-java takes them: the crypto factory of the plugin's Hadoop configuration.
    FileDecryptionProperties keys = conf == null ? null : DecryptionKeys.fromHadoop(conf).forFile(status.getPath());
    try (FSDataInputStream in = FileOpener.open(StoreFileSystem.of(fs), status, false)) {
      return FooterReader.read(in, status.getPath().toString(), status.getLen(), OPTIONS, keys);
    }
  }

  /**
   * "" without a crypto factory; else a digest of the factory and every crypto setting (parquet-java's
   * {@code parquet.crypto.*} and {@code parquet.encryption.*}, ours), which stands for the keys.
   */
  static String cryptoSetting(Configuration conf) {
    if (conf == null || conf.get(DecryptionPropertiesFactory.CRYPTO_FACTORY_CLASS_PROPERTY_NAME) == null) {
      return "";
    }
    java.util.TreeMap<String, String> settings = new java.util.TreeMap<>();
    for (String prefix : new String[] {"parquet.crypto.", "parquet.encryption.", "turbo.parquet.crypto."}) {
      settings.putAll(conf.getPropsWithPrefix(prefix));
    }
    try {
      java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
      settings.forEach((k, v) -> sha.update((k + "\u0000" + v + "\u0000").getBytes(StandardCharsets.UTF_8)));
      return java.util.HexFormat.of().formatHex(sha.digest());
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Footers decoded since the cache was made (each miss decodes one). */
  long decodes() {
    return decodes.sum();
  }

  /** Footers held now. */
  long size() {
    footers.cleanUp();
    return footers.size();
  }

  long maxBytes() {
    return maxBytes;
  }

  /** The error a query gets for a footer it cannot read: a data read error naming the file. */
  static UserException unreadable(Path path, Exception e) {
    return UserException.dataReadError(e)
        .message("turbo-parquet could not read the footer of %s: %s", path, e.getMessage())
        .addContext("File", path.toString())
        .build(logger);
  }

  /** An entry's weight: its footer and room for what planning derives from it. */
  static long weight(FileMetadata footer) {
    long chunks = 0;
    for (RowGroupMeta rg : footer.rowGroups()) {
      chunks += rg.columns().size();
    }
    return estimatedBytes(footer) + DERIVED_BYTES_PER_CHUNK * chunks;
  }

  /**
   * Rough heap bytes of a decoded footer (object headers, fields, arrays), for the bound: what a
   * footer costs grows with its column chunks, whose count the raw footer size hides.
   */
  static long estimatedBytes(FileMetadata footer) {
    long bytes = 256 + 2L * footer.file().length();
    bytes += 200L * footer.schema().columns().size();
    for (var e : footer.keyValues().entrySet()) {
      bytes += 64 + 2L * (e.getKey().length() + e.getValue().length());
    }
    for (RowGroupMeta rg : footer.rowGroups()) {
      bytes += 64 + 8L * rg.columns().size();
      for (ColumnChunkMeta c : rg.columns()) {
        if (c != null) { // codings are shared: a handful per footer
          bytes += 96 + (c.statistics() == null ? 0 : c.statistics().heapBytes()) + (c.bloomFilter() == null ? 0 : 24);
        }
      }
    }
    return bytes;
  }
}
