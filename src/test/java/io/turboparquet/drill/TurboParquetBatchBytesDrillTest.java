package io.turboparquet.drill;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.turboparquet.testing.GeneratedFile;
import io.turboparquet.testing.TestFileGenerator;
import io.turboparquet.testing.TestFileGenerator.StringEncoding;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.drill.exec.ExecConstants;
import org.apache.drill.exec.physical.rowSet.DirectRowSet;
import org.apache.drill.test.ClusterTest;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Batches bounded in bytes inside Drill: a file with strings of mixed sizes (some of several MB),
 * flat and nested, read through {@code turbo-parquet} with a small byte limit per column (from the
 * format config's {@code batchBytes}, and from {@code store.parquet.flat.batch.memory_size}) gives
 * the rows Drill's built-in reader gives, in many more batches than the rows alone would make.
 */
public class TurboParquetBatchBytesDrillTest extends ClusterTest {
  private static String table;

  @BeforeClass
  public static void setup() throws Exception {
    startCluster(EmbeddedDrill.builder(dirTestWatcher).maxParallelization(1));
    Path dir = Files.createDirectories(dirTestWatcher.getRootDir().toPath().resolve("large"));
    GeneratedFile file = TestFileGenerator.largeStrings(dir, CompressionCodecName.SNAPPY, StringEncoding.PLAIN, 240, 99);
    table = "large/" + file.path().getFileName();
  }

  @Test
  public void flatColumnsWithTheFormatsByteLimit() throws Exception {
    String columns = "id, s, r, n";
    Result expected = Result.of(client, "select " + columns + " from " + builtIn());
    String turbo = "table(dfs.`" + table + "`(type => 'turbo-parquet', batchBytes => 262144))";
    Result actual = Result.of(client, "select " + columns + " from " + turbo);
    same(expected, actual, columns);
    int batches = batches("select " + columns + " from " + turbo);
    assertTrue("batches of at most 256 KiB a column: " + batches, batches >= 20);
  }

  @Test
  public void flatColumnsWithDrillsBatchMemoryOption() throws Exception {
    String columns = "id, s, r";
    String turbo = "table(dfs.`" + table + "`(type => 'turbo-parquet'))";
    int before = batches("select " + columns + " from " + turbo);
    client.alterSession(ExecConstants.PARQUET_FLAT_BATCH_MEMORY_SIZE, 1 << 20);
    try {
      Result expected = Result.of(client, "select " + columns + " from " + builtIn());
      Result actual = Result.of(client, "select " + columns + " from " + turbo);
      same(expected, actual, columns);
      int after = batches("select " + columns + " from " + turbo);
      assertTrue("batches with a 1 MiB batch memory: " + after + ", with the default: " + before,
          after > before && after >= 8);
    } finally {
      client.resetSession(ExecConstants.PARQUET_FLAT_BATCH_MEMORY_SIZE);
    }
  }

  @Test
  public void nestedColumnsWithTheFormatsByteLimit() throws Exception {
    String columns = "id, tags, attrs, s";
    Result expected = Result.of(client, "select " + columns + " from " + builtIn());
    String turbo = "table(dfs.`" + table + "`(type => 'turbo-parquet', batchBytes => 262144))";
    Result actual = Result.of(client, "select " + columns + " from " + turbo);
    same(expected, actual, columns);
    int batches = batches("select " + columns + " from " + turbo);
    assertTrue("nested batches of at most 256 KiB a column: " + batches, batches >= 20);
  }

  private static String builtIn() {
    return "table(dfs.`" + table + "`(type => 'parquet'))";
  }

  private static void same(Result expected, Result actual, String columns) {
    assertEquals(columns + " (schema)", expected.schema(), actual.schema());
    assertEquals(columns + " (row count)", 240, actual.rows().size());
    assertEquals(columns + " (row count)", expected.rows().size(), actual.rows().size());
    for (int i = 0; i < expected.rows().size(); i++) {
      // Compared row by row: a failure message of whole rows of several MB would be unreadable.
      assertTrue(columns + ": sorted row " + i + " differs", expected.rows().get(i).equals(actual.rows().get(i)));
    }
  }

  /** The number of non-empty batches the query returns (one fragment, so the scan's batches). */
  private static int batches(String sql) throws Exception {
    int n = 0;
    for (DirectRowSet batch : client.queryBuilder().sql(sql).rowSetIterator()) {
      n += batch.rowCount() > 0 ? 1 : 0;
      batch.clear();
    }
    return n;
  }
}
