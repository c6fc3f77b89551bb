package io.turboparquet.bench;

import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemGenerator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;

/**
 * Writes TPC-H {@code lineitem} (io.trino.tpch generator) as a Parquet file with parquet-java.
 *
 * <pre>
 * GenerateLineitem OUT.parquet [--scale 1.0] [--codec SNAPPY|ZSTD|UNCOMPRESSED|GZIP|LZ4_RAW] [--row-groups 50]
 *     [--row-group-bytes N] [--sort-by COLUMN] [--bloom-filter COLUMN,...] [--page-row-limit 20000]
 * </pre>
 *
 * <p>Schema: 16 required columns. Keys are INT64, {@code l_linenumber} INT32, the four money/ratio
 * columns ({@code l_quantity, l_extendedprice, l_discount, l_tax}) are DOUBLE (the common "TPC-H
 * as doubles" layout; DECIMAL would be the alternative), flags/instructions/mode/comment are
 * BYTE_ARRAY with the STRING annotation and the three dates are INT32 DATE (days since epoch).
 *
 * <p>Writer settings are parquet-java's defaults (writer version v1 pages, dictionary encoding on,
 * 1 MiB pages, 1 MiB dictionary page limit, page row-count limit 20 000, statistics and column
 * indexes on) except the row-group boundary: parquet-java 1.15's {@code ParquetWriter} cuts row
 * groups by buffered byte size only, which makes the row-group count depend on the codec. To get
 * the same, predictable ~N row groups for every codec this program drives parquet-java's own
 * low-level writer ({@link ParquetFileWriter} + {@link ColumnChunkPageWriteStore} + the
 * {@link ColumnWriteStore} from {@link ParquetProperties}) exactly as {@code
 * InternalParquetRecordWriter} does, but flushes a row group every {@code ceil(estimatedRows / N)}
 * rows. The estimate is 6 001 215 x scale (exact for SF1, so SF1 gives exactly N row groups).
 *
 * <p>Options for selective-scan benchmarks (docs/benchmarks.md, "Selective scans inside Drill"):
 * <ul>
 *   <li>{@code --row-group-bytes N}: cut row groups by size as {@code ParquetWriter} does (its
 *       {@code InternalParquetRecordWriter.checkBlockSizeReached}: the column store's buffered bytes,
 *       checked at the same record counts, flushed when within two records of N) instead of
 *       {@code --row-groups}; parquet-java's default is 134217728 (128 MiB).
 *   <li>{@code --sort-by COLUMN}: generate every row first (about 1.5 GB of heap at SF1: run with
 *       {@code -Xmx4g}), sort them stably by one of the key or date columns ({@code l_orderkey},
 *       {@code l_partkey}, {@code l_suppkey}, {@code l_shipdate}, {@code l_commitdate},
 *       {@code l_receiptdate}), then write. The generator already emits rows in {@code l_orderkey} order.
 *   <li>{@code --bloom-filter COLUMN,...}: parquet-java's split-block bloom filter on these columns,
 *       at its defaults (no NDV given: a 1 MiB filter per column chunk).
 *   <li>{@code --page-row-limit N}: parquet-java's page row-count limit (its default, 20 000).
 * </ul>
 *
 * <p>Rows are generated on a producer thread (the TPC-H generator and UTF-8 encoding of the
 * comments) and encoded/compressed on the main thread.
 */
public final class GenerateLineitem {

  private static final long SF1_ROWS = 6_001_215L;
  private static final int BATCH = 4096;

  private GenerateLineitem() {}

  static MessageType schema() {
    LogicalTypeAnnotation str = LogicalTypeAnnotation.stringType();
    LogicalTypeAnnotation date = LogicalTypeAnnotation.dateType();
    return Types.buildMessage()
        .required(PrimitiveTypeName.INT64).named("l_orderkey")
        .required(PrimitiveTypeName.INT64).named("l_partkey")
        .required(PrimitiveTypeName.INT64).named("l_suppkey")
        .required(PrimitiveTypeName.INT32).named("l_linenumber")
        .required(PrimitiveTypeName.DOUBLE).named("l_quantity")
        .required(PrimitiveTypeName.DOUBLE).named("l_extendedprice")
        .required(PrimitiveTypeName.DOUBLE).named("l_discount")
        .required(PrimitiveTypeName.DOUBLE).named("l_tax")
        .required(PrimitiveTypeName.BINARY).as(str).named("l_returnflag")
        .required(PrimitiveTypeName.BINARY).as(str).named("l_linestatus")
        .required(PrimitiveTypeName.INT32).as(date).named("l_shipdate")
        .required(PrimitiveTypeName.INT32).as(date).named("l_commitdate")
        .required(PrimitiveTypeName.INT32).as(date).named("l_receiptdate")
        .required(PrimitiveTypeName.BINARY).as(str).named("l_shipinstruct")
        .required(PrimitiveTypeName.BINARY).as(str).named("l_shipmode")
        .required(PrimitiveTypeName.BINARY).as(str).named("l_comment")
        .named("lineitem");
  }

  /** One batch of generated rows; the comment bytes are encoded on the producer thread. */
  private static final class Batch {
    final LineItem[] items = new LineItem[BATCH];
    final Binary[] comments = new Binary[BATCH];
    int size;
  }

  private static final Batch END = new Batch();

  public static void main(String[] args) throws Exception {
    String out = null;
    double scale = 1.0;
    CompressionCodecName codec = CompressionCodecName.SNAPPY;
    int rowGroups = 50;
    long rowGroupBytes = 0;
    String sortBy = null;
    List<String> bloomFilters = List.of();
    int pageRowLimit = ParquetProperties.DEFAULT_PAGE_ROW_COUNT_LIMIT;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--scale":
          scale = Double.parseDouble(need(args, ++i, a));
          break;
        case "--codec":
          codec = CompressionCodecName.valueOf(need(args, ++i, a).toUpperCase(Locale.ROOT));
          break;
        case "--row-groups":
          rowGroups = Integer.parseInt(need(args, ++i, a));
          break;
        case "--row-group-bytes":
          rowGroupBytes = Long.parseLong(need(args, ++i, a));
          break;
        case "--sort-by":
          sortBy = need(args, ++i, a);
          break;
        case "--bloom-filter":
          bloomFilters = List.of(need(args, ++i, a).split(","));
          break;
        case "--page-row-limit":
          pageRowLimit = Integer.parseInt(need(args, ++i, a));
          break;
        case "-h":
        case "--help":
          usage(0);
          break;
        default:
          if (a.startsWith("--") || out != null) {
            System.err.println("unexpected argument: " + a);
            usage(2);
          }
          out = a;
      }
    }
    if (out == null || scale <= 0 || rowGroups <= 0 || rowGroupBytes < 0 || pageRowLimit <= 0) {
      usage(2);
    }
    if (sortBy != null && !SORT_KEYS.containsKey(sortBy)) {
      System.err.println("--sort-by: not one of " + SORT_KEYS.keySet() + ": " + sortBy);
      usage(2);
    }
    for (String column : bloomFilters) {
      if (!schema().containsField(column)) {
        System.err.println("--bloom-filter: no column " + column);
        usage(2);
      }
    }
    long estimatedRows = Math.max(1L, (long) Math.ceil(SF1_ROWS * scale));
    long rowsPerGroup = (estimatedRows + rowGroups - 1) / rowGroups;

    long t0 = System.nanoTime();
    Path outPath = Path.of(out).toAbsolutePath();
    if (outPath.getParent() != null) {
      Files.createDirectories(outPath.getParent());
    }
    Path tmp = outPath.resolveSibling(outPath.getFileName() + ".tmp");
    Layout layout = new Layout(rowGroupBytes > 0 ? Long.MAX_VALUE : rowsPerGroup, rowGroupBytes, sortBy,
        bloomFilters, pageRowLimit);
    long[] written = write(tmp, scale, codec, layout);
    Files.move(tmp, outPath, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    double secs = (System.nanoTime() - t0) / 1e9;
    long size = Files.size(outPath);
    System.out.printf(Locale.ROOT,
        "wrote %s: rows=%d size_bytes=%d (%.1f MiB) row_groups=%d codec=%s scale=%s %sseconds=%.1f%n",
        outPath, written[0], size, size / 1048576.0, written[1], codec, scale, layout.describe(), secs);
  }

  private static String need(String[] args, int i, String opt) {
    if (i >= args.length) {
      System.err.println("missing value for " + opt);
      usage(2);
    }
    return args[i];
  }

  private static void usage(int code) {
    System.err.println("usage: GenerateLineitem OUT.parquet [--scale 1.0]"
        + " [--codec SNAPPY|ZSTD|UNCOMPRESSED|GZIP|LZ4_RAW] [--row-groups 50] [--row-group-bytes N]"
        + " [--sort-by COLUMN] [--bloom-filter COLUMN,...] [--page-row-limit 20000]");
    System.exit(code);
  }

  /** The sort keys {@code --sort-by} takes. */
  private static final Map<String, Comparator<LineItem>> SORT_KEYS = Map.of(
      "l_orderkey", Comparator.comparingLong(LineItem::getOrderKey),
      "l_partkey", Comparator.comparingLong(LineItem::getPartKey),
      "l_suppkey", Comparator.comparingLong(LineItem::getSupplierKey),
      "l_shipdate", Comparator.comparingInt(LineItem::getShipDate),
      "l_commitdate", Comparator.comparingInt(LineItem::getCommitDate),
      "l_receiptdate", Comparator.comparingInt(LineItem::getReceiptDate));

  /**
   * Where rows go: a row group every {@code rowsPerGroup} rows, or by buffered size when
   * {@code rowGroupBytes} is positive; sorted by {@code sortBy} (null: generation order); bloom
   * filters on {@code bloomFilters}; at most {@code pageRowLimit} rows a page.
   */
  private record Layout(long rowsPerGroup, long rowGroupBytes, String sortBy, List<String> bloomFilters,
      int pageRowLimit) {
    /** The settings that differ from the generator's defaults, each followed by a space. */
    String describe() {
      return (rowGroupBytes > 0 ? "row_group_bytes=" + rowGroupBytes + " " : "")
          + (sortBy != null ? "sort_by=" + sortBy + " " : "")
          + (bloomFilters.isEmpty() ? "" : "bloom_filters=" + String.join(",", bloomFilters) + " ")
          + (pageRowLimit != ParquetProperties.DEFAULT_PAGE_ROW_COUNT_LIMIT ? "page_row_limit=" + pageRowLimit + " " : "");
    }
  }

  /** Returns {rows, rowGroups}. */
  private static long[] write(Path path, double scale, CompressionCodecName codec, Layout layout)
      throws Exception {
    MessageType schema = schema();
    ParquetProperties.Builder builder = ParquetProperties.builder()
        .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0)
        .withDictionaryEncoding(true)
        .withPageRowCountLimit(layout.pageRowLimit());
    for (String column : layout.bloomFilters()) {
      builder.withBloomFilterEnabled(column, true);
    }
    ParquetProperties props = builder.build();
    Configuration conf = new Configuration(false);
    CodecFactory codecs = new CodecFactory(conf, props.getPageSizeThreshold());
    CompressionCodecFactory.BytesInputCompressor compressor = codecs.getCompressor(codec);

    BlockingQueue<Batch> queue = new ArrayBlockingQueue<>(64);
    Throwable[] producerError = new Throwable[1];
    Thread producer = new Thread(() -> produce(scale, queue, producerError), "lineitem-gen");
    producer.setDaemon(true);
    producer.start();

    ParquetFileWriter fileWriter = new ParquetFileWriter(new LocalOutputFile(path), schema,
        ParquetFileWriter.Mode.OVERWRITE, Long.MAX_VALUE / 4, 0, null, props);
    fileWriter.start();

    Rows rows = new Rows(fileWriter, compressor, schema, props, layout);
    List<LineItem> all = layout.sortBy() == null ? null : new ArrayList<>();
    while (true) {
      Batch b = queue.poll(1, TimeUnit.SECONDS);
      if (b == null) {
        if (!producer.isAlive() && queue.isEmpty()) {
          break; // producer died without END; error reported below
        }
        continue;
      }
      if (b == END) {
        break;
      }
      for (int i = 0; i < b.size; i++) {
        if (all != null) {
          all.add(b.items[i]);
        } else {
          rows.write(b.items[i], b.comments[i]);
        }
      }
    }
    producer.join();
    if (producerError[0] != null) {
      throw new IOException("row generator failed", producerError[0]);
    }
    if (all != null) {
      all.sort(SORT_KEYS.get(layout.sortBy())); // stable: ties keep generation (l_orderkey) order
      for (LineItem li : all) {
        rows.write(li, Binary.fromConstantByteArray(li.getComment().getBytes(StandardCharsets.UTF_8)));
      }
    }
    rows.finish();
    Map<String, String> kv = new HashMap<>();
    kv.put("turbo-parquet.generator", ("GenerateLineitem tpch lineitem scale=" + scale + " " + layout.describe()).trim());
    fileWriter.end(kv);
    codecs.release();
    return new long[] {rows.totalRows, rows.groups};
  }

  /** Writes rows into row groups, cut by row count or, as parquet-java's writer does, by size. */
  private static final class Rows {
    private final ParquetFileWriter fileWriter;
    private final CompressionCodecFactory.BytesInputCompressor compressor;
    private final MessageType schema;
    private final ParquetProperties props;
    private final Layout layout;
    private final ColumnDescriptor[] cols;
    private final Map<String, Binary> small = new HashMap<>();
    private RowGroup rg;
    private long totalRows;
    private long groups;
    private long inGroup;
    private long nextSizeCheck;

    Rows(ParquetFileWriter fileWriter, CompressionCodecFactory.BytesInputCompressor compressor, MessageType schema,
        ParquetProperties props, Layout layout) {
      this.fileWriter = fileWriter;
      this.compressor = compressor;
      this.schema = schema;
      this.props = props;
      this.layout = layout;
      this.cols = schema.getColumns().toArray(new ColumnDescriptor[0]);
      this.rg = new RowGroup(compressor, schema, props, cols, 0);
      this.nextSizeCheck = props.getMinRowCountForPageSizeCheck();
    }

    void write(LineItem li, Binary comment) throws IOException {
      ColumnWriter[] w = rg.writers;
      w[0].write(li.getOrderKey(), 0, 0);
      w[1].write(li.getPartKey(), 0, 0);
      w[2].write(li.getSupplierKey(), 0, 0);
      w[3].write(li.getLineNumber(), 0, 0);
      w[4].write((double) li.getQuantity(), 0, 0);
      w[5].write(li.getExtendedPrice(), 0, 0);
      w[6].write(li.getDiscount(), 0, 0);
      w[7].write(li.getTax(), 0, 0);
      w[8].write(intern(small, li.getReturnFlag()), 0, 0);
      w[9].write(intern(small, li.getStatus()), 0, 0);
      w[10].write(li.getShipDate(), 0, 0);
      w[11].write(li.getCommitDate(), 0, 0);
      w[12].write(li.getReceiptDate(), 0, 0);
      w[13].write(intern(small, li.getShipInstructions()), 0, 0);
      w[14].write(intern(small, li.getShipMode()), 0, 0);
      w[15].write(comment, 0, 0);
      rg.store.endRecord();
      totalRows++;
      if (++inGroup == layout.rowsPerGroup() || (layout.rowGroupBytes() > 0 && sizeReached())) {
        rg.flush(fileWriter, inGroup);
        groups++;
        inGroup = 0;
        rg = new RowGroup(compressor, schema, props, cols, groups);
      }
    }

    /**
     * parquet-java 1.15's InternalParquetRecordWriter.checkBlockSizeReached: the buffered size is
     * looked at only at some record counts (halfway to the estimated end, at most 10 000 records
     * apart), and the row group ends when it is within two records' size of the limit.
     */
    private boolean sizeReached() {
      if (inGroup < nextSizeCheck) {
        return false;
      }
      long memSize = rg.store.getBufferedSize();
      long recordSize = memSize / inGroup;
      if (memSize > layout.rowGroupBytes() - 2 * recordSize) {
        nextSizeCheck = props.getMinRowCountForPageSizeCheck(); // the next group starts from 0 records
        return true;
      }
      nextSizeCheck = Math.min(
          Math.max(props.getMinRowCountForPageSizeCheck(),
              (inGroup + (long) (layout.rowGroupBytes() / (float) recordSize)) / 2),
          inGroup + props.getMaxRowCountForPageSizeCheck());
      return false;
    }

    void finish() throws IOException {
      if (inGroup > 0) {
        rg.flush(fileWriter, inGroup);
        groups++;
      } else {
        rg.close();
      }
    }
  }

  private static Binary intern(Map<String, Binary> cache, String s) {
    Binary b = cache.get(s);
    if (b == null) {
      b = Binary.fromConstantByteArray(s.getBytes(StandardCharsets.UTF_8));
      cache.put(s, b);
    }
    return b;
  }

  private static void produce(double scale, BlockingQueue<Batch> queue, Throwable[] error) {
    try {
      Iterator<LineItem> it = new LineItemGenerator(scale, 1, 1).iterator();
      Batch b = new Batch();
      while (it.hasNext()) {
        LineItem li = it.next();
        b.items[b.size] = li;
        b.comments[b.size] =
            Binary.fromConstantByteArray(li.getComment().getBytes(StandardCharsets.UTF_8));
        if (++b.size == BATCH) {
          queue.put(b);
          b = new Batch();
        }
      }
      if (b.size > 0) {
        queue.put(b);
      }
      queue.put(END);
    } catch (Throwable t) {
      error[0] = t;
    }
  }

  /** The per-row-group page store and column store, as InternalParquetRecordWriter keeps them. */
  private static final class RowGroup {
    final ColumnChunkPageWriteStore pages;
    final ColumnWriteStore store;
    final ColumnWriter[] writers;

    RowGroup(CompressionCodecFactory.BytesInputCompressor compressor, MessageType schema, ParquetProperties props,
        ColumnDescriptor[] cols, long ordinal) {
      pages = new ColumnChunkPageWriteStore(compressor, schema, props.getAllocator(),
          props.getColumnIndexTruncateLength(), props.getPageWriteChecksumEnabled(), null,
          (int) ordinal);
      store = props.newColumnWriteStore(schema, pages, pages);
      writers = new ColumnWriter[cols.length];
      for (int i = 0; i < cols.length; i++) {
        writers[i] = store.getColumnWriter(cols[i]);
      }
    }

    void flush(ParquetFileWriter fileWriter, long rows) throws IOException {
      fileWriter.startBlock(rows);
      store.flush();
      pages.flushToFileWriter(fileWriter);
      fileWriter.endBlock();
      close();
    }

    void close() {
      store.close();
      pages.close();
    }
  }
}
