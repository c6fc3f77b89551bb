package io.turboparquet.drill;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import io.turboparquet.testing.CorruptFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.drill.common.exceptions.UserRemoteException;
import org.apache.drill.exec.memory.BufferAllocator;
import org.apache.drill.exec.proto.UserBitShared.DrillPBError.ErrorType;
import org.apache.drill.test.ClusterTest;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * parquet-testing's {@code large_string_map.brotli.parquet} (MAP&lt;STRING, INT32&gt;, each key one
 * 2^30-byte string, BROTLI pages of 1 GiB uncompressed) through turbo-parquet. Read whole, each key
 * became a Drill batch of over 1 GiB, sent to the client as one message, whose transfer outlasted the
 * user connection's 30 s read timeout: the drillbit closed the connection and the client saw
 * "closed unexpectedly. Drillbit down?". Inside Drill pages are limited to 256 MiB by default
 * (format property {@code maxPageBytes}), checked from the page header: the query fails at once with
 * a DATA_READ error naming file, column, page size and the property, nothing near the page's size
 * was ever allocated, and the same client's next query reads as Drill's built-in reader does.
 */
public class LargePageDrillTest extends ClusterTest {
  private static final String FILE = "large_string_map.brotli.parquet";
  /** The key column's page as its header claims it: a 2^30-byte string and its 4-byte length. */
  private static final int PAGE_BYTES = (1 << 30) + 4;

  @BeforeClass
  public static void setup() throws Exception {
    startCluster(EmbeddedDrill.builder(dirTestWatcher).maxParallelization(1));
  }

  @Test
  public void pageOverTheLimitFailsOnlyItsQuery() throws Exception {
    Path root = dirTestWatcher.getRootDir().toPath();
    Files.copy(Path.of(getClass().getResource("/parquet-testing/" + FILE).toURI()), root.resolve(FILE));
    BufferAllocator allocator = cluster.drillbit().getContext().getAllocator();
    long before = allocator.getAllocatedMemory();
    UserRemoteException error = null;
    try {
      client.queryBuilder().sql("select * from " + table(FILE, TurboParquetFormatConfig.NAME)).run();
    } catch (Exception e) {
      for (Throwable t = e; t != null && error == null; t = t.getCause()) {
        error = t instanceof UserRemoteException u ? u : null;
      }
      assertNotNull("expected a user error, got " + e, error);
    }
    assertNotNull(FILE + " was read without an error", error);
    String message = error.getMessage();
    assertEquals(message, ErrorType.DATA_READ, error.getErrorType());
    for (String part : List.of(FILE, "row group 0 column arr.key_value.key", "claims " + PAGE_BYTES + " uncompressed",
        "limit of " + DrillScanOptions.DEFAULT_MAX_PAGE_BYTES, "format property maxPageBytes")) {
      assertTrue("names " + part + ": " + message, message.contains(part));
    }
    assertEquals("the drillbit's direct memory after the failed query", before,
        CorruptFilesDrillTest.settled(allocator, before));
    assertTrue("refused before the page was allocated: peak " + allocator.getPeakMemoryAllocation(),
        allocator.getPeakMemoryAllocation() < DrillScanOptions.DEFAULT_MAX_PAGE_BYTES);

    Path base = CorruptFiles.base(Files.createDirectories(root.resolve("base")));
    String intact = "base/" + base.getFileName();
    String sql = "select count(*) as n, count(s) as s, sum(id) as total, min(s) as lo, max(s) as hi from %s";
    Result expected = Result.of(client, String.format(sql, table(intact, "parquet")));
    Result actual = Result.of(client, String.format(sql, table(intact, TurboParquetFormatConfig.NAME)));
    assertEquals(expected.rows(), actual.rows());
    assertEquals(String.valueOf(CorruptFiles.ROWS), actual.cells().get(0).get(0));
  }

  private static String table(String relative, String type) {
    return "table(dfs.`" + relative + "`(type => '" + type + "'))";
  }
}
