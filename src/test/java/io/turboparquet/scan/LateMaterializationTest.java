package io.turboparquet.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.filter.Predicate;
import io.turboparquet.format.Encoding;
import io.turboparquet.format.EncodingStats;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.FooterOptions;
import io.turboparquet.io.TrackingBufferSource;
import io.turboparquet.scan.PageIndexSkippingTest.Oracle;
import io.turboparquet.scan.PageIndexSkippingTest.Rows;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Late materialization alone (no page index, no pruning): the filter's columns are decoded first,
 * a batch without a candidate row is neither returned nor decoded in its other columns, and the
 * batches the filter keeps at most half of are compacted to the rows it keeps. Checked against the full scan for random
 * filters (every matching row returned and no other that the filter can judge, every returned row
 * with the full scan's values, the skipped and filtered rows counted), in the read modes of the
 * page-index tests and with byte-limited batches (where columns end batches at different rows and
 * carry rows over).
 */
class LateMaterializationTest {
  @TempDir static Path dir;
  static Path v1;
  static Path v2;
  /** V1 pages with dictionaries of 128 bytes: {@code day}'s chunks switch from dictionary to plain pages. */
  static Path fallback;

  /** Only late materialization, in the three read modes, and with batches cut short by bytes. */
  static final List<ScanOptions> MODES = PageIndexSkippingTest.MODES.stream()
      .map(o -> o.toBuilder().pageIndexSkipping(false).dictionaryPruning(false).bloomFilterPruning(false)
          .batchSize(600).build())
      .toList();

  @BeforeAll
  static void write() throws IOException {
    v1 = dir.resolve("v1.parquet");
    v2 = dir.resolve("v2.parquet");
    PageIndexFiles.write(v1, 40_000, false, 1);
    PageIndexFiles.write(v2, 30_000, true, 2);
    fallback = dir.resolve("fallback.parquet");
    PageIndexFiles.write(fallback, 30_000, false, 3, 128);
    PageIndexSkippingTest.harness = new ScanHarness();
  }

  @AfterAll
  static void close() {
    PageIndexSkippingTest.harness.close();
  }

  @Test
  void randomFiltersKeepEveryMatchingRowAndSkipBatchesWithoutOne() throws IOException {
    long skipped = 0;
    for (Path file : List.of(v1, v2, fallback)) {
      Rows full = PageIndexSkippingTest.scan(file, null, ScanOptions.defaults());
      SplittableRandom random = new SplittableRandom(file.hashCode() + 17);
      for (int i = 0; i < 60; i++) {
        Predicate p = Oracle.randomPredicate(random, full, 1 + random.nextInt(3));
        Rows got = PageIndexSkippingTest.check(file, full, p, MODES.get(i % MODES.size()));
        assertEquals(0, got.metrics().pagesSkipped());
        skipped += got.metrics().lateSkippedRows();
      }
    }
    assertTrue(skipped > 100_000, "rows skipped by late materialization: " + skipped);
  }

  @Test
  void aSelectiveFilterDecodesTheOtherColumnsOfMatchingBatchesOnly() throws IOException {
    Rows full = PageIndexSkippingTest.scan(v1, null, ScanOptions.defaults());
    for (ScanOptions options : MODES) {
      Rows got = PageIndexSkippingTest.check(v1, full, Predicate.parse("down = 20000"), options);
      assertTrue(got.rows().size() <= 600, "rows returned: " + got.rows().size()); // the one batch holding it
      assertEquals(1, got.rows().size());
      assertEquals(full.rows().size() - 1, got.metrics().lateSkippedRows() + got.metrics().filteredRows());
      assertTrue(got.metrics().dataPages() < full.metrics().dataPages() / 3,
          "pages decoded " + got.metrics().dataPages() + " of " + full.metrics().dataPages());
    }
  }

  @Test
  void aFilterMostBatchesMatchIsGivenUpAndOffMeansEverything() throws IOException {
    Rows full = PageIndexSkippingTest.scan(v1, null, ScanOptions.defaults());
    // Every batch has a candidate: after the trial batches, late materialization stops judging.
    for (ScanOptions options : MODES) {
      Rows most = PageIndexSkippingTest.check(v1, full, Predicate.parse("key >= 0"), options);
      assertEquals(full.rows().size(), most.rows().size());
    }
    Rows off = PageIndexSkippingTest.scan(v1, Predicate.parse("down = 20000"),
        MODES.get(0).toBuilder().lateMaterialization(false).build());
    assertEquals(full.rows().size(), off.rows().size());
    assertEquals(0, off.metrics().lateSkippedRows());
  }

  /**
   * Late materialization given up on the row group's last batch, a skipped one: the columns that
   * passed over its rows are not held to reading the chunk to its end.
   */
  @Test
  void givingUpOnTheLastBatchStillEndsTheRowGroupCleanly() throws IOException {
    Path sorted = dir.resolve("sorted.parquet");
    PageIndexFiles.writeSorted(sorted, 8_000, 1_000); // one row group, batches of 1,000: 8
    ScanOptions options = MODES.get(1).toBuilder().batchSize(1_000).build();
    Rows got = PageIndexSkippingTest.scan(sorted, Predicate.parse("key < 5000"), options);
    assertEquals(5_000, got.rows().size()); // batches 1-5 match; 6-8 are skipped, the 8th gives it up
    assertEquals(3_000, got.metrics().lateSkippedRows());
  }

  /**
   * A batch with candidates is cut to its first candidate through its last when the rows outside
   * them are at least a quarter of it: a lookup returns the matching row alone, not its batch, and
   * candidates near a batch's start keep the rows before them.
   */
  @Test
  void batchesAreCutToTheRowsFromTheirFirstCandidateToTheirLast() throws IOException {
    Path sorted = dir.resolve("sorted-cut.parquet");
    PageIndexFiles.writeSorted(sorted, 8_000, 1_000); // key = row; batches of 1,000
    Rows full = PageIndexSkippingTest.scan(sorted, null, ScanOptions.defaults());
    ScanOptions options = MODES.get(1).toBuilder().batchSize(1_000).build();
    // Row 2500 is 500 rows into its batch: those are passed over, then the 999 after it.
    Rows one = PageIndexSkippingTest.check(sorted, full, Predicate.parse("key = 2500"), options);
    assertEquals(1, one.rows().size());
    assertTrue(one.rows().containsKey(2_500L));
    assertEquals(7_999, one.metrics().lateSkippedRows());
    // Candidates 100 and 150 rows into the batch: under a quarter before them, so rows 2000-2150
    // are decoded, and the two matching rows returned.
    Rows two = PageIndexSkippingTest.check(sorted, full, Predicate.parse("key IN (2100, 2150)"), options);
    assertEquals(List.of(2_100L, 2_150L), List.copyOf(two.rows().keySet()));
    assertEquals(8_000 - 151, two.metrics().lateSkippedRows());
    assertEquals(149, two.metrics().filteredRows());
    // Matches spread over the whole of every batch: nothing to cut, and after the trial batches
    // late materialization is given up; the rows are still judged, so the matching ones come back.
    Predicate spreadOut = Predicate.parse("qty = 7 OR qty = 8 OR key < 1");
    Rows spread = PageIndexSkippingTest.check(sorted, full, spreadOut, options);
    long matching = full.rows().values().stream().filter(r -> Oracle.matches(spreadOut, full.columns(), r)).count();
    assertTrue(matching > 100 && matching < 4_000, "matching rows: " + matching);
    assertEquals(matching, spread.rows().size());
    assertEquals(0, spread.metrics().lateSkippedRows());
    assertEquals(8_000 - matching, spread.metrics().filteredRows());
  }

  /** The fallback file is what it is for: chunks whose data pages are dictionary-encoded, then plain. */
  @Test
  void theFallbackFileSwitchesFromDictionaryToPlainPagesInsideChunks() throws IOException {
    try (ScanHarness harness = new ScanHarness()) {
      ScanContext context = harness.context(MODES.get(0), new TrackingBufferSource(), new ScanMetrics());
      FileMetadata meta = ParquetFileScanner.readMetadata(context, ScanHarness.hadoopPath(fallback));
      int dictionary = EncodingStats.bit(Encoding.PLAIN_DICTIONARY) | EncodingStats.bit(Encoding.RLE_DICTIONARY);
      long switching = meta.rowGroups().stream().flatMap(g -> g.columns().stream())
          .map(c -> c.encodingStats().dataPageEncodings())
          .filter(e -> (e & dictionary) != 0 && (e & EncodingStats.bit(Encoding.PLAIN)) != 0)
          .count();
      assertTrue(switching >= 3, "chunks with dictionary and plain data pages: " + switching);
    }
  }

  @Test
  void aFilterOnAColumnNotProjectedSkipsNothing() throws IOException {
    try (ScanHarness harness = new ScanHarness()) {
      TrackingBufferSource buffers = new TrackingBufferSource();
      ScanMetrics metrics = new ScanMetrics();
      ScanContext context = harness.context(MODES.get(0), buffers, metrics);
      org.apache.hadoop.fs.Path path = ScanHarness.hadoopPath(v1);
      FileMetadata meta = ParquetFileScanner.readMetadata(context, path);
      long rows = 0;
      try (ParquetFileScanner s = ParquetFileScanner.open(context, path, meta, List.of("key", "s"),
          Predicate.parse("down = 20000"))) {
        Batch b;
        while ((b = s.next()) != null) {
          rows += b.rows();
        }
      }
      assertEquals(40_000, rows);
      assertEquals(0, metrics.lateSkippedRows());
      assertEquals(0, buffers.outstanding());
    }
  }

  /**
   * The scan drops the rows its filter rules out only from batches of which it keeps at most half;
   * a batch it keeps more of goes on whole, and once the first eight batches of a row group all
   * did, the rest of it is not judged. (Only the filter's column is projected, so late
   * materialization has nothing to pass over.)
   */
  @Test
  void onlyBatchesTheFilterKeepsAtMostHalfOfAreCompacted() throws IOException {
    Path sorted = dir.resolve("sorted-dense.parquet");
    PageIndexFiles.writeSorted(sorted, 20_000, 1_000); // one row group, batches of 1,000: 20
    ScanOptions options = MODES.get(0).toBuilder().batchSize(1_000).build();
    List<String> key = List.of("key");
    // Batches 1-8 keep every row: judging stops, and the one match in batch 13 comes with its batch.
    Rows dense = PageIndexSkippingTest.scan(sorted, key, Predicate.parse("key < 8000 OR key = 12345"), options,
        FooterOptions.DEFAULT);
    assertEquals(20_000, dense.rows().size());
    assertEquals(0, dense.metrics().filteredRows());
    // The first batch keeps one row: compacted, so judging goes on and every batch is judged.
    Predicate sparseFirst = Predicate.parse("key = 100 OR (key >= 1000 AND key < 8000) OR key = 12345");
    Rows exact = PageIndexSkippingTest.scan(sorted, key, sparseFirst, options, FooterOptions.DEFAULT);
    assertEquals(7_002, exact.rows().size());
    assertEquals(20_000 - 7_002, exact.metrics().filteredRows());
    assertEquals(exact.rows().keySet(), exact.judged());
    // A batch kept 60% goes on whole, one kept 50% is compacted.
    Predicate mixed = Predicate.parse("key = 100 OR (key >= 1000 AND key < 1600) OR (key >= 2000 AND key < 2500)");
    Rows half = PageIndexSkippingTest.scan(sorted, key, mixed, options, FooterOptions.DEFAULT);
    assertEquals(1 + 1_000 + 500, half.rows().size());
    assertEquals(20_000 - half.rows().size(), half.metrics().filteredRows());
    assertEquals(half.rows().size() - 1_000, half.judged().size());
  }
}
