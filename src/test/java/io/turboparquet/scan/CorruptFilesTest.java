package io.turboparquet.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.turboparquet.cli.Digester;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.io.TrackingBufferSource;
import io.turboparquet.testing.CorruptFiles;
import io.turboparquet.testing.OracleDigest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each class of crafted corrupt file ({@link CorruptFiles}) read by the core without Drill: the scan
 * ends with a {@link ParquetCorruptionException} whose message names the file and, for damage inside
 * a column chunk, the row group and column; no buffer stays held (ScanHarness checks).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CorruptFilesTest {
  @TempDir
  static Path dir;
  private static ScanHarness harness;

  @BeforeAll
  static void open() {
    harness = new ScanHarness();
  }

  @AfterAll
  static void close() {
    harness.close();
  }

  @Test
  @Order(1)
  void theBaseFileIsIntact() throws Exception {
    Path base = CorruptFiles.base(dir.resolve("intact"));
    assertEquals(OracleDigest.digest(base, null), harness.digest(base, null, ScanOptions.defaults()));
  }

  @Test
  @Order(2)
  void truncatedFile() {
    corrupt(CorruptFiles.truncated(dir.resolve("truncated")), null);
  }

  @Test
  @Order(3)
  void footerWithHugeNumChildren() {
    corrupt(CorruptFiles.hugeNumChildren(dir.resolve("children")), null);
  }

  @Test
  @Order(4)
  void footerStringPastItsEnd() {
    corrupt(CorruptFiles.stringPastFooter(dir.resolve("string")), null);
  }

  @Test
  @Order(5)
  void pageHeaderWithHugeUncompressedSize() {
    corrupt(CorruptFiles.hugeUncompressedPageSize(dir.resolve("pagesize")), "id");
  }

  @Test
  @Order(6)
  void dictionaryIndicesOutOfRange() {
    List<String> failures = new ArrayList<>();
    for (String column : List.of("s", "f", "t")) {
      Path sub = dir.resolve("dict-" + column);
      int size = CorruptFiles.dictionarySize(CorruptFiles.base(sub), column);
      assertEquals(CorruptFiles.DISTINCT, size, column + ": dictionary entries of the base file");
      for (long index : new long[] {0x15555556L, 0x80000000L, size}) {
        try {
          corrupt(CorruptFiles.dictionaryIndex(sub, column, index), column);
        } catch (AssertionError e) {
          failures.add(column + " index 0x" + Long.toHexString(index) + ": " + e.getMessage());
        }
      }
    }
    assertTrue(failures.isEmpty(), String.join("\n", failures));
  }

  @Test
  @Order(7)
  void repetitionLevelsStartingAtOne() throws Exception {
    Path file = Path.of(CorruptFilesTest.class.getResource("/parquet-testing/bad_data/ARROW-GH-45185.parquet").toURI());
    corrupt(file, "x.list.element");
  }

  @Test
  @Order(8)
  void definitionLevelAboveTheMax() {
    corrupt(CorruptFiles.definitionLevelAboveMax(dir.resolve("deflevel")), "s");
  }

  /** A page of more level entries than maxPageEntries allows fails before its levels are decoded, naming the option. */
  @Test
  @Order(9)
  void pageAboveMaxPageEntries() throws Exception {
    Path base = CorruptFiles.base(dir.resolve("entries"));
    ScanOptions options = ScanOptions.builder().maxPageEntries(10).build();
    ParquetCorruptionException e = org.junit.jupiter.api.Assertions.assertThrows(ParquetCorruptionException.class,
        () -> harness.digest(base, null, options));
    assertTrue(e.getMessage().contains("more than the limit of 10 (option maxPageEntries)"), e.getMessage());
    assertTrue(e.getMessage().contains(base.getFileName().toString()) && e.getMessage().contains("row group 0 column "),
        e.getMessage());
  }

  /**
   * Last: a valid file, not a corrupt one, but the gather that once overflowed and crashed the JVM.
   * A 2.2 MB entry repeated 1,024 times is 2.25 GB of values: they read in batches under the byte
   * limit, equal to parquet-java's, without ever holding the whole.
   */
  @Test
  @Order(100)
  void dictionaryEntryTimesIndicesReadsInBoundedBatches() throws Exception {
    Path file = CorruptFiles.hugeDictionaryEntry(dir.resolve("huge"));
    ScanOptions options = ScanOptions.builder().batchBytes(64L << 20).build();
    TrackingBufferSource buffers = new TrackingBufferSource();
    ScanMetrics metrics = new ScanMetrics();
    List<String> ours = Digester.digest(harness.context(options, buffers, metrics), ScanHarness.hadoopPath(file), null);
    assertEquals(0, buffers.outstanding(), "buffers leaked");
    assertEquals(OracleDigest.digest(file, null), ours);
    assertTrue(buffers.peakBytes() < 200L << 20, "peak direct bytes " + buffers.peakBytes());
  }

  /** Scanning every column of {@code file} fails with a corruption error naming it (and the column). */
  private static void corrupt(Path file, String column) {
    List<String> digest;
    try {
      digest = harness.digest(file, null, ScanOptions.defaults());
    } catch (ParquetCorruptionException e) {
      String m = e.getMessage();
      assertTrue(m.startsWith("[") && m.contains(file.getFileName().toString()), "names the file: " + m);
      if (column != null) {
        assertTrue(m.contains("row group 0") && m.contains("column " + column), "names row group and column: " + m);
      }
      return;
    } catch (Exception | AssertionError | OutOfMemoryError e) {
      // An OutOfMemoryError too: an allocation the file's claims alone made large (JUnit would abort the run).
      throw new AssertionError(file.getFileName() + ": expected a ParquetCorruptionException, got " + e, e);
    }
    fail(file.getFileName() + " read without an error: " + digest);
  }
}
