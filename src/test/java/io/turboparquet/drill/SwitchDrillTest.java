package io.turboparquet.drill;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.drill.exec.ExecConstants;
import org.apache.drill.exec.store.dfs.FileSystemConfig;
import org.apache.drill.exec.store.dfs.WorkspaceConfig;
import org.apache.drill.exec.store.parquet.metadata.Metadata;
import org.apache.drill.test.ClusterFixture;
import org.apache.drill.test.ClusterTest;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The switch: a file system plugin whose {@code "parquet"} format entry has type
 * {@code turbo-parquet} ({@code tdfs} here) against the same plugin with Drill's own entry
 * ({@code dfs}), over the same files. Every statement runs through both and must give the same
 * schema, the same rows and plans that read the same files and row groups (with and without a
 * metadata cache, with partition and row-group pruning), and plain queries on {@code tdfs} must
 * be read by our scan. Drill's allocator checks for leaks when the cluster shuts down.
 */
public class SwitchDrillTest extends ClusterTest {

  private static Path root;

  @BeforeClass
  public static void setup() throws Exception {
    startCluster(EmbeddedDrill.builder(dirTestWatcher).maxParallelization(1));
    root = dirTestWatcher.getRootDir().toPath();
    defineSwitch(cluster, "tdfs");
    // The plugin earlier releases shipped: turbo-parquet its only format, under its own name.
    FileSystemConfig dfs = (FileSystemConfig) cluster.storageRegistry().getStoredConfig("dfs");
    FileSystemConfig turboOnly = new FileSystemConfig(dfs.getConnection(), dfs.getConfig(), dfs.getWorkspaces(),
        Map.of(TurboParquetFormatConfig.NAME, new TurboParquetFormatConfig()), null);
    turboOnly.setEnabled(true);
    cluster.defineStoragePlugin("turbo", turboOnly);
    for (String table : List.of("sales", "sales_cached_b", "sales_cached_t", "sales_stats_b", "sales_stats_t")) {
      SalesTable.write(root.resolve(table));
    }
    writeDrift(root.resolve("drift"));
  }

  /** A copy of {@code dfs} whose {@code "parquet"} format entry has type turbo-parquet. */
  static void defineSwitch(ClusterFixture cluster, String name) {
    FileSystemConfig dfs = (FileSystemConfig) cluster.storageRegistry().getStoredConfig("dfs");
    Map<String, WorkspaceConfig> workspaces = new HashMap<>(dfs.getWorkspaces());
    Map<String, org.apache.drill.common.logical.FormatPluginConfig> formats = new HashMap<>(dfs.getFormats());
    formats.put("parquet", new TurboParquetFormatConfig());
    formats.remove(TurboParquetFormatConfig.NAME);
    FileSystemConfig switched = new FileSystemConfig(dfs.getConnection(), dfs.getConfig(), workspaces, formats, null);
    switched.setEnabled(true);
    cluster.defineStoragePlugin(name, switched);
  }

  /** Two files whose schemas differ: b.parquet lacks the VARCHAR column {@code extra}. */
  private static void writeDrift(Path dir) throws IOException {
    Files.createDirectories(dir);
    MessageType withExtra = MessageTypeParser.parseMessageType(
        "message t { required int64 id; optional binary extra (UTF8); }");
    MessageType without = MessageTypeParser.parseMessageType("message t { required int64 id; }");
    for (String name : List.of("a", "b")) {
      MessageType schema = name.equals("a") ? withExtra : without;
      SimpleGroupFactory groups = new SimpleGroupFactory(schema);
      try (ParquetWriter<Group> w = ExampleParquetWriter.builder(
          new org.apache.hadoop.fs.Path(dir.resolve(name + ".parquet").toUri()))
          .withConf(new Configuration()).withType(schema).build()) {
        for (int i = 0; i < 3_000; i++) {
          Group g = groups.newGroup();
          long id = name.equals("a") ? i : 3_000 + i;
          g.add("id", id);
          if (schema == withExtra) {
            g.add("extra", "x" + id);
          }
          w.write(g);
        }
      }
    }
  }

  @Test
  public void plainQueriesReadThroughTurbo() throws Exception {
    String plain = explain("select key from tdfs.`sales`");
    assertTrue(plain, plain.contains("TurboParquetGroupScan"));
    String builtIn = explain("select key from dfs.`sales`");
    assertTrue(builtIn, builtIn.contains("ParquetGroupScan") && !builtIn.contains("TurboParquetGroupScan"));
    // A table function still picks the reader per query, either way round.
    String back = explain("select key from table(tdfs.`sales`(type => 'parquet'))");
    assertTrue(back, back.contains("ParquetGroupScan") && !back.contains("TurboParquetGroupScan"));
    String forward = explain("select key from table(dfs.`sales`(type => 'turbo-parquet'))");
    assertTrue(forward, forward.contains("TurboParquetGroupScan"));
  }

  @Test
  public void sameRowsAndPlansAsTheBuiltInReader() throws Exception {
    long total = SalesTable.ROWS;
    int rowGroups = SalesTable.rowGroups(root.resolve("sales"));
    assertTrue("several row groups per file: " + rowGroups, rowGroups >= 2 * SalesTable.YEARS * SalesTable.MONTHS);
    same("select * from %s.`sales`", rowGroups);
    same("select key, amount, name, day from %s.`sales`", rowGroups);
    same("select key, dir0, dir1, filename, suffix, fqn, filepath from %s.`sales` where mod(key, 997) = 0", rowGroups);
    // Partition pruning (directories), row-group pruning (the sorted key), and both together.
    same("select key, name from %s.`sales` where dir0 = 'year=2023'", rowGroups / SalesTable.YEARS);
    same("select key from %s.`sales` where dir0 = 'year=2023' and dir1 = 'month=02'", -1);
    same("select key, amount from %s.`sales` where key >= 20000 and key < 20100", -1);
    same("select key, amount from %s.`sales` where dir0 = 'year=2024' and key < 26000", -1);
    same("select key from %s.`sales` where name = 'n17' or amount is null", rowGroups);
    assertEquals(total, client.queryBuilder().sql("select count(*) from tdfs.`sales`").singletonLong());
    same("select count(*) from %s.`sales` where key > 30000", -1);
    same("select count(name), sum(amount), min(day), max(key) from %s.`sales` where dir1 = 'month=01'", -1);
    same("select * from %s.`sales/year=2022/month=01/part.parquet` where key < 50", -1);
    assertEquals(7, Result.of(client, "select * from tdfs.`sales` limit 7").rows().size());
  }

  @Test
  public void metadataCache() throws Exception {
    // The cache written through the switch serves both readers, and plans read the same row groups.
    List<String> refreshed = Result.of(client, "refresh table metadata tdfs.`sales_cached_t`").cells().get(0);
    assertEquals(refreshed.toString(), "true", refreshed.get(0));
    for (String file : Metadata.CURRENT_METADATA_FILENAMES) {
      assertTrue(file, Files.exists(root.resolve("sales_cached_t").resolve(file)));
    }
    client.queryBuilder().sql("refresh table metadata dfs.`sales_cached_b`").run();
    int rowGroups = SalesTable.rowGroups(root.resolve("sales_cached_t"));
    for (String where : List.of("", "where dir0 = 'year=2023'", "where dir0 = 'year=2023' and key < 15000",
        "where dir1 = 'month=02' and key >= 20000", "where key between 100 and 200")) {
      String sql = "select key, name, dir0, dir1 from %s " + where;
      Result expected = Result.of(client, String.format(sql, "dfs.`sales_cached_b`"));
      Result actual = Result.of(client, String.format(sql, "tdfs.`sales_cached_t`"));
      assertEquals(where, expected.schema(), actual.schema());
      assertEquals(where, expected.rows(), actual.rows());
      ScanPlan b = ScanPlan.of(client, String.format(sql, "dfs.`sales_cached_b`"));
      ScanPlan t = ScanPlan.of(client, String.format(sql, "tdfs.`sales_cached_t`"));
      assertEquals(where + ": " + t.text(), b.files(), t.files());
      assertEquals(where + ": " + t.text(), b.rowGroups(), t.rowGroups());
      assertTrue(where + ": the cache was used: " + t.text(), t.usedMetadataFile());
      assertTrue(t.text(), t.isTurbo());
      if (where.isEmpty()) {
        assertEquals(rowGroups, t.rowGroups());
      }
    }
    // The cache written by the built-in reader, read through a table function: the scan reads the
    // row groups the plan chose (it used to read all of them, twice the rows).
    String turboFn = "select key, dir0 from table(dfs.`sales_cached_b`(type => 'turbo-parquet')) where dir0 = 'year=2023'";
    List<String> expectedRows = Result.of(client, "select key, dir0 from dfs.`sales_cached_b` where dir0 = 'year=2023'").rows();
    assertEquals((long) SalesTable.MONTHS * SalesTable.ROWS_PER_FILE, expectedRows.size());
    assertEquals(expectedRows, Result.of(client, turboFn).rows());
    String count = "select count(key) from %s where dir0 = 'year=2023'";
    long expectedCount = client.queryBuilder().sql(String.format(count, "dfs.`sales_cached_b`")).singletonLong();
    assertEquals((long) SalesTable.MONTHS * SalesTable.ROWS_PER_FILE, expectedCount);
    for (String t : List.of("tdfs.`sales_cached_t`", "turbo.`sales_cached_t`", "turbo.`sales_cached_b`")) {
      assertEquals(t, expectedCount, client.queryBuilder().sql(String.format(count, t)).singletonLong());
    }
    // count(*) from the cache's summary: no scan at all, the same answer.
    String summary = explain("select count(*) from tdfs.`sales_cached_t`");
    assertTrue(summary, summary.contains("DirectScan") && summary.contains("usedMetadataSummaryFile = true"));
    assertEquals(client.queryBuilder().sql("select count(*) from dfs.`sales_cached_b`").singletonLong(),
        client.queryBuilder().sql("select count(*) from tdfs.`sales_cached_t`").singletonLong());
  }

  @Test
  public void analyzeStatisticsReachThePlanner() throws Exception {
    client.alterSession("planner.statistics.use", true);
    try {
      String analyzed = Result.of(client, "analyze table tdfs.`sales_stats_t` compute statistics").rows().toString();
      assertFalse(analyzed, analyzed.contains("not supported"));
      client.queryBuilder().sql("analyze table dfs.`sales_stats_b` compute statistics").run();
      assertTrue(Files.exists(root.resolve("sales_stats_t").resolve(".stats.drill")));
      String sql = "select key from %s where name = 'n17'";
      double b = ScanPlan.of(client, String.format(sql, "dfs.`sales_stats_b`")).rootRows();
      double t = ScanPlan.of(client, String.format(sql, "tdfs.`sales_stats_t`")).rootRows();
      assertEquals(b, t, 0.0);
      double unanalyzed = ScanPlan.of(client, String.format(sql, "tdfs.`sales`")).rootRows();
      assertTrue("statistics changed the estimate: " + t + " vs " + unanalyzed, t < unanalyzed);
    } finally {
      client.resetSession("planner.statistics.use");
    }
  }

  @Test
  public void schemaDriftAsTheBuiltInReader() throws Exception {
    // A file that lacks a column gives it no type of its own (typeof NULL), so it compares and
    // unions with the VARCHAR of the other file; a typed null (nullable INT) would fail the filter.
    same("select id, extra from %s.`drift`", -1);
    same("select id, extra, typeof(extra) t from %s.`drift/b.parquet` where id < 3005", -1);
    same("select id, extra from %s.`drift` where extra = 'x1500' or id = 4000", -1);
    same("select id, extra from %s.`drift` where extra = 'x1500'", -1);
    same("select id, typeof(extra) t from %s.`drift` where id in (0, 4000)", -1);
    same("select * from %s.`drift`", -1);
  }

  @Test
  public void ctasWritesThroughDrillsParquetWriter() throws Exception {
    client.alterSession(ExecConstants.OUTPUT_FORMAT_OPTION, "parquet");
    try {
      client.queryBuilder().sql("create table tdfs.tmp.`sales_copy` as select key, name, day from tdfs.`sales` "
          + "where dir0 = 'year=2022'").run();
      same("select key, name, day from %s.tmp.`sales_copy`", -1);
      same("select key, name, day from %s.`sales` where dir0 = 'year=2022'", -1);
      assertEquals(Result.of(client, "select key, name, day from dfs.`sales` where dir0 = 'year=2022'").rows(),
          Result.of(client, "select key, name, day from tdfs.tmp.`sales_copy`").rows());
      client.queryBuilder().sql("create view dfs.tmp.`sales_view` as select key, name from tdfs.`sales` "
          + "where key < 100").run();
      assertEquals(Result.of(client, "select key, name from dfs.`sales` where key < 100").rows(),
          Result.of(client, "select * from dfs.tmp.`sales_view`").rows());
    } finally {
      client.resetSession(ExecConstants.OUTPUT_FORMAT_OPTION);
    }
  }

  /**
   * The statement through the built-in reader ({@code dfs}) and the switch ({@code tdfs}): same
   * schema and rows, plans over the same files and row groups, and {@code rowGroups} of them where
   * it is not -1.
   */
  private static void same(String sql, int rowGroups) throws Exception {
    String builtIn = String.format(sql, "dfs");
    String turbo = String.format(sql, "tdfs");
    Result expected = Result.of(client, builtIn);
    Result actual = Result.of(client, turbo);
    assertEquals(sql, expected.schema(), actual.schema());
    assertEquals(sql, expected.rows(), actual.rows());
    String turboPlan = explain(turbo);
    assertTrue(turboPlan, turboPlan.contains("TurboParquetGroupScan") || turboPlan.contains("DirectScan"));
    if (turboPlan.contains("TurboParquetGroupScan")) {
      ScanPlan b = ScanPlan.of(client, builtIn);
      ScanPlan t = ScanPlan.of(client, turbo);
      assertEquals(sql + " files", b.files(), t.files());
      assertEquals(sql + " row groups", b.rowGroups(), t.rowGroups());
      if (rowGroups >= 0) {
        assertEquals(sql + " row groups", rowGroups, t.rowGroups());
      }
    }
  }

  private static String explain(String sql) throws Exception {
    return client.queryBuilder().sql(sql).explainText();
  }

}
