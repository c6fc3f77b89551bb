package io.turboparquet.drill;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import io.turboparquet.testing.CorruptFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.apache.drill.common.exceptions.UserRemoteException;
import org.apache.drill.exec.memory.BufferAllocator;
import org.apache.drill.exec.proto.UserBitShared.DrillPBError.ErrorType;
import org.apache.drill.test.ClusterTest;
import org.junit.BeforeClass;
import org.junit.FixMethodOrder;
import org.junit.Test;
import org.junit.runners.MethodSorters;

/**
 * Each class of crafted corrupt file ({@link CorruptFiles}) queried through turbo-parquet in one
 * embedded drillbit: the query fails with a DATA_READ user error naming the file (and the column
 * where the damage is in a column chunk), the drillbit's root allocator is back where it was before
 * the query (the fragment released everything), and the next query on the same drillbit reads the
 * intact base file exactly as Drill's built-in reader does. ClusterTest's {@code @AfterClass} closes
 * the cluster, whose allocators fail the close on any leak. Methods run in name order: the huge
 * dictionary entry (valid, and once a JVM crash) last.
 */
@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public class CorruptFilesDrillTest extends ClusterTest {
  private static Path root;

  @BeforeClass
  public static void setup() throws Exception {
    startCluster(EmbeddedDrill.builder(dirTestWatcher).maxParallelization(1));
    root = dirTestWatcher.getRootDir().toPath();
  }

  @Test
  public void c01TruncatedFile() throws Exception {
    failsOnlyItsQuery("truncated", CorruptFiles::truncated, null);
  }

  @Test
  public void c02FooterWithHugeNumChildren() throws Exception {
    failsOnlyItsQuery("children", CorruptFiles::hugeNumChildren, null);
  }

  @Test
  public void c03FooterStringPastItsEnd() throws Exception {
    failsOnlyItsQuery("string", CorruptFiles::stringPastFooter, null);
  }

  @Test
  public void c04PageHeaderWithHugeUncompressedSize() throws Exception {
    failsOnlyItsQuery("pagesize", CorruptFiles::hugeUncompressedPageSize, "id");
  }

  @Test
  public void c05DictionaryIndexOfByteArray() throws Exception {
    dictionaryIndices("s");
  }

  @Test
  public void c06DictionaryIndexOfFixedLenByteArray() throws Exception {
    dictionaryIndices("f");
  }

  @Test
  public void c07DictionaryIndexOfInt96() throws Exception {
    dictionaryIndices("t");
  }

  @Test
  public void c08RepetitionLevelsStartingAtOne() throws Exception {
    failsOnlyItsQuery("rep", dir -> {
      try {
        Path file = dir.resolve("ARROW-GH-45185.parquet");
        Files.copy(Path.of(CorruptFilesDrillTest.class.getResource(
            "/parquet-testing/bad_data/ARROW-GH-45185.parquet").toURI()), file);
        return file;
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }, "x");
  }

  @Test
  public void c09DefinitionLevelAboveTheMax() throws Exception {
    failsOnlyItsQuery("deflevel", CorruptFiles::definitionLevelAboveMax, "s");
  }

  /** A row group claiming 100 rows fewer than its chunks hold: refused, as the CLI refuses it, not cut short. */
  @Test
  public void c10RowGroupClaimingFewerRowsThanItHolds() throws Exception {
    failsOnlyItsQuery("fewer", dir -> CorruptFiles.fewerRowsClaimed(dir, 100), "id");
  }

  /**
   * Not corrupt: a 2.2 MB dictionary entry behind 1,024 indices, the gather that once overflowed and
   * crashed the JVM. It reads in batches under Drill's batch memory, as the built-in reader reads it
   * (an aggregate, so the client is not sent 2.25 GB), and the allocator settles.
   */
  @Test
  public void c99DictionaryEntryTimesIndicesReads() throws Exception {
    Path file = CorruptFiles.hugeDictionaryEntry(Files.createDirectories(root.resolve("huge")));
    String relative = "huge/" + file.getFileName();
    BufferAllocator allocator = cluster.drillbit().getContext().getAllocator();
    long before = allocator.getAllocatedMemory();
    String sql = "select count(*) as n, min(length(v)) as shortest, max(length(v)) as longest from %s";
    Result expected = Result.of(client, String.format(sql, table(relative, "parquet")));
    Result actual = Result.of(client, String.format(sql, table(relative, TurboParquetFormatConfig.NAME)));
    assertEquals(expected.rows(), actual.rows());
    String entry = String.valueOf(CorruptFiles.HUGE_ENTRY);
    assertEquals(List.of(List.of(String.valueOf(CorruptFiles.HUGE_ROWS), entry, entry)), actual.cells());
    assertEquals("the drillbit's direct memory after the query", before, settled(allocator, before));
  }

  /** Indices 0x15555556, 0x80000000 and the dictionary's size, each in a file of its own. */
  private static void dictionaryIndices(String column) throws Exception {
    List<String> failures = new java.util.ArrayList<>();
    for (long index : new long[] {0x15555556L, 0x80000000L, CorruptFiles.DISTINCT}) {
      try {
        failsOnlyItsQuery("dict-" + column + "-" + Long.toHexString(index),
            dir -> CorruptFiles.dictionaryIndex(dir, column, index), column);
      } catch (AssertionError e) {
        failures.add("index 0x" + Long.toHexString(index) + ": " + e.getMessage());
      }
    }
    assertTrue(String.join("\n", failures), failures.isEmpty());
  }

  /**
   * Writes the crafted file into {@code sub}, queries every column of it through turbo-parquet and
   * checks the error, the allocator, and a following query on the intact base file.
   */
  private static void failsOnlyItsQuery(String sub, Function<Path, Path> craft, String column) throws Exception {
    Path dir = Files.createDirectories(root.resolve(sub));
    Path file = craft.apply(dir);
    String table = table(sub + "/" + file.getFileName(), TurboParquetFormatConfig.NAME);
    BufferAllocator allocator = cluster.drillbit().getContext().getAllocator();
    long before = allocator.getAllocatedMemory();
    UserRemoteException error = null;
    try {
      client.queryBuilder().sql("select * from " + table).run();
    } catch (Exception e) {
      for (Throwable t = e; t != null && error == null; t = t.getCause()) {
        error = t instanceof UserRemoteException u ? u : null;
      }
      assertNotNull(file.getFileName() + ": expected a user error, got " + e, error);
    }
    assertNotNull(file.getFileName() + " was read without an error", error);
    String message = error.getMessage();
    assertEquals(file.getFileName() + ": " + message, ErrorType.DATA_READ, error.getErrorType());
    assertTrue("names the file: " + message, message.contains(file.getFileName().toString()));
    if (column != null) {
      assertTrue("names the column " + column + ": " + message, message.contains("column " + column));
    }
    assertEquals(file.getFileName() + ": the drillbit's direct memory after the failed query", before,
        settled(allocator, before));
    // The same drillbit answers the next query, as Drill's built-in reader does.
    Path base = CorruptFiles.base(Files.createDirectories(root.resolve(sub + "-intact")));
    String intact = sub + "-intact/" + base.getFileName();
    Result expected = Result.of(client, "select * from " + table(intact, "parquet"));
    Result actual = Result.of(client, "select * from " + table(intact, TurboParquetFormatConfig.NAME));
    assertEquals(intact + " (schema) after " + file.getFileName(), expected.schema(), actual.schema());
    assertEquals(intact + " (rows) after " + file.getFileName(), expected.rows(), actual.rows());
    assertEquals(CorruptFiles.ROWS, actual.rows().size());
  }

  /** The allocator's memory once the failed query's fragments have closed (they close after the error). */
  static long settled(BufferAllocator allocator, long expected) throws InterruptedException {
    long now = allocator.getAllocatedMemory();
    for (int i = 0; i < 50 && now != expected; i++) {
      Thread.sleep(100);
      now = allocator.getAllocatedMemory();
    }
    return now;
  }

  private static String table(String relative, String type) {
    return "table(dfs.`" + relative + "`(type => '" + type + "'))";
  }
}
