package io.turboparquet.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.cli.ColumnDigest;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.fuzz.ParquetJavaDigest;
import io.turboparquet.io.TrackingBufferSource;
import io.turboparquet.storage.SlowFileSystem;
import io.turboparquet.testing.CorruptFiles;
import io.turboparquet.testing.TestFileGenerator;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pipeline that owns a scan's cross-row-group work: row groups of several files read in one
 * order give parquet-java's values, reads ahead cross file boundaries within the memory budget, the
 * next row group opens while the last batch of the current one is in use, a row group's buffers go
 * once its last batch is done with, and closing at any point releases every buffer.
 */
class RowGroupPipelineTest {
  private static final List<String> COLUMNS = List.of("c1", "c4", "c6");
  @TempDir static java.nio.file.Path dir;
  private static java.nio.file.Path first;
  private static java.nio.file.Path second;

  @BeforeAll
  static void writeFiles() throws IOException {
    first = dir.resolve("first.parquet");
    second = dir.resolve("second.parquet");
    // 8 INT64 columns, 30,000 rows, row groups of about 256 KB: several per file
    TestFileGenerator.wideInt64(first, 8, 30_000, 8 * 1024, 256 * 1024, 1);
    TestFileGenerator.wideInt64(second, 8, 20_000, 8 * 1024, 256 * 1024, 2);
  }

  private static ScanOptions options(long memoryBudget) {
    return ScanOptions.builder().batchSize(3000).memoryBudget(memoryBudget).decodeAhead(true).build();
  }

  /** Every row group of both files, in file order, over the projection. */
  private static List<RowGroupRead> reads(ScanContext context, List<String> columns) throws IOException {
    List<RowGroupRead> reads = new ArrayList<>();
    for (java.nio.file.Path file : List.of(first, second)) {
      Path path = ScanHarness.hadoopPath(file);
      FileMetadata meta = ParquetFileScanner.readMetadata(context, path);
      List<ColumnDescriptor> projection = meta.schema().project(columns);
      for (int i = 0; i < meta.rowGroups().size(); i++) {
        reads.add(new RowGroupRead(path, meta, i, projection, null, context.options()));
      }
    }
    return reads;
  }

  /** Digest lines of the reads in order, reading each to its end and deciding ahead after every batch. */
  private static List<String> digest(RowGroupPipeline pipeline, List<ColumnDescriptor> projection)
      throws IOException {
    List<ColumnDigest> digests = projection.stream().map(ColumnDigest::new).toList();
    for (int i = 0; i < pipeline.size(); i++) {
      assertTrue(pipeline.open(i));
      Batch batch;
      while ((batch = pipeline.next()) != null) {
        for (int c = 0; c < digests.size(); c++) {
          digests.get(c).accept(batch.columns().get(c));
        }
        pipeline.decodeAhead();
      }
    }
    return digests.stream().map(ColumnDigest::line).toList();
  }

  @Test
  void rowGroupsOfSeveralFilesGiveParquetJavasValuesAndReadAheadAcrossFiles() throws IOException {
    List<String> expected = ParquetJavaDigest.digest(List.of(first, second), COLUMNS);
    try (ScanHarness harness = new ScanHarness()) {
      TrackingBufferSource buffers = new TrackingBufferSource();
      ScanMetrics metrics = new ScanMetrics();
      ScanContext context = harness.context(options(1L << 30), buffers, metrics);
      List<RowGroupRead> reads = reads(context, COLUMNS);
      assertTrue(reads.size() >= 6, "row groups: " + reads.size());
      try (RowGroupPipeline pipeline = new RowGroupPipeline(context, reads)) {
        assertEquals(expected, digest(pipeline, reads.get(0).projection()));
      }
      assertEquals(0, buffers.outstanding());
      assertEquals(reads.size(), metrics.rowGroups());
      // With room for all, every row group but the first was read ahead, the second file's too.
      assertEquals(reads.size() - 1, metrics.prefetchedRowGroups());
    }
  }

  @Test
  void readsAheadOnlyWhatFitsTheBudgetBesideTheCurrentRowGroup() throws IOException {
    try (ScanHarness harness = new ScanHarness()) {
      TrackingBufferSource buffers = new TrackingBufferSource();
      ScanMetrics metrics = new ScanMetrics();
      List<RowGroupRead> reads = reads(harness.context(options(1L << 30), buffers, new ScanMetrics()), COLUMNS);
      long[] bytes = reads.stream()
          .mapToLong(r -> RowGroupFetch.projectedBytes(r.metadata(), r.rowGroup(), r.projection())).toArray();
      long budget = java.util.Arrays.stream(bytes).max().getAsLong() * 3 / 2; // one and a half row groups
      // Row group i+1 is read ahead while i is current exactly when the two fit the budget together
      // (no three neighbours fit, so depth never matters here).
      int expected = 0;
      for (int i = 0; i + 1 < bytes.length; i++) {
        expected += bytes[i] + bytes[i + 1] <= budget ? 1 : 0;
        assertTrue(i + 2 >= bytes.length || bytes[i] + bytes[i + 1] + bytes[i + 2] > budget);
      }
      assertTrue(expected < bytes.length - 1, "the budget must stop some reads ahead: " + budget);
      ScanContext context = harness.context(options(budget), buffers, metrics);
      List<RowGroupRead> tight = reads.stream().map(r -> new RowGroupRead(r.path(), r.metadata(), r.rowGroup(),
          r.projection(), null, context.options())).toList();
      List<String> expectedValues = ParquetJavaDigest.digest(List.of(first, second), COLUMNS);
      try (RowGroupPipeline pipeline = new RowGroupPipeline(context, tight)) {
        assertEquals(expectedValues, digest(pipeline, tight.get(0).projection()));
      }
      assertEquals(expected, metrics.prefetchedRowGroups());
      assertEquals(0, buffers.outstanding());
    }
  }

  /**
   * Row groups read whole, at their turn or ahead, share one allowance: what finds no room is read
   * at its turn, chunk by chunk, and a scan alone still reads its row groups whole.
   */
  @Test
  void scansSharingAReadAheadAllowanceReadWholeOnlyWhatItHasRoomFor() throws IOException {
    List<String> expected = ParquetJavaDigest.digest(List.of(first, second), COLUMNS);
    try (ScanHarness harness = new ScanHarness()) {
      TrackingBufferSource buffers = new TrackingBufferSource();
      List<RowGroupRead> reads = reads(harness.context(options(1L << 30), buffers, new ScanMetrics()), COLUMNS);
      long largest = reads.stream()
          .mapToLong(r -> RowGroupFetch.projectedBytes(r.metadata(), r.rowGroup(), r.projection())).max().getAsLong();
      ReadAheadAllowance shared = new ReadAheadAllowance(largest * 5 / 2); // the current row group and one ahead
      ScanMetrics firstMetrics = new ScanMetrics();
      ScanMetrics secondMetrics = new ScanMetrics();
      try (RowGroupPipeline a = new RowGroupPipeline(
              harness.context(options(1L << 30), buffers, firstMetrics).withReadAhead(shared), reads);
          RowGroupPipeline b = new RowGroupPipeline(
              harness.context(options(1L << 30), buffers, secondMetrics).withReadAhead(shared), reads)) {
        assertTrue(a.open(0));
        assertEquals(1, firstMetrics.prefetchedRowGroups()); // the memory budget alone would allow four
        long held = shared.held();
        assertTrue(held > largest && held <= largest * 5 / 2, held + " held");
        assertTrue(b.open(0));
        assertEquals(0, secondMetrics.coalescedRanges()); // no room: read chunk by chunk
        assertEquals(0, secondMetrics.prefetchedRowGroups());
        assertEquals(held, shared.held());
        assertTrue(a.open(1)); // row group 0's reads are given back, so row group 2 is read ahead
        assertEquals(2, firstMetrics.prefetchedRowGroups());
        assertTrue(b.next() != null);
      }
      assertEquals(0, shared.held());
      assertEquals(0, buffers.outstanding());
      // Two scans under the allowance, the second while the first holds its last row group: the same
      // values, every byte given back.
      ScanMetrics metrics = new ScanMetrics();
      ScanMetrics otherMetrics = new ScanMetrics();
      try (RowGroupPipeline pipeline = new RowGroupPipeline(
              harness.context(options(1L << 30), buffers, metrics).withReadAhead(shared), reads);
          RowGroupPipeline other = new RowGroupPipeline(
              harness.context(options(1L << 30), buffers, otherMetrics).withReadAhead(shared), reads)) {
        assertEquals(expected, digest(pipeline, reads.get(0).projection()));
        assertEquals(expected, digest(other, reads.get(0).projection()));
      }
      assertTrue(metrics.prefetchedRowGroups() > 0, "read ahead: " + metrics.prefetchedRowGroups());
      assertEquals(0, shared.held());
      assertEquals(0, buffers.outstanding());
      // A scan alone reads its row groups whole even where one is larger than the whole allowance.
      ReadAheadAllowance small = new ReadAheadAllowance(largest / 4);
      ScanMetrics alone = new ScanMetrics();
      try (RowGroupPipeline pipeline = new RowGroupPipeline(
          harness.context(options(1L << 30), buffers, alone).withReadAhead(small), reads)) {
        assertEquals(expected, digest(pipeline, reads.get(0).projection()));
      }
      assertTrue(alone.coalescedRanges() >= reads.size(), "ranges read whole: " + alone.coalescedRanges());
      assertEquals(0, alone.prefetchedRowGroups());
      assertEquals(0, small.held());
      assertEquals(0, buffers.outstanding());
    }
  }

  /**
   * Once the consumer is done with a row group's last batch its reads and pages are released, before
   * the next row group opens (Drill's operators work on that batch meanwhile); the end check made
   * then still fails the row group, at the consumer's next call.
   */
  @Test
  void aRowGroupsBuffersGoOnceItsLastBatchIsDoneWith() throws IOException {
    ScanOptions noReadAhead = options(1L << 30).toBuilder().prefetchRowGroups(false).decodeAhead(false).build();
    try (ScanHarness harness = new ScanHarness()) {
      TrackingBufferSource buffers = new TrackingBufferSource();
      ScanContext context = harness.context(noReadAhead, buffers, new ScanMetrics());
      List<RowGroupRead> reads = reads(context, COLUMNS);
      try (RowGroupPipeline pipeline = new RowGroupPipeline(context, reads)) {
        for (int i = 0; i < 2; i++) {
          assertTrue(pipeline.open(i));
          long rows = 0;
          while (rows < reads.get(i).numRows()) {
            rows += pipeline.next().rows();
            assertTrue(buffers.outstanding() > 0);
            pipeline.decodeAhead();
          }
          assertEquals(0, buffers.outstanding(), "row group " + i + " still holds buffers after its last batch");
          assertNull(pipeline.next());
        }
      }
    }
    // Row group 0 claims 100 rows fewer than its chunks hold.
    java.nio.file.Path cut = dir.resolve("fewer-rows.parquet");
    Files.write(cut, CorruptFiles.withFirstRowGroupShortened(Files.readAllBytes(first), 100));
    try (ScanHarness harness = new ScanHarness()) {
      TrackingBufferSource buffers = new TrackingBufferSource();
      ScanContext context = harness.context(noReadAhead, buffers, new ScanMetrics());
      Path path = ScanHarness.hadoopPath(cut);
      FileMetadata meta = ParquetFileScanner.readMetadata(context, path);
      List<RowGroupRead> reads = List.of(
          new RowGroupRead(path, meta, 0, meta.schema().project(COLUMNS), null, context.options()));
      try (RowGroupPipeline pipeline = new RowGroupPipeline(context, reads)) {
        assertTrue(pipeline.open(0));
        long rows = 0;
        while (rows < reads.get(0).numRows()) {
          rows += pipeline.next().rows();
          pipeline.decodeAhead();
        }
        assertEquals(0, buffers.outstanding());
        ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class, pipeline::next);
        assertTrue(e.getMessage().contains("row group 0") && e.getMessage().contains("holds more values"),
            e.getMessage());
        assertNull(pipeline.next());
      }
    }
  }

  @Test
  void aBatchDecodedAheadHoldsTheAllowanceUntilItIsCollected() throws IOException {
    try (ScanHarness harness = new ScanHarness()) {
      TrackingBufferSource buffers = new TrackingBufferSource();
      List<RowGroupRead> reads = reads(harness.context(options(1L << 30), buffers, new ScanMetrics()), COLUMNS);
      ReadAheadAllowance shared = new ReadAheadAllowance(1L << 30);
      try (RowGroupPipeline pipeline = new RowGroupPipeline(
          harness.context(options(1L << 30), buffers, new ScanMetrics()).withReadAhead(shared), reads)) {
        assertTrue(pipeline.open(0));
        long readAhead = shared.held();
        assertTrue(readAhead > 0);
        Batch batch = pipeline.next();
        long batchBytes = 8L * batch.rows() * COLUMNS.size(); // INT64 columns
        pipeline.decodeAhead();
        assertTrue(shared.held() >= readAhead + batchBytes, shared.held() + " held, " + readAhead + " read ahead");
        assertTrue(pipeline.next() != null); // collected: the batch is the consumer's now
        assertEquals(readAhead, shared.held());
        pipeline.decodeAhead();
      }
      assertEquals(0, shared.held()); // closing with a batch decoding ahead gives it back too
      assertEquals(0, buffers.outstanding());
      // With no room for anything ahead, nothing is read or decoded ahead, and the values stay right.
      ReadAheadAllowance none = new ReadAheadAllowance(0);
      ScanMetrics metrics = new ScanMetrics();
      try (RowGroupPipeline pipeline = new RowGroupPipeline(
          harness.context(options(1L << 30), buffers, metrics).withReadAhead(none), reads)) {
        assertEquals(ParquetJavaDigest.digest(List.of(first, second), COLUMNS),
            digest(pipeline, reads.get(0).projection()));
      }
      assertEquals(0, metrics.prefetchedRowGroups());
      assertEquals(0, buffers.outstanding());
    }
  }

  @Test
  void readsAheadFourRowGroupsAndMoreWhileTheyHoldFewerThanPrefetchBytes() throws IOException {
    // Row groups of about 6 MiB: four ahead hold less than PREFETCH_BYTES (32 MiB), so more are read
    // ahead until they hold at least that much, never past MAX_PREFETCH_DEPTH nor the budget.
    java.nio.file.Path big = dir.resolve("big-row-groups.parquet");
    TestFileGenerator.wideInt64(big, 16, 440_000, 64 * 1024, 6L << 20, 3);
    try (ScanHarness harness = new ScanHarness()) {
      for (long budget : new long[] {1L << 30, 20L << 20}) {
        TrackingBufferSource buffers = new TrackingBufferSource();
        ScanMetrics metrics = new ScanMetrics();
        ScanContext context = harness.context(options(budget), buffers, metrics);
        Path path = ScanHarness.hadoopPath(big);
        FileMetadata meta = ParquetFileScanner.readMetadata(context, path);
        List<ColumnDescriptor> projection = meta.schema().columns();
        List<RowGroupRead> reads = new ArrayList<>();
        for (int i = 0; i < meta.rowGroups().size(); i++) {
          reads.add(new RowGroupRead(path, meta, i, projection, null, context.options()));
        }
        long[] bytes = reads.stream()
            .mapToLong(r -> RowGroupFetch.projectedBytes(r.metadata(), r.rowGroup(), r.projection())).toArray();
        // The rule, applied to the sizes the writer made: ahead of row group 0, within the budget.
        int expected = 0;
        long ahead = 0;
        while (1 + expected < bytes.length && expected < RowGroupPipeline.MAX_PREFETCH_DEPTH
            && (expected < RowGroupPipeline.PREFETCH_DEPTH || ahead < RowGroupPipeline.PREFETCH_BYTES)
            && bytes[0] + ahead + bytes[1 + expected] <= budget) {
          ahead += bytes[1 + expected];
          expected++;
        }
        if (budget == 1L << 30) {
          assertTrue(bytes.length >= 8, "row groups: " + bytes.length);
          long four = bytes[1] + bytes[2] + bytes[3] + bytes[4];
          assertTrue(four < RowGroupPipeline.PREFETCH_BYTES, "four row groups ahead hold " + four);
          assertTrue(expected > RowGroupPipeline.PREFETCH_DEPTH && 1 + expected < bytes.length,
              "more than four ahead, stopped by bytes: " + expected);
        } else {
          assertTrue(expected < RowGroupPipeline.PREFETCH_DEPTH, "the budget stops it first: " + expected);
        }
        try (RowGroupPipeline pipeline = new RowGroupPipeline(context, reads)) {
          assertTrue(pipeline.open(0));
          assertEquals(expected, metrics.prefetchedRowGroups(), "budget " + budget);
          long rows = 0;
          for (int i = 0; i < reads.size(); i++) {
            if (i > 0) {
              assertTrue(pipeline.open(i));
            }
            Batch batch;
            while ((batch = pipeline.next()) != null) {
              rows += batch.rows();
              pipeline.decodeAhead();
            }
          }
          assertEquals(440_000, rows);
        }
        assertEquals(0, buffers.outstanding());
      }
    }
  }

  @Test
  void theLastBatchOfARowGroupOpensTheNextOne() throws IOException {
    try (ScanHarness harness = new ScanHarness()) {
      TrackingBufferSource buffers = new TrackingBufferSource();
      ScanMetrics metrics = new ScanMetrics();
      ScanContext context = harness.context(options(1L << 30), buffers, metrics);
      List<RowGroupRead> reads = reads(context, COLUMNS);
      try (RowGroupPipeline pipeline = new RowGroupPipeline(context, reads)) {
        assertTrue(pipeline.open(0));
        long rows = 0;
        while (rows < reads.get(0).numRows()) {
          rows += pipeline.next().rows();
          assertEquals(1, metrics.rowGroups(), "opened before the last batch of row group 0 was used");
          pipeline.decodeAhead();
        }
        // Done with row group 0's last batch: row group 1 is open and its first batch decoding.
        assertEquals(2, metrics.rowGroups());
        assertNull(pipeline.next());
        assertTrue(pipeline.open(1));
        assertEquals(2, metrics.rowGroups());
        assertTrue(pipeline.next().rows() > 0);
      }
      assertEquals(0, buffers.outstanding());
    }
  }

  @Test
  void readsWithoutColumnsOrPassedOverReadNothingAndTheRestStayRight() throws IOException {
    try (ScanHarness harness = new ScanHarness()) {
      TrackingBufferSource buffers = new TrackingBufferSource();
      ScanMetrics metrics = new ScanMetrics();
      ScanContext context = harness.context(options(1L << 30), buffers, metrics);
      List<RowGroupRead> all = reads(context, COLUMNS);
      List<RowGroupRead> reads = new ArrayList<>(all);
      RowGroupRead second = all.get(1);
      // Row group 1 with no columns (count(*)): row counts only, no bytes.
      reads.set(1, new RowGroupRead(second.path(), second.metadata(), 1, List.of(), null, second.options()));
      try (RowGroupPipeline pipeline = new RowGroupPipeline(context, reads)) {
        assertTrue(pipeline.open(0));
        assertTrue(pipeline.next().rows() > 0);
        assertFalse(pipeline.open(1));
        assertNull(pipeline.next());
        // Row group 2 is passed over (its reads ahead dropped); row group 3 reads whole and right.
        assertTrue(pipeline.open(3));
        List<ColumnDigest> digests = all.get(3).projection().stream().map(ColumnDigest::new).toList();
        Batch batch;
        long rows = 0;
        while ((batch = pipeline.next()) != null) {
          rows += batch.rows();
          for (int c = 0; c < digests.size(); c++) {
            digests.get(c).accept(batch.columns().get(c));
          }
        }
        assertEquals(all.get(3).numRows(), rows);
        assertThrows(IllegalArgumentException.class, () -> pipeline.open(2));
      }
      assertEquals(0, buffers.outstanding());
    }
  }

  /**
   * A filter's per-row-group planning (bloom filter, dictionary and page-index reads) starts for
   * every read on the scan pool as soon as the pipeline exists, not one row group at a time on the
   * consumer's thread; the rows are those of the same scan planned on the consumer's thread, and
   * closing with plannings in flight (on storage with latency) releases every buffer.
   */
  @Test
  void filteredReadsArePlannedAheadOnTheScanPool() throws Exception {
    java.nio.file.Path file = dir.resolve("pruning.parquet");
    PruningFiles.write(file, false);
    Configuration conf = new Configuration();
    conf.set(SlowFileSystem.LATENCY, "20ms");
    try (SlowFileSystem slow = new SlowFileSystem()) {
      slow.initialize(URI.create("slow:///"), conf);
      try (ScanHarness harness = new ScanHarness(slow)) {
        ScanMetrics unused = new ScanMetrics();
        Path path = new Path("slow://" + file.toAbsolutePath());
        FileMetadata meta = ParquetFileScanner.readMetadata(harness.context(options(1L << 30),
            new TrackingBufferSource(), unused), path);
        assertTrue(meta.rowGroups().size() >= 4, "row groups: " + meta.rowGroups().size());
        io.turboparquet.filter.Filter filter = io.turboparquet.filter.Filter.bind(
            io.turboparquet.filter.Predicate.parse("bloomonly = 2005 OR ibloom IN (1003, 4007) OR code = 3000005"),
            meta.schema());
        List<String> digests = new ArrayList<>();
        List<String> rowGroupsPruned = new ArrayList<>();
        // Async with room for the dictionaries ahead; async with the least budget, whose share is less
        // than code's dictionaries (those decisions are left for each row group's turn); synchronous.
        for (long budget : new long[] {1L << 30, ScanOptions.MIN_BUFFER_SIZE, 0}) {
          boolean async = budget > 0;
          TrackingBufferSource buffers = new TrackingBufferSource();
          ScanMetrics metrics = new ScanMetrics();
          ScanContext base = harness.context(options(async ? budget : 1L << 30).toBuilder().asyncPageReads(async)
              .build(), buffers, metrics);
          CountingPool pool = new CountingPool(base.scanPool());
          ScanContext context = new ScanContext(base.fileSystem(), base.options(), buffers, pool, base.decodePool(),
              metrics);
          List<ColumnDescriptor> projection = meta.schema().project(List.of("id", "bloomonly", "ibloom", "name"));
          List<RowGroupRead> reads = new ArrayList<>();
          for (int i = 0; i < meta.rowGroups().size(); i++) {
            reads.add(new RowGroupRead(path, meta, i, projection, filter, context.options()));
          }
          // A window of them at once; the rest as those end (up to MAX_PREFETCH_DEPTH past the current read).
          int planned = async ? Math.min(reads.size(), RowGroupPipeline.PLANNING_WINDOW) : 0;
          try (RowGroupPipeline pipeline = new RowGroupPipeline(context, reads)) {
            assertTrue(pool.tasks() >= planned && pool.tasks() <= (async ? reads.size() : 0),
                "plannings started with the pipeline: " + pool.tasks());
            List<ColumnDigest> columns = projection.stream().map(ColumnDigest::new).toList();
            for (int i = 0; i < pipeline.size(); i++) {
              pipeline.open(i);
              Batch batch;
              while ((batch = pipeline.next()) != null) {
                for (int c = 0; c < columns.size(); c++) {
                  columns.get(c).accept(batch.columns().get(c));
                }
                pipeline.decodeAhead();
              }
            }
            digests.add(columns.stream().map(ColumnDigest::line).toList().toString());
          }
          assertEquals(0, buffers.outstanding());
          rowGroupsPruned.add(metrics.rowGroupsPrunedByBloomFilter() + " by bloom filter, "
              + metrics.rowGroupsPrunedByDictionary() + " by dictionary");
          // Closed at once: the plannings under way finish and release what they read.
          int before = pool.tasks();
          try (RowGroupPipeline pipeline = new RowGroupPipeline(context, reads)) {
            assertTrue(pool.tasks() - before >= planned);
          }
          assertEquals(0, buffers.outstanding(), "buffers held after closing with plannings in flight");
        }
        assertEquals(List.of(digests.get(2), digests.get(2)), digests.subList(0, 2));
        assertEquals(List.of(rowGroupsPruned.get(2), rowGroupsPruned.get(2)), rowGroupsPruned.subList(0, 2));
        assertTrue(!rowGroupsPruned.get(2).startsWith("0 ") && !rowGroupsPruned.get(2).endsWith(" 0 by dictionary"),
            "both prune: " + rowGroupsPruned.get(2));
      }
    }
  }

  /** The scan pool, counting the tasks handed to it. */
  private static final class CountingPool extends java.util.concurrent.AbstractExecutorService {
    private final java.util.concurrent.ExecutorService pool;
    private final java.util.concurrent.atomic.AtomicInteger tasks = new java.util.concurrent.atomic.AtomicInteger();

    CountingPool(java.util.concurrent.ExecutorService pool) {
      this.pool = pool;
    }

    int tasks() {
      return tasks.get();
    }

    @Override
    public void execute(Runnable command) {
      tasks.incrementAndGet();
      pool.execute(command);
    }

    @Override
    public void shutdown() {
      throw new UnsupportedOperationException("shared");
    }

    @Override
    public List<Runnable> shutdownNow() {
      throw new UnsupportedOperationException("shared");
    }

    @Override
    public boolean isShutdown() {
      return pool.isShutdown();
    }

    @Override
    public boolean isTerminated() {
      return pool.isTerminated();
    }

    @Override
    public boolean awaitTermination(long timeout, java.util.concurrent.TimeUnit unit) throws InterruptedException {
      return pool.awaitTermination(timeout, unit);
    }
  }

  @Test
  void closingWhileReadsAheadAreInFlightReleasesEveryBuffer() throws Exception {
    Configuration conf = new Configuration();
    conf.set(SlowFileSystem.LATENCY, "40ms");
    conf.setLong(SlowFileSystem.STREAM_BANDWIDTH, 4L << 20);
    try (SlowFileSystem slow = new SlowFileSystem()) {
      slow.initialize(URI.create("slow:///"), conf);
      try (ScanHarness harness = new ScanHarness(slow)) {
        TrackingBufferSource buffers = new TrackingBufferSource();
        ScanMetrics metrics = new ScanMetrics();
        ScanContext context = harness.context(options(1L << 30), buffers, metrics);
        List<RowGroupRead> reads = new ArrayList<>();
        for (RowGroupRead r : reads(harness.context(options(1L << 30), buffers, new ScanMetrics()), COLUMNS)) {
          reads.add(new RowGroupRead(new Path("slow://" + r.path().toUri().getPath()), r.metadata(), r.rowGroup(),
              r.projection(), null, r.options()));
        }
        RowGroupPipeline pipeline = new RowGroupPipeline(context, reads);
        assertTrue(pipeline.open(0));
        assertTrue(pipeline.next().rows() > 0);
        pipeline.decodeAhead();
        // Row groups of ~256 KB: far fewer bytes ahead than PREFETCH_BYTES, so every later one, up to the most.
        assertEquals(Math.min(RowGroupPipeline.MAX_PREFETCH_DEPTH, reads.size() - 1), metrics.prefetchedRowGroups(),
            "reads ahead in flight");
        assertTrue(buffers.outstanding() > 0);
        pipeline.close();
        assertEquals(0, buffers.outstanding(), "buffers still held after close");
        assertThrows(IllegalStateException.class, () -> pipeline.open(1));
      }
    }
  }
}
