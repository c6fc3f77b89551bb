package io.turboparquet.drill;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.testing.CorpusFiles;
import io.turboparquet.testing.GeneratedFile;
import io.turboparquet.testing.TestFileGenerator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.drill.common.exceptions.UserException;
import org.apache.drill.exec.ExecConstants;
import org.apache.drill.exec.planner.physical.PlannerSettings;
import org.apache.drill.exec.proto.UserBitShared.QueryId;
import org.apache.drill.exec.proto.UserBitShared.QueryResult.QueryState;
import org.apache.drill.exec.rpc.ConnectionThrottle;
import org.apache.drill.exec.rpc.user.QueryDataBatch;
import org.apache.drill.exec.rpc.user.UserResultsListener;
import org.apache.drill.exec.ops.OperatorMetricRegistry;
import org.apache.drill.exec.store.CommonParquetRecordReader;
import org.apache.drill.test.ClusterTest;
import org.apache.drill.test.QueryBuilder.QuerySummary;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * What a turbo-parquet scan shows in the query profile and how Drill's session options, the format
 * config and its table function steer it: each honoured option changes what the profile reports,
 * the page and row counts agree with parquet-java's and Drill's own reader's, and count(*) is
 * answered from the footers.
 */
public class TurboParquetProfileTest extends ClusterTest {
  private static final String SCAN = TurboParquetRowGroupScan.OPERATOR_TYPE;
  private static final String COLUMNS = "l_orderkey, l_quantity, l_shipdate, l_comment, l_shipmode";

  private static Path data;
  private static GeneratedFile lineitem;
  private static String table;

  @BeforeClass
  public static void setup() throws Exception {
    startCluster(EmbeddedDrill.builder(dirTestWatcher).maxParallelization(1)
        .sessionOption(ExecConstants.QUERY_PROFILE_DEBUG_OPTION, true));
    data = dirTestWatcher.getRootDir().toPath();
    lineitem = TestFileGenerator.lineitemLike(Files.createDirectories(data.resolve("li")), 40_000,
        CompressionCodecName.SNAPPY);
    table = "li/" + lineitem.path().getFileName();
  }

  @Test
  public void metricNamesAreDrillsParquetNamesFollowedByOurs() throws Exception {
    scanMetrics("select l_orderkey from " + turbo(table)); // the plugin registers its names when Drill creates it
    String[] drill = OperatorMetricRegistry.getMetricNames("PARQUET_ROW_GROUP_SCAN");
    String[] ours = OperatorMetricRegistry.getMetricNames(SCAN);
    assertEquals(Arrays.stream(CommonParquetRecordReader.Metric.values()).map(Enum::name).toList(),
        Arrays.asList(drill));
    assertTrue(ours.length > drill.length);
    assertEquals(Arrays.asList(drill), Arrays.asList(ours).subList(0, drill.length));
  }

  @Test
  public void countsAgreeWithParquetJavaAndDrillsReader() throws Exception {
    String sql = "select " + COLUMNS + " from ";
    Map<String, Long> ours = scanMetrics(sql + turbo(table));
    FileMetadata footer = TurboParquetDrillTest.footer(lineitem.path());
    List<Integer> leaves = List.of(0, 4, 10, 15, 14);
    assertEquals(footer.rowGroups().size(), (long) ours.get("NUM_ROWGROUPS"));
    assertEquals(footer.numRows(), (long) ours.get("NUM_ROWS"));
    assertEquals(dataPages(lineitem.path(), leaves), (long) ours.get("NUM_DATA_PAGE_lOADS"));
    assertEquals(ours.get("NUM_DATA_PAGE_lOADS"), ours.get("NUM_DATA_PAGES_DECOMPRESSED"));
    long chunkBytes = 0;
    for (RowGroupMeta rg : footer.rowGroups()) {
      for (int leaf : leaves) {
        chunkBytes += rg.column(leaf).totalCompressedSize();
      }
    }
    // Every projected chunk is read, and nothing else (the buffered stream may read a little past a chunk).
    assertTrue(ours.toString(), ours.get("TOTAL_READ_BYTES") >= chunkBytes);
    assertTrue(ours.toString(), ours.get("TOTAL_READ_BYTES") < chunkBytes + footer.rowGroups().size() * leaves.size()
        * (1L << 20));
    // Drill's reader counts the same pages under the same names.
    Map<String, Long> drills = metrics(sql + builtIn(table), "PARQUET_ROW_GROUP_SCAN");
    for (String name : List.of("NUM_ROWGROUPS", "NUM_DATA_PAGE_lOADS", "NUM_DICT_PAGE_LOADS")) {
      assertEquals(name, drills.get(name), ours.get(name));
    }
  }

  @Test
  public void everyHonouredSessionOptionShowsInTheProfile() throws Exception {
    String sql = "select " + COLUMNS + " from " + turbo(table);
    Result expected = Result.of(client, "select " + COLUMNS + " from " + builtIn(table));
    Map<String, Long> defaults = scanMetrics(sql);
    assertEquals(1L, (long) defaults.get("OPTION_ASYNC_PAGE_READS"));
    assertEquals(1L, (long) defaults.get("OPTION_BUFFERED_READS"));
    assertEquals(1L << 20, (long) defaults.get("OPTION_BUFFER_SIZE"));
    assertEquals(0L, (long) defaults.get("OPTION_READ_AHEAD_HINT"));
    assertEquals(2L, (long) defaults.get("OPTION_QUEUE_DEPTH"));
    assertEquals(1L, (long) defaults.get("OPTION_PARALLEL_DECODE"));
    assertEquals(32_767L, (long) defaults.get("OPTION_BATCH_ROWS"));
    assertEquals(1L, (long) defaults.get("OPTION_DECODE_AHEAD"));

    Map<String, Long> sync = withSession(ExecConstants.PARQUET_PAGEREADER_ASYNC, false, sql, expected);
    assertEquals(0L, (long) sync.get("OPTION_ASYNC_PAGE_READS"));
    // Without async reads the decoding thread reads each page itself: all read time is wait time.
    assertTrue(sync.toString(), sync.get("TIME_DISK_SCAN_WAIT") >= sync.get("TIME_DISK_SCAN"));

    // Coalesced reads (the default) read the row group as a few ranges; the buffer options apply
    // to chunk-by-chunk reads, which the format config's coalescedReads => false selects.
    assertEquals(1L, (long) defaults.get("OPTION_COALESCED_READS"));
    assertTrue(defaults.toString(), defaults.get("NUM_COALESCED_RANGES") > 0);
    String chunked = "select " + COLUMNS + " from table(dfs.`" + table
        + "`(type => 'turbo-parquet', coalescedReads => false))";
    Map<String, Long> buffered = withSession(ExecConstants.PARQUET_PAGEREADER_USE_BUFFERED_READ, true, chunked,
        expected);
    assertEquals(0L, (long) buffered.get("OPTION_COALESCED_READS"));
    assertEquals(0L, (long) buffered.get("NUM_COALESCED_RANGES"));

    Map<String, Long> direct = withSession(ExecConstants.PARQUET_PAGEREADER_USE_BUFFERED_READ, false, chunked,
        expected);
    assertEquals(0L, (long) direct.get("OPTION_BUFFERED_READS"));
    // A row group's ranges are read in parts cut to Drill's power-of-two buffers: more calls than
    // a stream per chunk may take, fewer than a read per page.
    assertTrue("coalescing takes fewer reads than a read per page: " + defaults + " vs " + direct,
        defaults.get("NUM_READ_CALLS") < direct.get("NUM_READ_CALLS"));
    assertTrue("direct reads issue a read per page: " + direct + " vs " + buffered,
        direct.get("NUM_READ_CALLS") > buffered.get("NUM_READ_CALLS"));
    assertTrue(direct.get("NUM_READ_CALLS") >= direct.get("NUM_DATA_PAGE_lOADS"));

    Map<String, Long> small = withSession(ExecConstants.PARQUET_PAGEREADER_BUFFER_SIZE, 8192L, chunked, expected);
    assertEquals(8192L, (long) small.get("OPTION_BUFFER_SIZE"));
    assertTrue("a smaller buffer takes more reads: " + small + " vs " + buffered,
        small.get("NUM_READ_CALLS") > buffered.get("NUM_READ_CALLS"));

    assertEquals(1L, (long) withSession(ExecConstants.PARQUET_PAGEREADER_USE_FADVISE, true, sql, expected)
        .get("OPTION_READ_AHEAD_HINT"));
    assertEquals(7L, (long) withSession(ExecConstants.PARQUET_PAGEREADER_QUEUE_SIZE, 7L, sql, expected)
        .get("OPTION_QUEUE_DEPTH"));
    assertEquals(0L, (long) withSession(ExecConstants.PARQUET_COLUMNREADER_ASYNC, false, sql, expected)
        .get("OPTION_PARALLEL_DECODE"));

    Map<String, Long> rows = withSession(ExecConstants.PARQUET_FLAT_BATCH_NUM_RECORDS, 1000L, sql, expected);
    assertEquals(1000L, (long) rows.get("OPTION_BATCH_ROWS"));
    // 40 batches of 1000 rows, and possibly ScanBatch's schema-only batch first.
    assertEquals(40_000, lastScan.records());
    assertTrue(lastScan.toString(), lastScan.batches() == 40 || lastScan.batches() == 41);
    // A byte limit on batches lowers the rows per batch in proportion to the row width.
    long memory = withSession(ExecConstants.PARQUET_FLAT_BATCH_MEMORY_SIZE, 100_000L, sql, expected)
        .get("OPTION_BATCH_ROWS");
    assertTrue("rows per batch under a 100 KB limit: " + memory, memory > 100 && memory < 5000);
  }

  @Test
  public void formatConfigKnobsThroughTheTableFunction() throws Exception {
    Result expected = Result.of(client, "select " + COLUMNS + " from " + builtIn(table));
    String knobs = "table(dfs.`" + table + "`(type => 'turbo-parquet', memoryBudget => 65536, "
        + "parallelDecode => false, verifyChecksums => true))";
    Result actual = Result.of(client, "select " + COLUMNS + " from " + knobs);
    assertEquals(expected, actual);
    Map<String, Long> m = scanMetrics("select " + COLUMNS + " from " + knobs);
    assertEquals(65536L, (long) m.get("OPTION_MEMORY_BUDGET"));
    assertEquals(0L, (long) m.get("OPTION_PARALLEL_DECODE"));
    assertEquals("decoding ahead needs parallel decode", 0L, (long) m.get("OPTION_DECODE_AHEAD"));
    // Decoding ahead off: the same rows, in batches small enough that decoding ahead would matter.
    String noAhead = "select " + COLUMNS + " from table(dfs.`" + table + "`(type => 'turbo-parquet', "
        + "decodeAhead => false))";
    client.alterSession(ExecConstants.PARQUET_FLAT_BATCH_NUM_RECORDS, 1000L);
    try {
      assertEquals(expected, Result.of(client, noAhead));
      assertEquals(0L, (long) scanMetrics(noAhead).get("OPTION_DECODE_AHEAD"));
    } finally {
      client.resetSession(ExecConstants.PARQUET_FLAT_BATCH_NUM_RECORDS);
    }
    // The format config wins over the session option.
    client.alterSession(ExecConstants.PARQUET_COLUMNREADER_ASYNC, false);
    try {
      assertEquals(1L, (long) scanMetrics("select " + COLUMNS + " from table(dfs.`" + table
          + "`(type => 'turbo-parquet', parallelDecode => true))").get("OPTION_PARALLEL_DECODE"));
    } finally {
      client.resetSession(ExecConstants.PARQUET_COLUMNREADER_ASYNC);
    }
    try {
      client.queryBuilder().sql("select l_orderkey from table(dfs.`" + table
          + "`(type => 'turbo-parquet', memoryBudget => 10))").run();
      throw new AssertionError("a 10-byte memory budget should be refused");
    } catch (Exception e) {
      assertTrue(e.getMessage(), e.getMessage().contains("memoryBudget must be at least"));
    }
  }

  @Test
  public void countStarIsAnsweredFromTheFooters() throws Exception {
    for (String count : List.of("count(*)", "count(l_orderkey)", "count(l_comment)")) {
      String sql = "select " + count + " from " + turbo(table);
      String plan = client.queryBuilder().sql(sql).explainText();
      assertTrue(plan, plan.contains("DirectScan") || plan.contains("DynamicPojoRecordReader"));
      assertFalse(plan, plan.contains("TurboParquetGroupScan"));
      assertEquals(40_000L, client.queryBuilder().sql(sql).singletonLong());
    }
    // A filter needs the rows: then the scan runs.
    String filtered = "select count(*) from " + turbo(table) + " where l_linenumber = 1";
    assertTrue(client.queryBuilder().sql(filtered).explainText().contains("TurboParquetGroupScan"));
    assertEquals(client.queryBuilder().sql(filtered.replace("turbo-parquet", "parquet")).singletonLong(),
        client.queryBuilder().sql(filtered).singletonLong());
  }

  @Test
  public void typeOptionsAndRareTypesAsTheBuiltInReader() throws Exception {
    Path dir = Files.createDirectories(data.resolve("types"));
    Files.copy(CorpusFiles.file("alltypes_plain.parquet"), dir.resolve("alltypes_plain.parquet"));
    String int96 = "select id, timestamp_col from ";
    // INT96 is binary by default and a timestamp with the option on.
    assertEquals(Result.of(client, int96 + builtIn("types/alltypes_plain.parquet")),
        Result.of(client, int96 + turbo("types/alltypes_plain.parquet")));
    client.alterSession(ExecConstants.PARQUET_READER_INT96_AS_TIMESTAMP, true);
    try {
      Result expected = Result.of(client, int96 + builtIn("types/alltypes_plain.parquet"));
      assertTrue(expected.schema().toString(), expected.schema().get(1).contains("TIMESTAMP"));
      assertEquals(expected, Result.of(client, int96 + turbo("types/alltypes_plain.parquet")));
    } finally {
      client.resetSession(ExecConstants.PARQUET_READER_INT96_AS_TIMESTAMP);
    }
    // INTERVAL (months, days, millis), required and optional.
    MessageType schema = MessageTypeParser.parseMessageType("message t { required int32 id; "
        + "required fixed_len_byte_array(12) iv (INTERVAL); optional fixed_len_byte_array(12) ivn (INTERVAL); }");
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    try (ParquetWriter<Group> w = ExampleParquetWriter.builder(
        new org.apache.hadoop.fs.Path(dir.resolve("interval.parquet").toUri()))
        .withConf(new Configuration()).withType(schema).build()) {
      for (int i = 0; i < 500; i++) {
        Group g = groups.newGroup();
        g.add("id", i);
        g.add("iv", interval(i % 13, i % 29, i * 1000));
        if (i % 4 != 0) {
          g.add("ivn", interval(i, 2 * i, 3 * i));
        }
        w.write(g);
      }
    }
    Result expected = Result.of(client, "select * from " + builtIn("types/interval.parquet"));
    assertTrue(expected.schema().toString(), expected.schema().get(1).contains("INTERVAL"));
    Result actual = Result.of(client, "select * from " + turbo("types/interval.parquet"));
    assertEquals(expected.schema(), actual.schema());
    assertEquals(expected.rows(), actual.rows());
  }

  private static Binary interval(int months, int days, int millis) {
    return Binary.fromConstantByteArray(java.nio.ByteBuffer.allocate(12).order(java.nio.ByteOrder.LITTLE_ENDIAN)
        .putInt(months).putInt(days).putInt(millis).array());
  }

  /**
   * The scan's pipeline reads ahead across row groups (every row group after the first is read
   * while an earlier one decodes) and opens the next reader's row group while the last batch of
   * the current one is in use. All rows come out as from Drill's reader, and a LIMIT that ends
   * exactly at a row group's end (so the next row group was opened and others read ahead, but
   * never set up) leaves no buffer behind: Drill's allocator fails the query (or the cluster's
   * close) on a leak.
   */
  @Test
  public void decodingAheadAcrossRowGroupsKeepsRowsAndFreesWhatALimitLeaves() throws Exception {
    GeneratedFile small = TestFileGenerator.lineitemLike(Files.createDirectories(data.resolve("li-groups")), 30_000,
        CompressionCodecName.SNAPPY, 256 * 1024);
    String t = "li-groups/" + small.path().getFileName();
    FileMetadata footer = TurboParquetDrillTest.footer(small.path());
    assertTrue("row groups: " + footer.rowGroups().size(), footer.rowGroups().size() >= 3);
    String sql = "select " + COLUMNS + " from ";
    client.alterSession(ExecConstants.PARQUET_FLAT_BATCH_NUM_RECORDS, 1500L);
    try {
      assertEquals(Result.of(client, sql + builtIn(t)), Result.of(client, sql + turbo(t)));
      // Local files are not read ahead unless the format property says so.
      assertEquals(0L, (long) scanMetrics(sql + turbo(t)).get("NUM_PREFETCHED_ROWGROUPS"));
      String prefetching = "table(dfs.`" + t + "`(type => '" + TurboParquetFormatConfig.NAME
          + "', prefetchRowGroups => true))";
      assertEquals(Result.of(client, sql + builtIn(t)), Result.of(client, sql + prefetching));
      assertEquals(footer.rowGroups().size() - 1, (long) scanMetrics(sql + prefetching).get("NUM_PREFETCHED_ROWGROUPS"));
      long rows = 0;
      for (int g = 0; g < footer.rowGroups().size() - 1; g++) {
        rows += footer.rowGroups().get(g).numRows();
        // The filter keeps Drill from pushing the LIMIT into the scan.
        String limited = "select count(*), sum(l_orderkey), min(l_comment) from (select " + COLUMNS + " from %s"
            + " where l_orderkey >= 0 limit " + rows + ")";
        Result expected = Result.of(client, String.format(limited, builtIn(t)));
        for (String table : List.of(turbo(t), prefetching)) { // the next row group opened early, read ahead or not
          assertEquals(table, expected, Result.of(client, String.format(limited, table)));
          assertEquals(rows, client.queryBuilder().sql(String.format(
              "select count(*) from (select l_orderkey from %s where l_orderkey >= 0 limit " + rows + ")", table))
              .singletonLong());
        }
      }
    } finally {
      client.resetSession(ExecConstants.PARQUET_FLAT_BATCH_NUM_RECORDS);
    }
  }

  /**
   * Drill prunes row groups at planning time only up to a threshold of row groups; above it the
   * filter goes to the fragments, which prune by statistics as they build their readers. With the
   * threshold at 1, ours prunes what Drill's reader prunes, gives its rows and reports the same
   * counts; a filter no row group matches prunes them all and still returns the schema.
   */
  @Test
  public void rowGroupsArePrunedAtRunTimeAsByTheBuiltInReader() throws Exception {
    GeneratedFile file = TestFileGenerator.lineitemLike(Files.createDirectories(data.resolve("li-prune")), 30_000,
        CompressionCodecName.SNAPPY, 256 * 1024);
    String t = "li-prune/" + file.path().getFileName();
    long groups = TurboParquetDrillTest.footer(file.path()).rowGroups().size();
    assertTrue("row groups: " + groups, groups >= 3);
    // l_orderkey grows through the file: only the first row group holds keys below 100.
    String sql = "select count(*), sum(l_quantity), min(l_shipdate), max(l_comment) from %s where l_orderkey < 100";
    String none = "select l_orderkey, l_comment from %s where l_orderkey < 0";
    client.alterSession(PlannerSettings.PARQUET_ROWGROUP_FILTER_PUSHDOWN_PLANNING_THRESHOLD_KEY, 1L);
    try {
      assertEquals(Result.of(client, String.format(sql, builtIn(t))), Result.of(client, String.format(sql, turbo(t))));
      Map<String, Long> ours = scanMetrics(String.format(sql, turbo(t)));
      Map<String, Long> drills = metrics(String.format(sql, builtIn(t)), "PARQUET_ROW_GROUP_SCAN");
      assertEquals(groups - 1, (long) ours.get("ROWGROUPS_PRUNED"));
      assertEquals(drills.get("ROWGROUPS_PRUNED"), ours.get("ROWGROUPS_PRUNED"));
      assertEquals(drills.get("NUM_ROWGROUPS"), ours.get("NUM_ROWGROUPS"));
      assertEquals(Result.of(client, String.format(none, builtIn(t))), Result.of(client, String.format(none, turbo(t))));
      assertEquals(groups, (long) scanMetrics(String.format(none, turbo(t))).get("ROWGROUPS_PRUNED"));
    } finally {
      client.resetSession(PlannerSettings.PARQUET_ROWGROUP_FILTER_PUSHDOWN_PLANNING_THRESHOLD_KEY);
    }
    // Under the threshold the planner prunes: the scan gets the one matching row group.
    Map<String, Long> planned = scanMetrics(String.format(sql, turbo(t)));
    assertEquals(1L, (long) planned.get("NUM_ROWGROUPS"));
    assertEquals(0L, (long) planned.get("ROWGROUPS_PRUNED"));
  }

  /**
   * A filter that every row group's statistics satisfy is dropped by Drill's planner, and the scan
   * then projects nothing: Drill hands the reader a skip query with the star as its columns. Such a
   * scan must read no column data, flat or nested, and still count every row.
   */
  @Test
  public void countWithAFilterEveryRowMatchesReadsNoColumnData() throws Exception {
    String nested = "nested/" + TestFileGenerator.nested(Files.createDirectories(data.resolve("nested")),
        CompressionCodecName.SNAPPY, false, true, false, 30_000, 7).path().getFileName();
    for (String[] c : new String[][] {{table, "l_orderkey"}, {nested, "id"}}) {
      String sql = "select count(*) as n from %s where " + c[1] + " > -1";
      assertTrue("the planner dropped the filter and projects nothing",
          client.queryBuilder().sql(String.format(sql, turbo(c[0]))).explainText().contains("columns=[]"));
      Map<String, Long> ours = scanMetrics(String.format(sql, turbo(c[0])));
      long rows = rows(data.resolve(c[0]));
      assertEquals(rows, (long) ours.get("NUM_ROWS"));
      assertEquals(c[0] + ": " + ours, 0L, (long) ours.get("TOTAL_READ_BYTES"));
      assertEquals(c[0] + ": " + ours, 0L, (long) ours.get("NUM_DATA_PAGES_DECODED"));
      assertEquals(Result.of(client, String.format(sql, builtIn(c[0]))), Result.of(client, String.format(sql, turbo(c[0]))));
      assertEquals(rows, client.queryBuilder().sql(String.format(sql, turbo(c[0]))).singletonLong());
    }
  }

  /**
   * A LIMIT reads no more than the first row group's projected column chunks (and their offset
   * indexes), and gives the built-in's rows.
   */
  @Test
  public void limitReadsOnlyTheFirstRowGroupsProjectedChunks() throws Exception {
    GeneratedFile many = TestFileGenerator.lineitemLike(Files.createDirectories(data.resolve("many")), 100_000,
        CompressionCodecName.SNAPPY, 1 << 20);
    String t = "many/" + many.path().getFileName();
    List<BlockMetaData> rowGroups;
    try (ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromPath(
        new org.apache.hadoop.fs.Path(many.path().toUri()), new org.apache.hadoop.conf.Configuration()))) {
      rowGroups = r.getFooter().getBlocks();
    }
    assertTrue("row groups: " + rowGroups.size(), rowGroups.size() > 5);
    for (List<String> columns : List.of(List.<String>of(), List.of("l_orderkey", "l_comment"))) {
      String projection = columns.isEmpty() ? "*" : String.join(", ", columns);
      String sql = "select " + projection + " from %s limit 10";
      Map<String, Long> ours = scanMetrics(String.format(sql, turbo(t)));
      long firstChunks = rowGroups.get(0).getColumns().stream()
          .filter(c -> columns.isEmpty() || columns.contains(c.getPath().toDotString()))
          .mapToLong(c -> c.getTotalSize()).sum();
      // The chunks' offset indexes too, which say which of their pages hold the rows needed.
      long indexes = ours.get("TOTAL_PAGE_INDEX_BYTES");
      assertTrue(projection + ": read " + ours.get("TOTAL_READ_BYTES") + " > " + firstChunks + " + " + indexes,
          ours.get("TOTAL_READ_BYTES") <= firstChunks + indexes);
      assertEquals(projection, 1L, (long) ours.get("NUM_ROWGROUPS"));
      assertEquals(Result.of(client, String.format(sql, builtIn(t))), Result.of(client, String.format(sql, turbo(t))));
    }
  }

  @Test
  public void cancelledQueryStopsItsScanAndFreesItsBuffers() throws Exception {
    // Small batches so that the scan is still running when the first one arrives and we cancel.
    client.alterSession(ExecConstants.PARQUET_FLAT_BATCH_NUM_RECORDS, 100L);
    try {
      CancelOnFirstBatch listener = new CancelOnFirstBatch();
      client.queryBuilder().sql("select " + COLUMNS + " from " + turbo(table)).withListener(listener);
      assertEquals(QueryState.CANCELED, listener.state.get(60, TimeUnit.SECONDS));
    } finally {
      client.resetSession(ExecConstants.PARQUET_FLAT_BATCH_NUM_RECORDS);
    }
    // The drillbit goes on serving; the allocator's leak check runs when the cluster closes.
    assertEquals(40_000L, client.queryBuilder().sql("select count(l_orderkey) from " + turbo(table)
        + " where l_orderkey > 0").singletonLong());
  }

  /** Cancels the query when its first batch of rows arrives and reports how it ended. */
  private static final class CancelOnFirstBatch implements UserResultsListener {
    final CompletableFuture<QueryState> state = new CompletableFuture<>();
    private volatile QueryId id;
    private boolean cancelled;

    @Override
    public void queryIdArrived(QueryId queryId) {
      id = queryId;
    }

    @Override
    public void submissionFailed(UserException ex) {
      state.completeExceptionally(ex);
    }

    @Override
    public synchronized void dataArrived(QueryDataBatch result, ConnectionThrottle throttle) {
      result.release();
      if (!cancelled && result.getHeader().getRowCount() > 0) {
        cancelled = true;
        // Not from Drill's RPC thread, which may not send.
        CompletableFuture.runAsync(() -> client.client().cancelQuery(id));
      }
    }

    @Override
    public void queryCompleted(QueryState queryState) {
      state.complete(queryState);
    }
  }

  private static Map<String, Long> withSession(String option, Object value, String sql, Result expected)
      throws Exception {
    set(option, value);
    try {
      assertEquals(option + " = " + value, expected, Result.of(client, sql));
      return scanMetrics(sql);
    } finally {
      client.resetSession(option);
    }
  }

  private static void set(String option, Object value) {
    client.alterSession(option, value);
  }

  private static String turbo(String relative) {
    return "table(dfs.`" + relative + "`(type => '" + TurboParquetFormatConfig.NAME + "'))";
  }

  private static String builtIn(String relative) {
    return "table(dfs.`" + relative + "`(type => 'parquet'))";
  }

  private static Map<String, Long> scanMetrics(String sql) throws Exception {
    return metrics(sql, SCAN);
  }

  /** The scan operator of the last query {@link #metrics} ran. */
  private static ScanProfiles.Operator lastScan;

  /** Runs the query and returns the named metrics of its (single) operator of the given type. */
  private static Map<String, Long> metrics(String sql, String operatorType) throws Exception {
    QuerySummary summary = client.queryBuilder().sql(sql).run();
    assertTrue(summary.toString(), summary.succeeded());
    List<ScanProfiles.Operator> scans = ScanProfiles.of(cluster, summary, operatorType);
    assertEquals(sql, 1, scans.size());
    lastScan = scans.get(0);
    return lastScan.metrics();
  }

  /** parquet-java's row count of a file. */
  private static long rows(Path file) throws Exception {
    try (ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromPath(
        new org.apache.hadoop.fs.Path(file.toUri()), new org.apache.hadoop.conf.Configuration()))) {
      return r.getRecordCount();
    }
  }

  /** parquet-java's count of data pages of the given leaf columns over the whole file. */
  private static long dataPages(Path file, List<Integer> leaves) throws Exception {
    long pages = 0;
    try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(
        new org.apache.hadoop.fs.Path(file.toUri()), new Configuration()))) {
      List<org.apache.parquet.column.ColumnDescriptor> columns = reader.getFileMetaData().getSchema().getColumns();
      PageReadStore rowGroup;
      while ((rowGroup = reader.readNextRowGroup()) != null) {
        for (int leaf : leaves) {
          PageReader pagesOfChunk = rowGroup.getPageReader(columns.get(leaf));
          DataPage page;
          while ((page = pagesOfChunk.readPage()) != null) {
            pages++;
          }
        }
      }
    }
    return pages;
  }
}
