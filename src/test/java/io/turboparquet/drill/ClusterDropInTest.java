package io.turboparquet.drill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.testing.OracleDigest;
import io.turboparquet.testing.StandaloneZooKeeper;
import io.turboparquet.testing.TestFileGenerator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.drill.common.exceptions.UserException;
import org.apache.drill.exec.proto.UserBitShared.QueryId;
import org.apache.drill.exec.proto.UserBitShared.QueryResult.QueryState;
import org.apache.drill.exec.rpc.ConnectionThrottle;
import org.apache.drill.exec.rpc.user.QueryDataBatch;
import org.apache.drill.exec.rpc.user.UserResultsListener;
import org.apache.drill.test.QueryRowSetIterator;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Turbo Parquet installed in a cluster as docs/install.md says: a {@link DrillHome} (Drill's jars
 * from Maven, the plugin jar in jars/3rdparty/ and, for the slow:// harness, the tools jar, our conf
 * snippets plus cluster-id and zk.connect), a standalone ZooKeeper server, and two drillbits, each a JVM of its own started from
 * that home. A query's row groups are split between the two drillbits, and its rows are those of
 * Drill's built-in reader; then one drillbit is killed while a query runs on both: that query fails
 * naming the lost drillbit, and the other drillbit goes on answering correctly.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterDropInTest {
  private static final String CLUSTER_ID = "turbo-parquet-test";
  /** l_extendedprice left out: Drill 1.22's own reader, the oracle here, decodes it wrongly (see DrillDropInTest). */
  private static final String COLUMNS = "l_orderkey, l_partkey, l_suppkey, l_linenumber, l_quantity, l_discount, "
      + "l_returnflag, l_shipdate, l_receiptdate, l_shipmode, l_comment";
  /** Settles which drillbits read the table: one scan fragment on each (width 2) whatever the row counts. */
  private static final List<String> SPREAD = List.of(
      "alter session set `planner.slice_target` = 1",
      "alter session set `planner.width.max_per_node` = 1",
      // The foreman writes the profile before it answers, so sys.profiles_json has it at once.
      "alter session set `exec.query_profile.debug_mode` = true");
  private static final long STARTUP_SECONDS = 180;

  private static DrillHome home;
  private static StandaloneZooKeeper zooKeeper;
  private static final List<DrillbitProcess> drillbits = new ArrayList<>();
  private static Path table;
  private static long tableRows;
  private static int tableRowGroups;

  @RegisterExtension
  static final TestWatcher LOGS_ON_FAILURE = new TestWatcher() {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      System.err.println(logTails());
    }
  };

  @BeforeAll
  static void startCluster() throws Exception {
    home = DrillHome.assemble("drill-cluster");
    home.installTools(); // the slow:// harness below is a tool, not in the plugin jar
    zooKeeper = StandaloneZooKeeper.start(home.work().resolve("zookeeper"));
    String state = home.work().resolve("state").toString();
    // What every node of a cluster has in conf/drill-override.conf (docs/install.md), then a test setting.
    home.appendConf("drill-override.conf", "drill.exec: {\n"
        + "  cluster-id: \"" + CLUSTER_ID + "\",\n"
        + "  zk.connect: \"" + zooKeeper.connectString() + "\",\n"
        + "  # Test setting: query profiles under target/ (Drill's default is /var/log/drill).\n"
        + "  sys.store.provider.zk.blobroot: \"file://" + state + "/profiles\"\n"
        + "}");
    // A file system plugin on slow storage (the tools jar's slow:// harness: a latency per read and a
    // bandwidth cap per drillbit) with the switch on: a scan that runs long enough to kill a drillbit in it.
    home.appendConf("storage-plugins-override.conf", """
        "storage": {
          "slow": {
            "type": "file",
            "connection": "slow:///",
            "config": { "fs.slow.read.latency": "50ms", "fs.slow.total.bytes-per-second": "200k" },
            "workspaces": { "root": { "location": "/", "writable": false, "allowAccessOutsideWorkspace": false } },
            "formats": { "parquet": { "type": "turbo-parquet" } },
            "enabled": true
          }
        }""");

    table = Files.createDirectories(home.work().resolve("data").resolve("lineitem"));
    TestFileGenerator.lineitemLike(table, 60_000, CompressionCodecName.SNAPPY, 256 << 10);
    TestFileGenerator.lineitemLike(table, 50_000, CompressionCodecName.ZSTD, 256 << 10);
    try (var files = Files.list(table)) {
      for (Path file : files.toList()) {
        List<BlockMetaData> rowGroups = OracleDigest.footer(file).getBlocks();
        tableRowGroups += rowGroups.size();
        tableRows += rowGroups.stream().mapToLong(BlockMetaData::getRowCount).sum();
      }
    }
    assertTrue(tableRowGroups >= 6, "row groups to split: " + tableRowGroups);

    drillbits.add(DrillbitProcess.start(home, "drillbit-a"));
    drillbits.add(DrillbitProcess.start(home, "drillbit-b"));
    awaitOnlineDrillbits(drillbits, STARTUP_SECONDS);
  }

  @AfterAll
  static void stopCluster() throws Exception {
    for (DrillbitProcess drillbit : drillbits) {
      drillbit.close();
    }
    if (zooKeeper != null) {
      zooKeeper.close();
    }
  }

  @Test
  @Order(1)
  void rowGroupsAreSplitBetweenDrillbitJvms() throws Exception {
    try (DrillbitClient client = DrillbitClient.viaZooKeeper(zooKeeper.connectString(), CLUSTER_ID)) {
      SPREAD.forEach(client::run);
      Result expected = client.result("select " + COLUMNS + " from table(dfs.`" + table + "`(type => 'parquet'))");
      QueryRowSetIterator batches = client.query("select " + COLUMNS + " from dfs.`" + table + "`");
      Result actual = Result.of(batches);
      assertEquals(tableRows, expected.rows().size(), "rows through Drill's reader (parquet-java's footers)");
      assertEquals(expected.schema(), actual.schema());
      assertEquals(expected.rows(), actual.rows());

      // Row groups and rows each drillbit's turbo-parquet scan read, by control port.
      Map<Integer, long[]> byDrillbit = new TreeMap<>();
      for (ScanProfiles.Operator scan : ScanProfiles.of(client.profile(batches.queryIdString()),
          TurboParquetRowGroupScan.OPERATOR_TYPE)) {
        String endpoint = scan.endpoint();
        long[] read = byDrillbit.computeIfAbsent(Integer.parseInt(endpoint.substring(endpoint.lastIndexOf(':') + 1)),
            port -> new long[2]);
        read[0] += scan.metric("NUM_ROWGROUPS");
        read[1] += scan.metric("NUM_ROWS");
      }
      assertEquals(drillbits.stream().map(DrillbitProcess::controlPort).sorted().toList(),
          List.copyOf(byDrillbit.keySet()), "drillbits whose scans read the table (control ports)");
      for (long[] read : byDrillbit.values()) {
        assertTrue(read[0] > 0, "row groups of each drillbit: " + describe(byDrillbit));
      }
      assertEquals(tableRowGroups, byDrillbit.values().stream().mapToLong(r -> r[0]).sum(), describe(byDrillbit));
      assertEquals(tableRows, byDrillbit.values().stream().mapToLong(r -> r[1]).sum(), describe(byDrillbit));
    }
  }

  @Test
  @Order(2)
  void killedDrillbitFailsItsQueryAndTheOtherAnswers() throws Exception {
    DrillbitProcess survivor = drillbits.get(0);
    DrillbitProcess victim = drillbits.get(1);
    try (DrillbitClient client = DrillbitClient.direct("127.0.0.1", survivor.userPort())) {
      SPREAD.forEach(client::run);
      WatchedQuery query = new WatchedQuery();
      long started = System.nanoTime();
      client.start("select " + COLUMNS + " from slow.`" + table + "`", query);
      assertTrue(query.rowsArrived.await(120, TimeUnit.SECONDS), "no rows of the slow query in 120 s: " + query);
      System.err.printf("first rows of the slow query after %d ms%n",
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
      assertFalse(query.outcome.isDone(), "the slow query ended before a drillbit could be killed: " + query);
      victim.kill();
      long killed = System.nanoTime();

      Outcome outcome;
      try {
        outcome = query.outcome.get(60, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        throw new AssertionError("the query still runs 60 s after " + victim + " was killed", e);
      }
      System.err.printf("%s killed; the query ended %d ms later: %s%n", victim,
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed), outcome);
      assertEquals(QueryState.FAILED, outcome.state(), "the query on the killed drillbit: " + outcome);
      assertNotNull(outcome.error(), "error of the failed query");
      String message = outcome.error().getMessage();
      // Drill's foreman names the drillbits that left ZooKeeper while they had fragments of the query.
      assertTrue(message.contains("One more more nodes lost connectivity during query")
          && message.contains(":" + victim.userPort() + "]"), message);
    }

    awaitOnlineDrillbits(List.of(survivor), 60);
    // A new client finds the survivor through ZooKeeper; its answer is that of Drill's reader.
    try (DrillbitClient client = DrillbitClient.viaZooKeeper(zooKeeper.connectString(), CLUSTER_ID)) {
      SPREAD.forEach(client::run);
      Result expected = client.result("select " + COLUMNS + " from table(dfs.`" + table + "`(type => 'parquet'))");
      Result actual = client.result("select " + COLUMNS + " from dfs.`" + table + "`");
      assertEquals(tableRows, actual.rows().size());
      assertEquals(expected.rows(), actual.rows());
    }
  }

  /**
   * Waits until ZooKeeper lists exactly these drillbits, all online, as seen through one of them
   * (sys.drillbits); fails early with the drillbits' logs if one of them exits.
   */
  private static void awaitOnlineDrillbits(List<DrillbitProcess> expected, long seconds) throws Exception {
    List<Integer> ports = expected.stream().map(DrillbitProcess::userPort).sorted().toList();
    String query = "select user_port from sys.drillbits where state = 'ONLINE' order by user_port";
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    Object last = "no answer";
    while (true) {
      for (DrillbitProcess drillbit : expected) {
        if (!drillbit.isAlive()) {
          throw new AssertionError(drillbit + " exited\n" + logTails());
        }
      }
      try (DrillbitClient client = DrillbitClient.viaZooKeeper(zooKeeper.connectString(), CLUSTER_ID)) {
        List<Integer> online = client.result(query).cells().stream().map(row -> Integer.parseInt(row.get(0))).toList();
        if (online.equals(ports)) {
          return;
        }
        last = "online user ports " + online;
      } catch (Exception | AssertionError e) {
        last = e;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("drillbits " + expected + " not (only they) online in " + seconds + " s; last: "
            + last + "\n" + logTails());
      }
      Thread.sleep(1000);
    }
  }

  private static String describe(Map<Integer, long[]> byDrillbit) {
    return byDrillbit.entrySet().stream()
        .map(e -> "control port " + e.getKey() + ": " + e.getValue()[0] + " row groups, " + e.getValue()[1] + " rows")
        .collect(Collectors.joining("; ", "", "; table: " + tableRowGroups + " row groups, " + tableRows + " rows"));
  }

  private static String logTails() {
    return drillbits.stream().map(DrillbitProcess::logTail).collect(Collectors.joining("\n"));
  }

  /** How a query ended: its final state, and the error Drill sent if it failed. */
  private record Outcome(QueryState state, UserException error) {
  }

  /** Follows a running query: signals its first rows and how it ends. Releases every batch. */
  private static final class WatchedQuery implements UserResultsListener {
    final CountDownLatch rowsArrived = new CountDownLatch(1);
    final CompletableFuture<Outcome> outcome = new CompletableFuture<>();

    @Override
    public void queryIdArrived(QueryId queryId) {
    }

    @Override
    public void submissionFailed(UserException ex) {
      outcome.complete(new Outcome(QueryState.FAILED, ex));
    }

    @Override
    public void dataArrived(QueryDataBatch result, ConnectionThrottle throttle) {
      if (result.getHeader().getRowCount() > 0) {
        rowsArrived.countDown();
      }
      result.release();
    }

    @Override
    public void queryCompleted(QueryState state) {
      outcome.complete(new Outcome(state, null));
    }

    @Override
    public String toString() {
      return outcome.isDone() ? "ended: " + outcome.join() : "running";
    }
  }
}
