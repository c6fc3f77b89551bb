package io.turboparquet.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.cli.Digester;
import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.FooterReader;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.io.BufferSource;
import io.turboparquet.io.TrackingBufferSource;
import io.turboparquet.storage.SlowFileSystem;
import io.turboparquet.storage.StorageCounters;
import io.turboparquet.testing.OracleDigest;
import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads counted by the slow-storage harness: a row group takes a handful of read calls, not one
 * per page, and no byte of an unprojected column is ever read, in any execution mode.
 */
class CoalescedReadsTest {
  @TempDir static java.nio.file.Path dir;
  private static java.nio.file.Path file;
  private static Path path;
  private static SlowFileSystem fs;
  private static ExecutorService scanPool;
  private static ExecutorService decodePool;

  /** Six columns of mixed types, several row groups of many small pages. */
  private static java.nio.file.Path writeFile(java.nio.file.Path out) throws IOException {
    MessageType schema = Types.buildMessage()
        .required(PrimitiveTypeName.INT64).named("c_long")
        .required(PrimitiveTypeName.DOUBLE).named("c_double")
        .required(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named("c_str")
        .optional(PrimitiveTypeName.INT32).named("c_opt")
        .required(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named("c_dict")
        .required(PrimitiveTypeName.INT32).named("c_int")
        .named("groups");
    Random random = new Random(11);
    String[] words = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"};
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new Path(out.toUri()))
        .withConf(new Configuration()).withType(schema).withCompressionCodec(CompressionCodecName.SNAPPY)
        .withDictionaryEncoding(true).withPageSize(4 * 1024).withRowGroupSize(150 * 1024).build()) {
      for (int r = 0; r < 30_000; r++) {
        Group g = groups.newGroup();
        g.add("c_long", random.nextLong());
        g.add("c_double", random.nextDouble());
        g.add("c_str", words[random.nextInt(words.length)] + random.nextInt(100_000));
        if (random.nextInt(5) != 0) {
          g.add("c_opt", random.nextInt());
        }
        g.add("c_dict", words[random.nextInt(3)]);
        g.add("c_int", random.nextInt(1000));
        writer.write(g);
      }
    }
    return out;
  }

  @BeforeAll
  static void setUp() throws IOException {
    file = writeFile(dir.resolve("groups.parquet"));
    path = new Path("slow://" + file.toAbsolutePath());
    fs = new SlowFileSystem();
    fs.initialize(URI.create("slow:///"), new Configuration());
    scanPool = Executors.newFixedThreadPool(3);
    decodePool = Executors.newFixedThreadPool(2);
  }

  @AfterAll
  static void tearDown() throws IOException {
    scanPool.shutdownNow();
    decodePool.shutdownNow();
    fs.close();
  }

  private static ScanContext context(ScanOptions options, BufferSource buffers, ScanMetrics metrics) {
    return new ScanContext(fs, options, buffers, scanPool, decodePool, metrics);
  }

  private static StorageCounters.PathCounters counters() {
    return fs.counters().forPath(path.toString());
  }

  @Test
  void aRowGroupTakesAHandfulOfReadCallsNotOnePerPage() throws IOException {
    TrackingBufferSource buffers = new TrackingBufferSource();
    ScanMetrics metrics = new ScanMetrics();
    ScanContext context = context(ScanOptions.builder().batchSize(4096).build(), buffers, metrics);
    FileMetadata meta = ParquetFileScanner.readMetadata(context, path);
    fs.counters().reset();
    try (ParquetFileScanner scanner = ParquetFileScanner.open(context, path, meta, null)) {
      while (scanner.next() != null) {
        // decode everything
      }
    }
    assertEquals(0, buffers.outstanding());
    List<StorageCounters.Read> reads = counters().reads();
    assertEquals(metrics.readCalls(), reads.size(), "our read_calls metric is the storage's count");
    assertEquals(metrics.bytesRead(), counters().bytes());
    int rowGroups = meta.rowGroups().size();
    assertTrue(rowGroups >= 3, "row groups: " + rowGroups);
    long pagesPerRowGroup = (metrics.dataPages() + metrics.dictionaryPages()) / rowGroups;
    assertTrue(pagesPerRowGroup >= 20, "pages per row group: " + pagesPerRowGroup);
    for (RowGroupMeta rg : meta.rowGroups()) {
      long start = Long.MAX_VALUE;
      long end = 0;
      for (ColumnChunkMeta c : rg.columns()) {
        start = Math.min(start, c.startOffset());
        end = Math.max(end, c.startOffset() + c.totalCompressedSize());
      }
      long s = start;
      long e = end;
      long calls = reads.stream().filter(r -> r.overlaps(s, e)).count();
      long bytes = reads.stream().filter(r -> r.overlaps(s, e)).mapToLong(StorageCounters.Read::length).sum();
      assertTrue(calls >= 1 && calls <= 2, "row group " + rg.index() + " took " + calls + " read calls");
      assertEquals(e - s, bytes, "row group " + rg.index() + " read exactly once");
    }
  }

  @Test
  void everyModeGivesTheOraclesDigest() throws IOException {
    List<String> expected = OracleDigest.digest(file, null);
    assertEquals(6, expected.size());
    for (boolean coalesce : new boolean[] {false, true}) {
      for (boolean prefetch : new boolean[] {false, true}) {
        for (boolean async : new boolean[] {false, true}) {
          for (boolean buffered : new boolean[] {false, true}) {
            ScanOptions options = ScanOptions.builder().coalescedReads(coalesce).prefetchRowGroups(prefetch)
                .asyncPageReads(async).bufferedReads(buffered).parallelDecode(async != buffered)
                .batchSize(3000).bufferSize(16 * 1024).coalesceMaxSize(32 * 1024).build();
            TrackingBufferSource buffers = new TrackingBufferSource();
            ScanMetrics metrics = new ScanMetrics();
            assertEquals(expected, Digester.digest(context(options, buffers, metrics), path, null), options.toString());
            assertEquals(0, buffers.outstanding(), options.toString());
            // The mode asked for is the mode that ran.
            assertEquals(coalesce, metrics.coalescedRanges() > 0, options.toString());
            assertEquals(coalesce && prefetch && async, metrics.prefetchedRowGroups() > 0, options.toString());
          }
        }
      }
    }
  }

  /**
   * Under an allocator that rounds buffers up to powers of two (Drill's), a range is read in
   * power-of-two pieces, its pages spanning them: the same values, every buffer back, and the
   * reads' buffers waste a fraction of what one buffer per range wastes.
   */
  @Test
  void piecesForARoundingAllocatorGiveTheOraclesDigest() throws IOException {
    List<String> expected = OracleDigest.digest(file, null);
    TrackingBufferSource tracking = new TrackingBufferSource();
    BufferSource rounding = new BufferSource() {
      @Override
      public io.netty.buffer.ByteBuf buffer(int capacity) {
        return tracking.buffer(capacity);
      }

      @Override
      public long cost(int capacity) {
        return roundedUp(capacity);
      }
    };
    for (boolean async : new boolean[] {false, true}) {
      ScanOptions options = ScanOptions.builder().asyncPageReads(async).parallelDecode(async).batchSize(3000)
          .coalesceMaxSize(256 * 1024).build();
      fs.counters().reset();
      assertEquals(expected, Digester.digest(context(options, tracking, new ScanMetrics()), path, null), "exact");
      long wholeRangesWaste = roundingWaste(counters().reads());
      fs.counters().reset();
      assertEquals(expected, Digester.digest(context(options, rounding, new ScanMetrics()), path, null), "async " + async);
      long piecesWaste = roundingWaste(counters().reads());
      assertEquals(0, tracking.outstanding(), "async " + async);
      assertTrue(piecesWaste * 4 < wholeRangesWaste, "pieces waste " + piecesWaste + ", whole ranges " + wholeRangesWaste);
    }
    // The local file system checks the file against its .crc sidecar: one vectored read whose
    // buffer requests are not the parts' (checksums first, then ranges rounded to 512 bytes).
    assertTrue(Files.exists(file.resolveSibling("." + file.getFileName() + ".crc")), "the writer left a .crc");
    FileSystem local = FileSystem.getLocal(new Configuration());
    ScanOptions options = ScanOptions.builder().batchSize(3000).coalesceMaxSize(256 * 1024).build();
    ScanContext checked = new ScanContext(local, options, rounding, scanPool, decodePool, new ScanMetrics());
    assertEquals(expected, Digester.digest(checked, new Path(file.toUri()), null), "checksummed local reads");
    assertEquals(0, tracking.outstanding(), "checksummed local reads");
  }

  private static long roundedUp(int capacity) {
    int size = Math.max(1, capacity);
    return Integer.highestOneBit(size) == size ? size : Integer.highestOneBit(size) << 1;
  }

  /** What rounding each read's buffer up to a power of two would waste (the footer's read included, in both). */
  private static long roundingWaste(List<StorageCounters.Read> reads) {
    return reads.stream().mapToLong(r -> roundedUp((int) r.length()) - r.length()).sum();
  }

  @Test
  void aFailedRangeReadNamesTheFileRowGroupAndColumnAndLeaksNothing() throws IOException {
    java.nio.file.Path copy = dir.resolve("truncated.parquet");
    FileSystem local = FileSystem.getLocal(new Configuration()).getRaw();
    for (boolean async : new boolean[] {false, true}) {
      // slow://: positional reads; the raw local file system: one vectored read when async.
      scanTruncated(fs, new Path("slow://" + copy.toAbsolutePath()), copy, async);
      scanTruncated(local, new Path(copy.toUri()), copy, async);
    }
  }

  /** The footer says more than the file holds once it is cut in half: later row groups' reads fail. */
  private static void scanTruncated(FileSystem fileSystem, Path hadoopPath, java.nio.file.Path copy, boolean async)
      throws IOException {
    Files.copy(file, copy, StandardCopyOption.REPLACE_EXISTING);
    TrackingBufferSource buffers = new TrackingBufferSource();
    ScanContext context = new ScanContext(fileSystem, ScanOptions.builder().asyncPageReads(async).build(), buffers,
        scanPool, decodePool, new ScanMetrics());
    FileMetadata meta = ParquetFileScanner.readMetadata(context, hadoopPath);
    try (FileChannel ch = FileChannel.open(copy, StandardOpenOption.WRITE)) {
      ch.truncate(Files.size(file) / 2);
    }
    IOException e = assertThrows(IOException.class, () -> {
      try (ParquetFileScanner scanner = ParquetFileScanner.open(context, hadoopPath, meta, null)) {
        while (scanner.next() != null) {
          // until the missing half
        }
      }
    });
    String where = hadoopPath + " async " + async + ": " + e.getMessage();
    assertTrue(e.getMessage().contains(copy.toAbsolutePath().toString()), where);
    assertTrue(e.getMessage().contains("row group"), where);
    assertTrue(e.getMessage().contains("column c_"), where);
    assertEquals(0, buffers.outstanding(), where);
  }

  @Test
  void unprojectedColumnsAreNeverReadInAnyMode() throws IOException {
    List<String> columns = List.of("c_long", "c_str", "c_dict");
    List<String> expected = OracleDigest.digest(file, columns);
    FileMetadata meta = ParquetFileScanner.readMetadata(
        context(ScanOptions.defaults(), new TrackingBufferSource(), new ScanMetrics()), path);
    Set<String> projected = Set.copyOf(columns);
    for (boolean coalesce : new boolean[] {false, true}) {
      for (boolean prefetch : new boolean[] {false, true}) {
        for (boolean async : new boolean[] {false, true}) {
          for (boolean buffered : new boolean[] {false, true}) {
            ScanOptions options = ScanOptions.builder().coalescedReads(coalesce).prefetchRowGroups(prefetch)
                .asyncPageReads(async).bufferedReads(buffered).parallelDecode(async == buffered)
                .batchSize(5000).bufferSize(64 * 1024).build();
            fs.counters().reset();
            TrackingBufferSource buffers = new TrackingBufferSource();
            assertEquals(expected, Digester.digest(context(options, buffers, new ScanMetrics()), path, columns),
                options.toString());
            assertEquals(0, buffers.outstanding(), options.toString());
            // The footer's one read is the file's last bytes, whatever columns they hold (its length is
            // not known before it); the scan's own reads are held to the projection.
            long length = Files.size(file);
            StorageCounters.Read footer = new StorageCounters.Read(
                Math.max(0, length - FooterReader.SPECULATIVE_TAIL), Math.min(length, FooterReader.SPECULATIVE_TAIL));
            List<StorageCounters.Read> all = counters().reads();
            assertEquals(1, all.stream().filter(footer::equals).count(), options + ": " + all);
            List<StorageCounters.Read> reads = all.stream().filter(r -> !r.equals(footer)).toList();
            assertTrue(reads.size() > meta.rowGroups().size(), options + ": " + reads.size() + " reads");
            for (RowGroupMeta rg : meta.rowGroups()) {
              for (ColumnDescriptor c : meta.schema().columns()) {
                if (projected.contains(c.dottedPath())) {
                  continue;
                }
                ColumnChunkMeta chunk = rg.column(c.index());
                long s = chunk.startOffset();
                long e = s + chunk.totalCompressedSize();
                for (StorageCounters.Read r : reads) {
                  assertTrue(!r.overlaps(s, e), options + ": read " + r + " touches unprojected column "
                      + c.dottedPath() + " of row group " + rg.index() + " at [" + s + ", " + e + ")");
                }
              }
            }
          }
        }
      }
    }
  }
}
