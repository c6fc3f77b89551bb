package io.turboparquet.drill;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.FooterReader;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.scan.ScanOptions;
import io.turboparquet.testing.CountingHttpProxy;
import io.turboparquet.testing.S3Server;
import io.turboparquet.testing.TestFileGenerator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.drill.common.logical.FormatPluginConfig;
import org.apache.drill.exec.ExecConstants;
import org.apache.drill.exec.store.dfs.FileSystemConfig;
import org.apache.drill.exec.store.dfs.WorkspaceConfig;
import org.apache.drill.exec.store.direct.DirectSubScan;
import org.apache.drill.exec.store.parquet.ParquetFormatConfig;
import org.apache.drill.test.ClusterTest;
import org.apache.drill.test.QueryBuilder.QuerySummary;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The plugin on S3: an embedded drillbit with two file-system storage plugins on {@code s3a://bucket}
 * of a real S3 API server (S3Proxy, started by the test) behind a counting HTTP proxy, configured
 * as a user would (endpoint, path-style access, credentials, connection pool): {@code s3} with the
 * switch ({@code "parquet"} read by turbo-parquet) and {@code s3stock} with Drill's own reader.
 * Queries on S3 give what Drill's built-in reader gives on the same files locally; the profile's
 * GET count is what the server served; a {@code SELECT *} of 200 columns makes GETs bounded by its
 * row groups, never more at once than the pool; Drill's reader's GETs are measured beside it.
 */
public class TurboParquetS3DrillTest extends ClusterTest {
  private static final int POOL = 4;
  private static final int WIDE_COLUMNS = 200;
  private static final String WIDE = "wide/wide.parquet";
  private static final String PLANNED = "planned/wide.parquet";
  private static final String SCAN = TurboParquetRowGroupScan.OPERATOR_TYPE;
  /**
   * Buckets with the same wide file for Drill's reader, with S3A's default read policy and with its
   * random one: Hadoop caches one S3A instance per bucket, so other settings need another bucket.
   */
  private static final List<String> STOCK_BUCKETS = List.of("stock", "random");

  private static S3Server s3;
  private static CountingHttpProxy proxy;
  private static FileMetadata wideFooter;
  private static Path wideLocal;

  @BeforeClass
  public static void setup() throws Exception {
    Path root = dirTestWatcher.getRootDir().toPath();
    Path wide = root.resolve(WIDE);
    Files.createDirectories(wide.getParent());
    TestFileGenerator.wideInt64(wide, WIDE_COLUMNS, 3_000, 64 * 1024, 1L << 20, 11);
    wideFooter = TurboParquetDrillTest.footer(wide);
    wideLocal = wide;
    Path li = Files.createDirectories(root.resolve("li"));
    Files.move(TestFileGenerator.lineitemLike(Files.createDirectories(root.resolve("g0")), 5_000,
        CompressionCodecName.SNAPPY, 128 * 1024).path(), li.resolve("part-0.parquet"));
    Files.move(TestFileGenerator.lineitemLike(Files.createDirectories(root.resolve("g1")), 3_000,
        CompressionCodecName.GZIP).path(), li.resolve("part-1.parquet"));
    Files.writeString(li.resolve("_SUCCESS"), "");

    s3 = S3Server.start(List.of(S3Server.BUCKET, STOCK_BUCKETS.get(0), STOCK_BUCKETS.get(1)));
    Map<Path, String> uploads = new LinkedHashMap<>();
    uploads.put(wide, S3Server.uri(WIDE));
    for (String bucket : STOCK_BUCKETS) {
      Path copy = Files.copy(wide, wide.resolveSibling(bucket + ".parquet"));
      uploads.put(copy, "s3a://" + bucket + "/" + WIDE);
    }
    // Read by one test only, so that its footer is not in the drillbit's cache before.
    uploads.put(Files.copy(wide, wide.resolveSibling("planned.parquet")), S3Server.uri(PLANNED));
    for (String name : List.of("part-0.parquet", "part-1.parquet", "_SUCCESS")) {
      uploads.put(li.resolve(name), S3Server.uri("li/" + name));
    }
    Path sales = root.resolve("sales");
    SalesTable.write(sales);
    try (var files = Files.walk(sales)) {
      for (Path f : files.filter(Files::isRegularFile).filter(f -> f.toString().endsWith(".parquet")).toList()) {
        uploads.put(f, S3Server.uri("sales/" + sales.relativize(f).toString().replace('\\', '/')));
      }
    }
    s3.upload(uploads);
    proxy = new CountingHttpProxy(s3.port(), 5);

    startCluster(EmbeddedDrill.builder(dirTestWatcher).maxParallelization(1)
        .configProperty("drill.metastore.iceberg.location.base_path",
            dirTestWatcher.getTmpDir().toPath().resolve("metastore").toAbsolutePath().toString())
        .sessionOption(ExecConstants.QUERY_PROFILE_DEBUG_OPTION, true));
    defineS3("s3", S3Server.BUCKET, new TurboParquetFormatConfig(), Map.of());
    // Drill's reader holds a pooled connection per column stream between its reads: with a pool
    // smaller than the projected columns it waits for a free connection until S3A gives up.
    defineS3("s3stock", STOCK_BUCKETS.get(0), new ParquetFormatConfig(), Map.of("fs.s3a.connection.maximum", "256"));
    defineS3("s3stockrandom", STOCK_BUCKETS.get(1), new ParquetFormatConfig(),
        Map.of("fs.s3a.experimental.input.fadvise", "random", "fs.s3a.connection.maximum", "256"));
  }

  /** A file-system plugin on {@code bucket}, its {@code "parquet"} format read by {@code format}. */
  private static void defineS3(String name, String bucket, FormatPluginConfig format, Map<String, String> extra) {
    Map<String, String> config = new LinkedHashMap<>(S3Server.s3aSettings(proxy.port(), POOL));
    config.putAll(extra);
    FileSystemConfig plugin = new FileSystemConfig("s3a://" + bucket, config,
        Map.of("data", new WorkspaceConfig("/", false, null, false)), Map.of("parquet", format), null);
    plugin.setEnabled(true);
    cluster.defineStoragePlugin(name, plugin);
  }

  @AfterClass
  public static void stopS3() throws Exception {
    if (proxy != null) {
      proxy.close();
    }
    if (s3 != null) {
      s3.close();
    }
  }

  @Test
  public void queriesOnS3GiveWhatDrillsReaderGivesLocally() throws Exception {
    String plan = client.queryBuilder().sql("select c0 from s3.data.`" + WIDE + "`").explainText();
    assertTrue(plan, plan.contains("TurboParquetGroupScan") && plan.contains("s3a://" + S3Server.BUCKET));
    for (String query : List.of(
        "select * from %s.`" + WIDE + "`",
        "select c0, c100, c199 from %s.`" + WIDE + "` where c7 > 0",
        "select l_orderkey, l_comment, l_shipdate, l_discount from %s.`li`",
        "select l_returnflag, count(*), sum(l_quantity) from %s.`li` where l_linenumber = 2 group by l_returnflag")) {
      Result local = Result.of(client, String.format(query, "dfs"));
      Result onS3 = Result.of(client, String.format(query, "s3.data"));
      assertTrue(query, local.rows().size() > 1);
      assertEquals(query + " (schema)", local.schema(), onS3.schema());
      assertEquals(query, local.rows(), onS3.rows());
    }
  }

  /**
   * ANALYZE ... REFRESH METADATA on S3. A partitioned table: from its footers only (a direct scan,
   * no row group read). The lineitem-like table, whose INT64 DECIMAL columns have bounds the
   * direct scan cannot carry (Drill's own rule fails on them): by a scan, and it succeeds. Plans
   * of both then come from the metastore and give the local copies' rows.
   */
  @Test
  public void analyzeOnS3ReadsTheFootersWhereTheyCanBeCarried() throws Exception {
    client.alterSession(ExecConstants.METASTORE_ENABLED, true);
    try {
      QuerySummary sales = client.queryBuilder().sql("analyze table s3.data.`sales` refresh metadata").run();
      assertTrue(sales.succeeded());
      assertFalse(ScanProfiles.of(cluster, sales, DirectSubScan.OPERATOR_TYPE).isEmpty());
      assertEquals(List.of(), ScanProfiles.of(cluster, sales, SCAN));
      QuerySummary li = client.queryBuilder().sql("analyze table s3.data.`li` refresh metadata").run();
      assertTrue(li.succeeded());
      assertEquals(List.of(), ScanProfiles.of(cluster, li, DirectSubScan.OPERATOR_TYPE));
      assertEquals(8_000, ScanProfiles.of(cluster, li, SCAN).stream().mapToLong(o -> o.metric("NUM_ROWS")).sum());
      for (String query : List.of("select * from %s.`sales` where dir0 = 'year=2023' and key >= 13000",
          "select l_returnflag, count(*), sum(l_quantity) from %s.`li` where l_linenumber = 2 group by l_returnflag")) {
        String onS3 = String.format(query, "s3.data");
        ScanPlan plan = ScanPlan.of(client, onS3);
        assertTrue(plan.text(), plan.isTurbo() && plan.usedMetastore());
        Result local = Result.of(client, String.format(query, "dfs"));
        assertTrue(query, local.rows().size() > 1);
        assertEquals(query, local.rows(), Result.of(client, onS3).rows());
      }
    } finally {
      client.resetSession(ExecConstants.METASTORE_ENABLED);
    }
  }

  /**
   * Planning a query on a file whose footer is not cached reads the footer with one GET (its last
   * 256 KiB hold it); the next plan reads none.
   */
  @Test
  public void aFooterCostsPlanningOneGet() throws Exception {
    assertTrue("a footer within the tail", footerLength(wideLocal) + 8 <= FooterReader.SPECULATIVE_TAIL);
    String sql = "select c0, c1 from s3.data.`" + PLANNED + "`";
    proxy.reset();
    client.queryBuilder().sql(sql).explainText();
    CountingHttpProxy.Counts cold = proxy.counts();
    assertEquals(cold.toString(), 1, cold.objectGets());
    proxy.reset();
    client.queryBuilder().sql(sql).explainText();
    CountingHttpProxy.Counts warm = proxy.counts();
    assertEquals(warm.toString(), 0, warm.objectGets());
    System.out.println("S3 requests planning `" + sql + "`: footer not cached " + cold + ", cached " + warm);
  }

  private static int footerLength(Path file) throws java.io.IOException {
    byte[] bytes = Files.readAllBytes(file);
    return java.nio.ByteBuffer.wrap(bytes, bytes.length - 8, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
  }

  /**
   * {@code SELECT *} of 200 columns and a 3-column projection: the profile's GETs are those the
   * server served during the query (footers come from the drillbit's cache, read at planning), at
   * most a few per row group, never more at once than the pool, with two fragments reading at once.
   * Drill's reader's counts beside them, for docs/benchmarks.md.
   */
  @Test
  public void getsAreBoundedByRowGroupsAndThePool() throws Exception {
    client.alterSession("planner.slice_target", 1);
    client.alterSession("planner.width.max_per_node", 2);
    try {
      measureGets();
    } finally {
      client.resetSession("planner.slice_target");
      client.resetSession("planner.width.max_per_node");
    }
  }

  private static void measureGets() throws Exception {
    long maxPart = ScanOptions.defaults().io().coalesceMaxSize();
    String[] projections = {"*", "c0, c100, c199"};
    for (String projection : projections) {
      long bound = 0;
      for (RowGroupMeta rg : wideFooter.rowGroups()) {
        long bytes = 0;
        for (int c = 0; c < WIDE_COLUMNS; c++) {
          if (projection.equals("*") || List.of(projection.split(", ")).contains("c" + c)) {
            bytes += rg.column(c).totalCompressedSize();
          }
        }
        bound += 2 * ((bytes + maxPart - 1) / maxPart) + 1; // ranges of adjacent chunks up to maxPart
      }
      String sql = "select " + projection + " from s3.data.`" + WIDE + "`";
      assertTrue(client.queryBuilder().sql(sql).run().succeeded()); // a plan reads the footer into the cache
      proxy.reset();
      QuerySummary summary = client.queryBuilder().sql(sql).run();
      CountingHttpProxy.Counts served = proxy.counts();
      assertTrue(summary.toString(), summary.succeeded());
      List<ScanProfiles.Operator> scans = ScanProfiles.of(cluster, summary, SCAN);
      long requests = scans.stream().mapToLong(s -> s.metric("NUM_STORE_REQUESTS")).sum();
      long storeBytes = scans.stream().mapToLong(s -> s.metric("TOTAL_STORE_BYTES")).sum();
      long readBytes = scans.stream().mapToLong(s -> s.metric("TOTAL_READ_BYTES")).sum();
      assertEquals(sql + ": " + served, 2, scans.size());
      assertTrue(sql + ": " + served, served.objectGets() > 0);
      assertEquals(sql + ": " + served, served.objectGets(), requests);
      assertTrue(sql + ": " + storeBytes + " vs " + readBytes, storeBytes >= readBytes && readBytes > 0);
      assertTrue(sql + ": " + served + ", bound " + bound, requests <= bound);
      assertTrue(sql + ": " + served, served.maxInFlight() <= POOL);

      StringBuilder note = new StringBuilder(String.format("S3 requests of `%s` over %d row groups: turbo-parquet %s",
          sql, wideFooter.rowGroups().size(), served));
      for (String stock : List.of("s3stock", "s3stockrandom")) {
        String stockSql = sql.replace("s3.data", stock + ".data"); // its plans read the footer each time
        proxy.reset();
        QuerySummary stockSummary = client.queryBuilder().sql(stockSql).run();
        assertTrue(stockSummary.toString(), stockSummary.succeeded());
        note.append("; built-in (").append(stock).append(") ").append(proxy.counts());
      }
      System.out.println(note);
    }
    // A filter reads the page index before the pages: those GETs are the scan's too.
    String filtered = "select c0, c100 from s3.data.`" + WIDE + "` where c7 > 0";
    assertTrue(client.queryBuilder().sql(filtered).run().succeeded());
    proxy.reset();
    QuerySummary summary = client.queryBuilder().sql(filtered).run();
    CountingHttpProxy.Counts served = proxy.counts();
    assertTrue(summary.toString(), summary.succeeded());
    List<ScanProfiles.Operator> scans = ScanProfiles.of(cluster, summary, SCAN);
    assertTrue(filtered + ": " + served, scans.stream().mapToLong(s -> s.metric("TOTAL_PAGE_INDEX_BYTES")).sum() > 0);
    assertEquals(filtered + ": " + served, served.objectGets(),
        scans.stream().mapToLong(s -> s.metric("NUM_STORE_REQUESTS")).sum());
  }
}
