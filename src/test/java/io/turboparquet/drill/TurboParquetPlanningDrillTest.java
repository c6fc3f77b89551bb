package io.turboparquet.drill;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.turboparquet.testing.CorruptFiles;
import io.turboparquet.testing.TestFileGenerator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import org.apache.drill.exec.ExecConstants;
import org.apache.drill.common.exceptions.UserRemoteException;
import org.apache.drill.exec.planner.physical.PlannerSettings;
import org.apache.drill.exec.proto.UserBitShared.DrillPBError.ErrorType;
import org.apache.drill.test.ClusterTest;
import org.apache.drill.test.QueryBuilder.QuerySummary;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Planning on our footers: turbo-parquet's plans (files, row groups, the scan's row-count estimate)
 * and answers equal the built-in reader's, with filters that prune row groups at planning and at
 * run time; planning, run-time pruning and the scan take each footer from the drillbit's cache,
 * decoded once; a rewritten file is decoded again and its new rows are read.
 */
public class TurboParquetPlanningDrillTest extends ClusterTest {
  private static final String AGGREGATE = "select count(*), sum(l_quantity), min(l_shipdate), max(l_comment) from %s %s";
  /** No filter; pruning all but the first row group of each file; pruning none; pruning every row group. */
  private static final List<String> FILTERS = List.of("", "where l_orderkey < 100", "where l_returnflag = 'R'",
      "where l_orderkey < 0");

  private static Path data;

  @BeforeClass
  public static void setup() throws Exception {
    startCluster(EmbeddedDrill.builder(dirTestWatcher).maxParallelization(1)
        .sessionOption(ExecConstants.QUERY_PROFILE_DEBUG_OPTION, true));
    data = dirTestWatcher.getRootDir().toPath();
  }

  @Test
  public void plansAndAnswersEqualTheBuiltInReaders() throws Exception {
    String t = table("plans", 3);
    for (String filter : FILTERS) {
      ScanPlan builtIn = ScanPlan.of(client, String.format(AGGREGATE, builtIn(t), filter));
      ScanPlan turbo = ScanPlan.of(client, String.format(AGGREGATE, turbo(t), filter));
      assertTrue(builtIn.text(), !builtIn.isTurbo() && turbo.isTurbo());
      String plans = filter + "\n" + builtIn.text() + "\n" + turbo.text();
      assertEquals(plans, builtIn.files(), turbo.files());
      assertEquals(plans, builtIn.rowGroups(), turbo.rowGroups());
      assertEquals(plans, builtIn.scanRows(), turbo.scanRows(), 0.0);
      assertEquals(filter, Result.of(client, String.format(AGGREGATE, builtIn(t), filter)),
          Result.of(client, String.format(AGGREGATE, turbo(t), filter)));
    }
    // Row groups were pruned at planning: 3 files of at least 3 row groups, one kept in each.
    ScanPlan pruned = ScanPlan.of(client, String.format(AGGREGATE, turbo(t), FILTERS.get(1)));
    assertEquals(pruned.text(), 3, pruned.files());
    assertEquals(pruned.text(), 3, pruned.rowGroups());
    assertTrue(pruned.text(), ScanPlan.of(client, String.format(AGGREGATE, turbo(t), "")).rowGroups() >= 9);

    // Above the planning threshold the fragments prune, by the same statistics as the built-in scan.
    client.alterSession(PlannerSettings.PARQUET_ROWGROUP_FILTER_PUSHDOWN_PLANNING_THRESHOLD_KEY, 1L);
    try {
      for (String filter : FILTERS.subList(1, FILTERS.size())) {
        String sql = String.format(AGGREGATE, "%s", filter);
        assertEquals(filter, Result.of(client, String.format(sql, builtIn(t))),
            Result.of(client, String.format(sql, turbo(t))));
        Map<String, Long> drills = scanMetrics(String.format(sql, builtIn(t)), "PARQUET_ROW_GROUP_SCAN");
        Map<String, Long> ours = scanMetrics(String.format(sql, turbo(t)), TurboParquetRowGroupScan.OPERATOR_TYPE);
        assertEquals(filter, drills.get("NUM_ROWGROUPS"), ours.get("NUM_ROWGROUPS"));
        assertEquals(filter, drills.get("ROWGROUPS_PRUNED"), ours.get("ROWGROUPS_PRUNED"));
      }
      assertTrue(scanMetrics(String.format(AGGREGATE, turbo(t), FILTERS.get(1)), TurboParquetRowGroupScan.OPERATOR_TYPE)
          .get("ROWGROUPS_PRUNED") >= 6);
    } finally {
      client.resetSession(PlannerSettings.PARQUET_ROWGROUP_FILTER_PUSHDOWN_PLANNING_THRESHOLD_KEY);
    }
  }

  @Test
  public void eachFooterIsDecodedOncePerDrillbitUntilItsFileChanges() throws Exception {
    String t = table("once", 3);
    FooterCache cache = FooterCache.of(cluster.drillbit().getContext());
    long before = cache.decodes();
    ScanPlan.of(client, String.format(AGGREGATE, turbo(t), ""));
    assertEquals("planning decodes every footer", 3, cache.decodes() - before);
    client.alterSession(PlannerSettings.PARQUET_ROWGROUP_FILTER_PUSHDOWN_PLANNING_THRESHOLD_KEY, 1L);
    try {
      // Planning, run-time pruning and the readers: all from the cache.
      Result first = Result.of(client, String.format(AGGREGATE, turbo(t), FILTERS.get(1)));
      Result all = Result.of(client, String.format(AGGREGATE, turbo(t), ""));
      assertEquals(3, cache.decodes() - before);
      assertEquals(Result.of(client, String.format(AGGREGATE, builtIn(t), FILTERS.get(1))), first);

      // A file rewritten (another length and modification time) is decoded again, and read anew.
      Path dir = data.resolve(t);
      Path old;
      try (var files = Files.list(dir)) {
        old = files.sorted().findFirst().orElseThrow();
      }
      Path replacement = TestFileGenerator.lineitemLike(Files.createDirectories(data.resolve("replacement")), 7_000,
          CompressionCodecName.ZSTD, 256 * 1024).path();
      Files.move(replacement, old, StandardCopyOption.REPLACE_EXISTING);
      Files.setLastModifiedTime(old, FileTime.fromMillis(System.currentTimeMillis() + 60_000));
      Result rewritten = Result.of(client, String.format(AGGREGATE, turbo(t), ""));
      assertEquals(4, cache.decodes() - before);
      assertTrue(!rewritten.equals(all));
      assertEquals(Result.of(client, String.format(AGGREGATE, builtIn(t), "")), rewritten);
      Result.of(client, String.format(AGGREGATE, turbo(t), FILTERS.get(1)));
      assertEquals(4, cache.decodes() - before);
    } finally {
      client.resetSession(PlannerSettings.PARQUET_ROWGROUP_FILTER_PUSHDOWN_PLANNING_THRESHOLD_KEY);
    }
  }

  @Test
  public void aTableWithDrillsMetadataCacheIsPlannedFromThatCache() throws Exception {
    String t = table("cached", 2);
    client.queryBuilder().sql("refresh table metadata dfs.`" + t + "`").run();
    assertTrue(Files.exists(data.resolve(t).resolve(".drill.parquet_summary_metadata.v4")));
    FooterCache cache = FooterCache.of(cluster.drillbit().getContext());
    long before = cache.decodes();
    String sql = String.format(AGGREGATE, turbo(t), FILTERS.get(1));
    ScanPlan turbo = ScanPlan.of(client, sql);
    assertEquals("Drill's cache file, not footers, plans the table", 0, cache.decodes() - before);
    ScanPlan builtIn = ScanPlan.of(client, String.format(AGGREGATE, builtIn(t), FILTERS.get(1)));
    assertEquals(builtIn.rowGroups(), turbo.rowGroups());
    assertEquals(Result.of(client, String.format(AGGREGATE, builtIn(t), FILTERS.get(1))), Result.of(client, sql));
  }

  @Test
  public void aCorruptFooterFailsPlanningNamingTheFileUntilTheFileIsFixed() throws Exception {
    Path dir = Files.createDirectories(data.resolve("corrupt"));
    Path bad = CorruptFiles.hugeNumChildren(dir); // beside an intact copy of the file it was made from
    String count = "select count(*) from " + turbo("corrupt");
    UserRemoteException error = null;
    try {
      client.queryBuilder().sql(count).run();
    } catch (Exception e) {
      for (Throwable t = e; t != null && error == null; t = t.getCause()) {
        error = t instanceof UserRemoteException u ? u : null;
      }
    }
    assertTrue("a user error", error != null);
    assertEquals(error.getMessage(), ErrorType.DATA_READ, error.getErrorType());
    assertTrue(error.getMessage(), error.getMessage().contains(bad.getFileName().toString()));
    // The failure was not kept: the fixed file is read.
    Path fixed = CorruptFiles.base(Files.createDirectories(data.resolve("corrupt-fixed")));
    Files.move(fixed, bad, StandardCopyOption.REPLACE_EXISTING);
    Files.setLastModifiedTime(bad, FileTime.fromMillis(System.currentTimeMillis() + 60_000));
    assertEquals(2L * CorruptFiles.ROWS, client.queryBuilder().sql(count).singletonLong());
  }

  /** A directory of {@code files} lineitem-like files of several row groups each; its name. */
  private static String table(String name, int files) throws Exception {
    Path dir = Files.createDirectories(data.resolve(name));
    for (int i = 0; i < files; i++) {
      Path written = TestFileGenerator.lineitemLike(Files.createDirectories(data.resolve(name + "-" + i)),
          12_000 - 1_000 * i, CompressionCodecName.SNAPPY, 128 * 1024).path();
      Files.move(written, dir.resolve("part-" + i + ".parquet"));
    }
    return name;
  }


  private static Map<String, Long> scanMetrics(String sql, String operatorType) throws Exception {
    QuerySummary summary = client.queryBuilder().sql(sql).run();
    assertTrue(summary.toString(), summary.succeeded());
    List<ScanProfiles.Operator> scans = ScanProfiles.of(cluster, summary, operatorType);
    assertEquals(sql, 1, scans.size());
    return scans.get(0).metrics();
  }

  private static String turbo(String relative) {
    return "table(dfs.`" + relative + "`(type => '" + TurboParquetFormatConfig.NAME + "'))";
  }

  private static String builtIn(String relative) {
    return "table(dfs.`" + relative + "`(type => 'parquet'))";
  }
}
