package io.turboparquet.cli;

import io.turboparquet.filter.Predicate;
import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.ColumnStatistics;
import io.turboparquet.format.GeospatialStatistics;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.FooterOptions;
import io.turboparquet.format.FooterReader;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.format.SchemaNode;
import io.turboparquet.format.crypto.DecryptionKeys;
import io.turboparquet.io.ErrorContext;
import io.turboparquet.io.FileOpener;
import io.turboparquet.io.TrackingBufferSource;
import io.turboparquet.scan.Batch;
import io.turboparquet.scan.ParquetFileScanner;
import io.turboparquet.scan.ScanContext;
import io.turboparquet.scan.ScanMetrics;
import io.turboparquet.scan.ScanOptions;
import io.turboparquet.scan.ScanPools;
import io.turboparquet.scan.VariantColumn;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageStatistics;
import org.apache.parquet.crypto.FileDecryptionProperties;

/**
 * {@code turbo-parquet meta | scan | digest | head FILE [flags]}: see README.md and docs/cli.md
 * ({@code turbo-parquet fuzz} is a tool's, {@code io.turboparquet.fuzz.FuzzMain}).
 * FILE may be a directory or a glob, read as one dataset ({@link Dataset}).
 */
public final class Main {
  private static final String USAGE = String.join("\n",
      "usage: turbo-parquet meta FILE [--columns a,b] [--repeat N] [--json]",
      "       turbo-parquet scan FILE [--columns a,b] [--threads N] [--repeat N] [--json] [--floor] [scan flags]",
      "                          [--filter \"l_shipdate >= DATE '1995-01-01' AND l_partkey IN (1, 2)\"] [--no-page-index]",
      "                          [--no-dictionary-pruning] [--no-bloom-filter] [--no-late-materialization]",
      "       turbo-parquet digest FILE [--columns a,b] [scan flags]",
      "       turbo-parquet head FILE [-n N] [--columns a,b]   (the first N rows, default 10, as JSON lines)",
      "FILE: a local path or Hadoop URI (hdfs://, s3a://) of a file, a directory or a glob (one dataset)",
      "       turbo-parquet fuzz [flags] (the mutation fuzzer, docs/cli.md)",
      "scan flags: --async true|false  --buffered true|false  --buffer-size BYTES  --batch-size ROWS",
      "            --scan-threads N  --decode-threads N  --parallel-decode true|false  --queue-depth N",
      "            --read-ahead true|false  --memory-budget BYTES  --verify-checksums",
      "            --coalesce true|false  --coalesce-gap BYTES  --coalesce-max-size BYTES  --prefetch true|false",
      "            --decode-ahead true|false  --batch-bytes BYTES  --max-page-bytes BYTES  --max-page-entries N",
      "Hadoop configuration: $HADOOP_CONF_DIR/core-site.xml and hdfs-site.xml, then -D key=value (any command),",
      "            e.g. -D fs.s3a.endpoint=http://host:9000 -D fs.s3a.path.style.access=true, or for slow:// paths",
      "            -D fs.slow.read.latency=10ms -D fs.slow.stream.bytes-per-second=100m");

  private Main() {}

  public static void main(String[] argv) {
    int status;
    try {
      status = run(argv, System.out, System.getenv());
    } catch (Args.UsageException e) {
      System.err.println("turbo-parquet: " + e.getMessage());
      System.err.println(USAGE);
      status = 2;
    } catch (IOException | RuntimeException e) {
      System.err.println("turbo-parquet: " + describe(e));
      status = 1;
    }
    System.out.flush();
    System.exit(status);
  }

  private static String describe(Throwable e) {
    String m = e.getMessage();
    return m == null ? e.toString() : (e instanceof IOException || e instanceof RuntimeException) ? m : e.toString();
  }

  static int run(String[] argv, PrintStream out) throws IOException {
    return run(argv, out, Map.of());
  }

  /** Runs a command; {@code env} is the environment (HADOOP_CONF_DIR is read from it). */
  static int run(String[] argv, PrintStream out, Map<String, String> env) throws IOException {
    Args args = new Args(argv, Set.of("json", "verify-checksums", "floor", "no-page-index",
        "no-dictionary-pruning", "no-bloom-filter", "no-late-materialization"));
    List<String> words = args.positional();
    if (words.size() != 2) {
      throw new Args.UsageException(words.isEmpty() ? "no command" : "want a command and one FILE");
    }
    String command = words.get(0);
    String file = words.get(1);
    return switch (command) {
      case "meta" -> meta(file, args, env, out);
      case "scan" -> scan(file, args, env, out);
      case "digest" -> digest(file, args, env, out);
      case "head" -> head(file, args, env, out);
      default -> throw new Args.UsageException("unknown command " + command);
    };
  }

  /**
   * Per file as for one file (the listing, or with --json an object per file and repetition), and for
   * a dataset of several files their totals: a last line of text, or an object per repetition.
   */
  private static int meta(String file, Args args, Map<String, String> env, PrintStream out) throws IOException {
    int repeat = args.integer("repeat", 1);
    boolean json = args.bool("json", false);
    List<String> columns = args.columns();
    args.rejectUnknown();
    Path path = toPath(file);
    FileSystem fs = fileSystem(path, args, env);
    Dataset dataset = Dataset.resolve(fs, path);
    DecryptionKeys keys = DecryptionKeys.fromHadoop(fs.getConf());
    List<FooterReader.FooterBytes> footers = new ArrayList<>();
    List<FileDecryptionProperties> decryption = new ArrayList<>();
    for (FileStatus status : dataset.files()) {
      try (FSDataInputStream in = FileOpener.open(fs, status, false)) {
        footers.add(FooterReader.readFooter(in, status.getPath().toString(), status.getLen()));
      }
      decryption.add(keys.forFile(status.getPath()));
    }
    // Only the listed columns' chunks are decoded: the footer's projected decode.
    FooterOptions options = columns == null ? FooterOptions.DEFAULT : FooterOptions.projecting(columns);
    if (!json) { // the listing shows statistics; --json times the decode as planning does it, without
      options = options.withStatistics(FooterOptions.ColumnSelector.ALL);
    }
    List<FileMetadata> metas = new ArrayList<>();
    for (int i = 0; i < repeat; i++) {
      metas.clear();
      long footerBytes = 0;
      double decodeMs = 0;
      for (int f = 0; f < footers.size(); f++) {
        FileStatus status = dataset.files().get(f);
        FooterReader.FooterBytes footer = footers.get(f);
        long t0 = System.nanoTime();
        FileMetadata meta = FooterReader.decode(footer, status.getPath().toString(), status.getLen(), options,
            decryption.get(f));
        double ms = (System.nanoTime() - t0) / 1e6;
        metas.add(meta);
        footerBytes += footer.bytes().length;
        decodeMs += ms;
        if (json) {
          Map<String, Object> m = new LinkedHashMap<>();
          m.put("file", status.getPath().toString());
          m.put("footer_bytes", footer.bytes().length);
          m.put("footer_decode_ms", ms);
          m.put("rows", meta.numRows());
          m.put("row_groups", meta.rowGroups().size());
          m.put("columns", meta.schema().columns().size());
          out.println(Json.object(m));
        }
      }
      if (json && metas.size() > 1) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("dataset", path.toString());
        m.put("files", metas.size());
        m.put("footer_bytes", footerBytes);
        m.put("footer_decode_ms", decodeMs);
        m.put("rows", metas.stream().mapToLong(FileMetadata::numRows).sum());
        m.put("row_groups", metas.stream().mapToLong(meta -> meta.rowGroups().size()).sum());
        out.println(Json.object(m));
      }
    }
    if (!json) {
      long rows = 0;
      long rowGroups = 0;
      for (FileMetadata meta : metas) {
        printMeta(meta, meta.schema().project(columns), out);
        rows += meta.numRows();
        rowGroups += meta.rowGroups().size();
      }
      if (metas.size() > 1) {
        out.println("dataset: " + path + "  files: " + metas.size() + "  rows: " + rows + "  row groups: "
            + rowGroups);
      }
    }
    return 0;
  }

  private static void printMeta(FileMetadata meta, List<ColumnDescriptor> projection, PrintStream out) {
    out.println("file: " + meta.file());
    out.println("created_by: " + meta.createdBy());
    out.println("rows: " + meta.numRows() + "  row groups: " + meta.rowGroups().size() + "  footer: "
        + meta.footerLength() + " bytes");
    out.println("schema:");
    Map<String, SchemaNode> variants = new LinkedHashMap<>();
    variantGroups(meta.schema().root(), "", variants);
    for (ColumnDescriptor c : projection) {
      for (var v = variants.entrySet().iterator(); v.hasNext(); ) {
        Map.Entry<String, SchemaNode> e = v.next();
        if (c.dottedPath().startsWith(e.getKey() + ".")) { // a VARIANT's line comes before its first leaf's
          SchemaNode g = e.getValue();
          boolean shredded = g.children().stream().anyMatch(x -> x.name().equals("typed_value"));
          out.println("  " + e.getKey() + "  " + g.logicalType() + "  " + g.repetition() + "  group read as one "
              + (shredded ? "shredded " : "") + "Variant value (head: JSON)");
          v.remove();
        }
      }
      out.println("  " + c.dottedPath() + "  " + c.physicalType()
          + (c.typeLength() > 0 ? "(" + c.typeLength() + ")" : "")
          + (c.logicalType() != null ? " " + c.logicalType() : "") + "  " + c.repetition()
          + "  def " + c.maxDefinitionLevel() + " rep " + c.maxRepetitionLevel()
          + (meta.columnOrders().isEmpty() ? "" : "  order " + meta.columnOrder(c)));
    }
    for (RowGroupMeta rg : meta.rowGroups()) {
      out.println("row group " + rg.index() + ": " + rg.numRows() + " rows, " + rg.compressedSize()
          + (projection.size() < meta.schema().columns().size() ? " bytes stored in these columns" : " bytes stored"));
      for (ColumnDescriptor c : projection) {
        ColumnChunkMeta cc = rg.column(c.index());
        out.println("  " + c.dottedPath() + "  " + cc.codec() + "  " + cc.encodings() + "  values " + cc.numValues()
            + "  " + cc.totalCompressedSize() + " -> " + cc.totalUncompressedSize() + " bytes  at "
            + cc.startOffset() + statistics(cc));
      }
    }
  }

  /** The VARIANT-annotated groups below {@code n}, by dotted path. */
  private static void variantGroups(SchemaNode n, String path, Map<String, SchemaNode> out) {
    for (SchemaNode c : n.children()) {
      String p = path.isEmpty() ? c.name() : path + "." + c.name();
      if (VariantColumn.isVariant(c)) {
        out.put(p, c);
      } else if (!c.isLeaf()) {
        variantGroups(c, p, out);
      }
    }
  }

  /** The counts of a chunk's statistics and its bounding box, as "  nulls 3  nan 1  bbox x [...]". */
  private static String statistics(ColumnChunkMeta cc) {
    StringBuilder b = new StringBuilder();
    ColumnStatistics s = cc.statistics();
    if (s != null && s.hasNullCount()) {
      b.append("  nulls ").append(s.nullCount());
    }
    if (s != null && s.nanCount() >= 0) {
      b.append("  nan ").append(s.nanCount());
    }
    GeospatialStatistics geo = cc.geospatial();
    if (geo != null && geo.bbox() != null) {
      GeospatialStatistics.BoundingBox box = geo.bbox();
      b.append("  bbox x [").append(box.xmin()).append(", ").append(box.xmax()).append(box.wraps() ? "] (wraps)" : "]")
          .append(" y [").append(box.ymin()).append(", ").append(box.ymax()).append(']');
      if (!Double.isNaN(box.zmin())) {
        b.append(" z [").append(box.zmin()).append(", ").append(box.zmax()).append(']');
      }
      if (!Double.isNaN(box.mmin())) {
        b.append(" m [").append(box.mmin()).append(", ").append(box.mmax()).append(']');
      }
    }
    if (geo != null && geo.types() != null) {
      b.append("  geometry types ").append(geo.types());
    }
    return b.toString();
  }

  /** One line per repetition: the dataset's files scanned one after another, their totals. */
  private static int scan(String file, Args args, Map<String, String> env, PrintStream out) throws IOException {
    int repeat = args.integer("repeat", 1);
    boolean json = args.bool("json", false);
    List<String> columns = args.columns();
    boolean floor = args.bool("floor", false);
    ScanOptions options = scanOptions(args, toPath(file));
    String filterText = args.string("filter", null);
    Predicate filter;
    try {
      filter = filterText == null ? null : Predicate.parse(filterText);
    } catch (IllegalArgumentException e) {
      throw new Args.UsageException(e.getMessage());
    }
    if (floor && filter != null) {
      throw new Args.UsageException("--floor reads whole chunks; it takes no --filter");
    }
    args.rejectUnknown();
    Path path = toPath(file);
    FileSystem fs = fileSystem(path, args, env);
    Dataset dataset = Dataset.resolve(fs, path);
    try (ScanPools pools = ScanPools.forOptions(options)) {
      for (int i = 0; i < repeat; i++) {
        TrackingBufferSource buffers = new TrackingBufferSource();
        ScanMetrics metrics = new ScanMetrics();
        ScanContext context = new ScanContext(fs, options, buffers, pools.scanPool(), pools.decodePool(), metrics)
            .withDecryption(DecryptionKeys.fromHadoop(fs.getConf()));
        // A file system that counts what it served (the slow:// harness) says so in Hadoop's storage statistics.
        StorageStatistics storage = fs.getStorageStatistics();
        storage = storage != null && storage.isTracked("read_calls") ? storage : null;
        if (storage != null) {
          storage.reset();
        }
        long cpu0 = processCpuNanos();
        long t0 = System.nanoTime();
        long rows = 0;
        for (FileStatus status : dataset.files()) {
          FileMetadata meta = ParquetFileScanner.readMetadata(context, status,
              ParquetFileScanner.footerFor(columns, filter));
          if (floor) {
            rows += FloorScan.run(fs, status.getPath(), meta, meta.schema().project(columns), options, buffers,
                metrics);
          } else {
            try (ParquetFileScanner scanner = ParquetFileScanner.open(context, status.getPath(), meta, columns,
                filter)) {
              Batch b;
              while ((b = scanner.next()) != null) {
                rows += b.rows();
                scanner.decodeAhead();
              }
            }
          }
        }
        double wallMs = (System.nanoTime() - t0) / 1e6;
        double cpuMs = (processCpuNanos() - cpu0) / 1e6;
        if (buffers.outstanding() != 0) {
          throw ErrorContext.of(path.toString()).illegalState("scan leaked " + buffers.outstanding() + " buffers");
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("file", path.toString());
        m.put("files", dataset.files().size());
        m.put("rows", rows);
        m.put("wall_ms", wallMs);
        m.put("cpu_ms", cpuMs);
        m.putAll(metrics.snapshot());
        m.put("storage_wait_share", Math.round(metrics.storageWaitShare() * 1000) / 1000.0);
        m.put("read_mb_per_s", wallMs > 0 ? Math.round(metrics.bytesRead() / 1e6 / (wallMs / 1e3) * 10) / 10.0 : 0);
        if (storage != null) {
          // Everything the slow file system served, footer included.
          m.put("storage_read_calls", storage.getLong("read_calls"));
          m.put("storage_bytes", storage.getLong("bytes"));
          m.put("storage_streams", storage.getLong("streams"));
        }
        m.put("peak_direct_bytes", buffers.peakBytes());
        out.println(json ? Json.object(m) : m.toString());
      }
    }
    return 0;
  }

  /** The dataset's digest: each projected column's values over its files in order, as of one file. */
  private static int digest(String file, Args args, Map<String, String> env, PrintStream out) throws IOException {
    List<String> columns = args.columns();
    ScanOptions options = scanOptions(args, toPath(file));
    args.rejectUnknown();
    Path path = toPath(file);
    FileSystem fs = fileSystem(path, args, env);
    Dataset dataset = Dataset.resolve(fs, path);
    try (ScanPools pools = ScanPools.forOptions(options)) {
      TrackingBufferSource buffers = new TrackingBufferSource();
      ScanContext context = new ScanContext(fs, options, buffers, pools.scanPool(), pools.decodePool(),
          new ScanMetrics()).withDecryption(DecryptionKeys.fromHadoop(fs.getConf()));
      for (String line : Digester.digest(context, dataset.files(), columns)) {
        out.println(line);
      }
    }
    return 0;
  }

  /**
   * The first N rows ({@code -n N}, default 10) as JSON lines, one object per row (docs/cli.md,
   * "head"); reads only as far as those rows.
   */
  private static int head(String file, Args args, Map<String, String> env, PrintStream out) throws IOException {
    String n = args.string("n", null);
    long rows;
    try {
      rows = n == null ? Head.DEFAULT_ROWS : Long.parseLong(n.trim());
    } catch (NumberFormatException e) {
      throw new Args.UsageException("-n wants a number of rows, not " + n);
    }
    if (rows < 0) {
      throw new Args.UsageException("-n wants a number of rows (0 or more), not " + n);
    }
    List<String> columns = args.columns();
    args.rejectUnknown();
    Path path = toPath(file);
    FileSystem fs = fileSystem(path, args, env);
    Dataset dataset = Dataset.resolve(fs, path);
    ScanOptions options = Head.options(rows);
    try (ScanPools pools = ScanPools.forOptions(options)) {
      ScanContext context = new ScanContext(fs, options, new TrackingBufferSource(), pools.scanPool(),
          pools.decodePool(), new ScanMetrics()).withDecryption(DecryptionKeys.fromHadoop(fs.getConf()));
      Head.rows(context, dataset.files(), columns, rows, out::println);
    }
    return 0;
  }

  /**
   * The scan pool's least size on a store other than local files (S3A, HDFS, the slow:// harness).
   * Its threads only wait: each holds one read of up to 1 MiB for the store's latency plus the
   * transfer, so B MiB/s at L s to the first byte wants about B x (L + 0.01) threads (24 for
   * 400 MiB/s at 50 ms), where as many threads as cores reach a fraction of it. What they may
   * hold at once stays bounded by memoryBudget. Measured in docs/benchmarks.md, "Latency-bound
   * storage inside Drill" (standalone, scan pool 8 against 32).
   */
  static final int REMOTE_SCAN_THREADS = 32;

  /**
   * Scan flags over the defaults. {@code --threads N} is the total parallelism: with 1 the whole
   * scan runs on the calling thread (no async reads, no parallel decode); with N > 1 pages are read
   * ahead on a scan pool of N threads and columns decode on a pool of N - 1 threads plus the calling
   * thread, which decodes too (measured on 2 cores: more decode threads than cores only adds
   * contention; see docs/benchmarks.md). Explicit flags override what --threads implies. On a store
   * other than local files the scan pool has at least {@link #REMOTE_SCAN_THREADS} threads.
   */
  static ScanOptions scanOptions(Args args, Path path) {
    int threads = args.integer("threads", Runtime.getRuntime().availableProcessors());
    if (threads < 1) {
      throw new Args.UsageException("--threads must be at least 1");
    }
    boolean remote = !ScanOptions.Io.isLocal(path.toUri());
    ScanOptions.Builder b = ScanOptions.builder()
        .scanThreads(args.integer("scan-threads", remote && threads > 1 ? Math.max(threads, REMOTE_SCAN_THREADS)
            : threads))
        .decodeThreads(args.integer("decode-threads", Math.max(1, threads - 1)))
        .asyncPageReads(args.bool("async", threads > 1))
        .parallelDecode(args.bool("parallel-decode", threads > 1))
        .bufferedReads(args.bool("buffered", true))
        .readAheadHint(args.bool("read-ahead", false))
        .verifyChecksums(args.bool("verify-checksums", false))
        .pageIndexSkipping(!args.bool("no-page-index", false))
        .dictionaryPruning(!args.bool("no-dictionary-pruning", false))
        .lateMaterialization(!args.bool("no-late-materialization", false))
        .bloomFilterPruning(!args.bool("no-bloom-filter", false));
    ScanOptions d = ScanOptions.defaults();
    b.coalescedReads(args.bool("coalesce", d.io().coalescedReads()))
        .coalesceGap(args.longValue("coalesce-gap", d.io().coalesceGap()))
        .coalesceMaxSize(args.integer("coalesce-max-size", d.io().coalesceMaxSize()))
        .prefetchRowGroups(args.bool("prefetch", remote))
        .decodeAhead(args.bool("decode-ahead", d.decode().decodeAhead()))
        .maxPageBytes(args.integer("max-page-bytes", d.limits().maxPageBytes()))
        .maxPageEntries(args.integer("max-page-entries", d.limits().maxPageEntries()));
    b.bufferSize(args.integer("buffer-size", d.io().bufferSize()))
        .batchSize(args.integer("batch-size", d.decode().batchSize()))
        .batchBytes(args.longValue("batch-bytes", d.decode().batchBytes()))
        .queueDepth(args.integer("queue-depth", d.io().queueDepth()))
        .memoryBudget(args.longValue("memory-budget", d.io().memoryBudget()));
    try {
      return b.build();
    } catch (IllegalArgumentException e) {
      throw new Args.UsageException(e.getMessage());
    }
  }

  /** CPU time of the whole process (every thread, JIT and GC included), or 0 where unknown. */
  private static long processCpuNanos() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
      return Math.max(0, os.getProcessCpuTime());
    }
    return 0;
  }

  static Path toPath(String file) {
    if (file.contains("://")) {
      return new Path(file);
    }
    // Not File.toURI(): that ends a directory with "/" and escapes a glob's braces and brackets.
    return new Path("file", null, new File(file).getAbsolutePath());
  }

  /**
   * The path's file system, configured as {@link #configuration} says; for local files the raw one,
   * skipping Hadoop's checksum layer. A new instance (not Hadoop's cached one), so the properties
   * always apply and the slow file system's counters belong to this command.
   */
  static FileSystem fileSystem(Path path, Args args, Map<String, String> env) throws IOException {
    FileSystem fs = FileSystem.newInstance(path.toUri(), configuration(args, env));
    return fs instanceof LocalFileSystem local ? local.getRaw() : fs;
  }

  /**
   * Hadoop's defaults, then {@code core-site.xml} and {@code hdfs-site.xml} of {@code $HADOOP_CONF_DIR}
   * where it is set (as Hadoop's own commands read them: an S3A endpoint, credentials provider, HDFS
   * name services), then the {@code -D} properties, which win.
   */
  static Configuration configuration(Args args, Map<String, String> env) {
    Configuration conf = new Configuration();
    String dir = env.get("HADOOP_CONF_DIR");
    if (dir != null && !dir.isBlank()) {
      for (String name : List.of("core-site.xml", "hdfs-site.xml")) {
        File site = new File(dir, name);
        if (site.isFile()) {
          conf.addResource(new Path(site.getAbsoluteFile().toURI()));
        }
      }
    }
    args.properties().forEach(conf::set);
    return conf;
  }
}
