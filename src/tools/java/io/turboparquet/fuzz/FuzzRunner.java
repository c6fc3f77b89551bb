package io.turboparquet.fuzz;

import io.turboparquet.cli.ColumnDigest;
import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.ColumnStatistics;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.FooterOptions;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.format.VariantJson;
import io.turboparquet.scan.VariantColumn;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.io.TrackingBufferSource;
import io.turboparquet.scan.Batch;
import io.turboparquet.scan.ParquetFileScanner;
import io.turboparquet.scan.ScanContext;
import io.turboparquet.scan.ScanMetrics;
import io.turboparquet.scan.ScanOptions;
import io.turboparquet.scan.ScanPools;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.schema.MessageType;

/**
 * Reads a fuzz case's bytes through the scan core (from a file in a work directory) in the case's
 * read mode and classifies how it ended: see {@link Outcome}. Each case runs on a thread of its
 * own under a timeout; after a hang the pools are replaced, since their threads may be stuck.
 */
public final class FuzzRunner implements AutoCloseable {
  private final Path workDir;
  private final long timeoutMillis;
  private final FileSystem fs;
  private ScanPools pools = new ScanPools(2, 2);
  /** By identity: a campaign passes each seed's one byte array. */
  private final Map<byte[], List<String>> seedDigests = new IdentityHashMap<>();
  /** Our digest of each intact seed (empty if we do not accept it), by identity too. */
  private final Map<byte[], List<String>> ourSeedDigests = new IdentityHashMap<>();
  /** The plain mode the intact seeds are read in for {@link #ourSeedDigest}. */
  private static final ReadMode SEED_MODE = new ReadMode(false, false, false, 1 << 20, 32_768, false, false, 1, 0);

  public FuzzRunner(Path workDir, long timeoutMillis) {
    this.workDir = workDir;
    this.timeoutMillis = timeoutMillis;
    try {
      Files.createDirectories(workDir);
      this.fs = FileSystem.getLocal(new Configuration()).getRaw();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs {@code bytes} as file {@code fileName} (a plain name: it must show in corruption errors). */
  public CaseResult run(String fileName, byte[] bytes, ReadMode mode) {
    return run(fileName, bytes, mode, null);
  }

  /**
   * As {@link #run(String, byte[], ReadMode)}, for bytes mutated from {@code seed} (the intact file,
   * or null): where parquet-java disagrees with an accepted read that returned exactly the seed's
   * values, the edit touched nothing those values depend on (a level encoding of a required
   * column, say) and parquet-java, not the core, was misled by it.
   */
  public CaseResult run(String fileName, byte[] bytes, ReadMode mode, byte[] seed) {
    return onScratchFile(fileName, bytes, file -> {
      CompletableFuture<CaseResult> read = onOwnThread(() -> read(file, mode));
      CaseResult ours;
      try {
        ours = read.get(timeoutMillis, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        replacePools();
        return new CaseResult(Outcome.HANG, "no end within " + timeoutMillis + " ms (" + mode + ")");
      }
      if (ours.outcome() != Outcome.ACCEPTED) {
        return ours;
      }
      return compareWithParquetJava(file, ours, mode, seed);
    });
  }

  /**
   * Our read alone, no oracle: {@code bytes} as file {@code fileName} read with {@code options}
   * (which replace the mode's own) over the columns {@code mode}'s footer stride picks. ACCEPTED
   * with the digest lines as detail, or how it failed; HANG after the timeout.
   */
  public CaseResult ours(String fileName, byte[] bytes, ReadMode mode, ScanOptions options) {
    return onScratchFile(fileName, bytes, file -> {
      try {
        return onOwnThread(() -> read(file, mode, options)).get(timeoutMillis, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        replacePools();
        return new CaseResult(Outcome.HANG, "no end within " + timeoutMillis + " ms (" + options + ")");
      }
    });
  }

  /** A case's work on its bytes written to a scratch file, deleted after. */
  private interface CaseWork {
    CaseResult run(Path file) throws IOException, InterruptedException, ExecutionException;
  }

  private CaseResult onScratchFile(String fileName, byte[] bytes, CaseWork work) {
    Path file = workDir.resolve(fileName);
    try {
      Files.write(file, bytes);
      return work.run(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("case runner failed", e.getCause());
    } finally {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        // the work directory is scratch space
      }
    }
  }

  private CaseResult read(Path file, ReadMode mode) {
    return read(file, mode, mode.options());
  }

  /** Our read: ACCEPTED with the digest lines as detail, or how it failed. */
  private CaseResult read(Path file, ReadMode mode, ScanOptions options) {
    TrackingBufferSource buffers = new TrackingBufferSource();
    ScanContext context = new ScanContext(fs, options, buffers, pools.scanPool(), pools.decodePool(),
        new ScanMetrics()).withDecryption(io.turboparquet.format.crypto.DecryptionKeys.of(FuzzKeys.properties()));
    CaseResult result;
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file.toUri());
    CaseResult statistics = statisticsFailure(context, path, file.getFileName().toString());
    if (statistics != null) {
      return statistics;
    }
    try (ParquetFileScanner scanner = open(context, path, mode)) {
      List<ColumnDescriptor> projection = scanner.projection();
      List<ColumnDigest> digests = new ArrayList<>();
      for (ColumnDescriptor c : projection) {
        digests.add(new ColumnDigest(c));
      }
      // VARIANT columns are rebuilt and rendered too, so mutations reach that code: an invalid one
      // must end as a corruption error naming the file, like any other.
      List<VariantColumn> variants = VariantColumn.of(path.toString(),
          scanner.metadata().schema().root(), projection);
      Batch batch;
      String broken = null;
      while (broken == null && (batch = scanner.next()) != null) {
        broken = BatchContract.violation(batch, projection.size());
        if (broken == null) {
          for (int i = 0; i < digests.size(); i++) {
            digests.get(i).accept(batch.columns().get(i));
          }
          for (VariantColumn v : variants) {
            for (byte[] value : v.values(batch)) {
              if (value != null) {
                VariantJson.of(value);
              }
            }
          }
          scanner.decodeAhead();
        }
      }
      result = broken != null ? new CaseResult(Outcome.BROKEN_BATCH, broken + " (" + mode + ")")
          : new CaseResult(Outcome.ACCEPTED, String.join("\n", digests.stream().map(ColumnDigest::line).toList()));
    } catch (Throwable t) {
      result = classify(t, file.getFileName().toString());
    }
    if (result.outcome() != Outcome.OOM && leaked(buffers)) {
      return new CaseResult(Outcome.BUFFER_LEAK, buffers.outstanding() + " buffers held after close, after "
          + result.outcome() + ": " + result.headline() + " (" + mode + ")");
    }
    return result;
  }

  /**
   * Drill's planning decodes a footer with every column's statistics ({@code FooterCache}), which
   * no scan does: decoded so here too, each bound and count read back as Drill's conversion reads
   * them. A refusal (a corruption naming the file, or an unsupported feature) is how planning fails
   * such a file, and the scan goes on; any other failure is the case's outcome. Null when fine.
   */
  static CaseResult statisticsFailure(ScanContext context, org.apache.hadoop.fs.Path path, String fileName) {
    try {
      FileMetadata meta = ParquetFileScanner.readMetadata(context, path,
          FooterOptions.DEFAULT.withStatistics(FooterOptions.ColumnSelector.ALL));
      for (RowGroupMeta rg : meta.rowGroups()) {
        for (ColumnChunkMeta chunk : rg.columns()) {
          ColumnStatistics s = chunk.statistics();
          if (s != null) {
            s.max();
            s.min();
            s.maxValue();
            s.minValue();
            s.nullCount();
            s.distinctCount();
          }
        }
      }
      return null;
    } catch (Throwable t) {
      CaseResult r = classify(t, fileName);
      return r.outcome() == Outcome.CORRUPTION || r.outcome() == Outcome.UNSUPPORTED ? null
          : new CaseResult(r.outcome(), "decoding the footer's statistics: " + r.detail());
    }
  }

  /**
   * The scanner for {@code mode}: every column, or with a footer stride only the leaves it reads,
   * their chunks decoded from the footer and the others skipped (the path a projected read takes).
   * Where the chosen leaves' names also name others (a footer edited to repeat a name), the footer
   * is decoded whole, since the scan would read those too.
   */
  private static ParquetFileScanner open(ScanContext context, org.apache.hadoop.fs.Path path, ReadMode mode)
      throws IOException {
    if (mode.footerStride() == 0) {
      return ParquetFileScanner.open(context, path, null);
    }
    FileMetadata meta = ParquetFileScanner.readMetadata(context, path,
        FooterOptions.DEFAULT.withColumns(schema -> {
          boolean[] read = new boolean[schema.columns().size()];
          for (int i = 0; i < read.length; i++) {
            read[i] = mode.reads(i);
          }
          return read;
        }));
    List<String> names = new ArrayList<>();
    for (ColumnDescriptor c : meta.schema().columns()) {
      if (mode.reads(c.index())) {
        names.add(c.dottedPath());
      }
    }
    if (!meta.schema().project(names).stream().allMatch(c -> mode.reads(c.index()))) {
      meta = ParquetFileScanner.readMetadata(context, path);
    }
    return ParquetFileScanner.open(context, path, meta, names);
  }

  /** How an exception that escaped the core classifies. */
  static CaseResult classify(Throwable t, String fileName) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof OutOfMemoryError) {
        return CaseResult.of(Outcome.OOM, t);
      }
    }
    if (t instanceof ParquetCorruptionException) {
      return t.getMessage() != null && t.getMessage().contains(fileName) ? CaseResult.of(Outcome.CORRUPTION, t)
          : new CaseResult(Outcome.RAW_EXCEPTION, "corruption error without the file name: " + CaseResult.describe(t));
    }
    if (t instanceof UnsupportedOperationException && t.getMessage() != null && !t.getMessage().isBlank()) {
      return CaseResult.of(Outcome.UNSUPPORTED, t);
    }
    return CaseResult.of(Outcome.RAW_EXCEPTION, t);
  }

  /** Whether buffers are still held; async reads may release theirs a moment after close. */
  private static boolean leaked(TrackingBufferSource buffers) {
    for (int i = 0; i < 50 && buffers.outstanding() != 0; i++) {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return buffers.outstanding() != 0;
  }

  /**
   * An accepted read against parquet-java's digest of the same bytes: WRONG_VALUES when parquet-java
   * reads them too and disagrees. When parquet-java fails (or takes too long) there is nothing to
   * compare: the accepted read with its intact batches stands.
   */
  private CaseResult compareWithParquetJava(Path file, CaseResult ours, ReadMode mode, byte[] seed)
      throws InterruptedException {
    List<String> lines = ours.detail().isEmpty() ? List.of() : List.of(ours.detail().split("\n"));
    // A projected read is compared on its columns; a whole read on all, so a lost column shows.
    Set<String> columns = mode.footerStride() == 0 ? null
        : new LinkedHashSet<>(lines.stream().map(FuzzRunner::path).toList());
    List<String> theirs;
    try {
      theirs = onOwnThread(() -> chunksFitFile(file)
          ? ParquetJavaDigest.digest(file, columns == null ? null : List.copyOf(columns), FuzzKeys.properties())
          : null)
          .get(timeoutMillis, TimeUnit.MILLISECONDS);
      if (theirs == null) {
        return ours;
      }
    } catch (ExecutionException | TimeoutException e) {
      return ours;
    }
    if (lines.equals(theirs)
        || (seed != null && seedValuesWhereTheyDiffer(lines, theirs, only(seedDigest(seed), columns),
            only(ourSeedDigest(seed), columns)))
        || nullsInRequired(file, theirs)) {
      return ours;
    }
    for (int i = 0; i < Math.max(lines.size(), theirs.size()); i++) {
      String a = i < lines.size() ? lines.get(i) : "(none)";
      String b = i < theirs.size() ? theirs.get(i) : "(none)";
      if (!a.equals(b)) {
        return new CaseResult(Outcome.WRONG_VALUES, "ours " + a + " parquet-java " + b);
      }
    }
    return ours;
  }

  /**
   * Whether every column where our digest differs from parquet-java's holds exactly the intact
   * seed's values: the edit touched nothing those values depend on, or something only parquet-java
   * trusts, while
   * other columns may have been changed by the edit and agree. A column that the two readers
   * already read differently in the intact seed (a seed that is itself such a file, e.g. a committed
   * reproducer) is not judged: parquet-java is no oracle for it in any edit of that seed.
   */
  static boolean seedValuesWhereTheyDiffer(List<String> ours, List<String> theirs, List<String> seed,
      List<String> ourSeed) {
    if (ours.size() != theirs.size() || ours.size() != seed.size()) {
      return false;
    }
    boolean ourSeedFits = ourSeed.size() == seed.size();
    for (int i = 0; i < ours.size(); i++) {
      String a = ours.get(i);
      if (a.equals(theirs.get(i)) || a.equals(seed.get(i))) {
        continue;
      }
      if (!ourSeedFits || ourSeed.get(i).equals(seed.get(i))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether parquet-java's digest reports nulls in a column that has no definition levels (a
   * required column under required parents): it cannot hold any, so parquet-java misread the file
   * (an edited level encoding of such a column makes it decode levels that are not there) and is
   * no oracle for it.
   */
  private static boolean nullsInRequired(Path file, List<String> theirs) {
    try (ParquetFileReader reader = ParquetJavaDigest.open(file, false, FuzzKeys.properties())) {
      MessageType schema = reader.getFileMetaData().getSchema();
      for (String line : theirs) {
        String[] f = line.split("\t");
        if (f.length >= 4 && !f[3].equals("0")
            && schema.getColumnDescription(f[0].split("\\.")).getMaxDefinitionLevel() == 0) {
          return true;
        }
      }
      return false;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** A digest line's column. */
  private static String path(String line) {
    int tab = line.indexOf('\t');
    return tab < 0 ? line : line.substring(0, tab);
  }

  /** The lines of {@code digest} for {@code columns} (null: all). */
  private static List<String> only(List<String> digest, Set<String> columns) {
    return columns == null ? digest : digest.stream().filter(line -> columns.contains(path(line))).toList();
  }

  /** parquet-java's digest of an intact seed file, once per seed (empty if it cannot read it). */
  private List<String> seedDigest(byte[] seed) {
    return seedDigests.computeIfAbsent(seed, bytes -> digestOf(bytes, "seed-", file -> ParquetJavaDigest.digest(file, null,
        FuzzKeys.properties())));
  }

  /** Our digest of an intact seed file in {@link #SEED_MODE}, once per seed (empty unless we accept it). */
  private List<String> ourSeedDigest(byte[] seed) {
    return ourSeedDigests.computeIfAbsent(seed, bytes -> digestOf(bytes, "seed-ours-", file -> {
      CaseResult r = onOwnThread(() -> read(file, SEED_MODE)).get(timeoutMillis, TimeUnit.MILLISECONDS);
      return r.outcome() != Outcome.ACCEPTED || r.detail().isEmpty() ? List.of() : List.of(r.detail().split("\n"));
    }));
  }

  /** A digest of a seed's bytes, read from a scratch file; empty if reading them fails. */
  private List<String> digestOf(byte[] bytes, String prefix, SeedReader reader) {
    Path file = workDir.resolve(prefix + System.identityHashCode(bytes) + ".parquet");
    try {
      Files.write(file, bytes);
      return reader.digest(file);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return List.of();
    } catch (Exception e) {
      return List.of();
    } finally {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        // scratch space
      }
    }
  }

  @FunctionalInterface
  private interface SeedReader {
    List<String> digest(Path file) throws Exception;
  }

  /**
   * Whether every column chunk parquet-java would read lies inside the file. parquet-java allocates
   * a heap buffer of each chunk's stored size before reading it, so a hostile size would make the
   * oracle, not the core, run out of memory.
   */
  private static boolean chunksFitFile(Path file) {
    try (ParquetFileReader reader = ParquetJavaDigest.open(file, false, FuzzKeys.properties())) {
      long length = Files.size(file);
      for (BlockMetaData block : reader.getFooter().getBlocks()) {
        for (ColumnChunkMetaData chunk : block.getColumns()) {
          long start = chunk.getStartingPos();
          long size = chunk.getTotalSize();
          if (start < 0 || size < 0 || size > length - start) {
            return false;
          }
        }
      }
      return true;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private static <T> CompletableFuture<T> onOwnThread(java.util.function.Supplier<T> task) {
    CompletableFuture<T> f = new CompletableFuture<>();
    Thread t = new Thread(() -> {
      try {
        f.complete(task.get());
      } catch (Throwable e) {
        f.completeExceptionally(e);
      }
    }, "fuzz-case");
    t.setDaemon(true); // a hung case must not keep the JVM alive
    t.start();
    return f;
  }

  private void replacePools() {
    ScanPools old = pools;
    pools = new ScanPools(2, 2);
    Thread closer = new Thread(old::close, "fuzz-pool-closer");
    closer.setDaemon(true);
    closer.start();
  }

  @Override
  public void close() {
    pools.close();
  }
}
