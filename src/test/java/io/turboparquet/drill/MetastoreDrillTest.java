package io.turboparquet.drill;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import org.apache.drill.exec.ExecConstants;
import org.apache.drill.exec.metastore.analyze.AnalyzeParquetInfoProvider;
import org.apache.drill.exec.store.direct.DirectSubScan;
import org.apache.drill.exec.store.parquet.ParquetRowGroupScan;
import org.apache.drill.metastore.components.tables.BasicTablesRequests;
import org.apache.drill.metastore.metadata.MetadataType;
import org.apache.drill.metastore.metadata.TableInfo;
import org.apache.drill.test.ClusterTest;
import org.apache.drill.test.QueryBuilder.QuerySummary;
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
 * {@code ANALYZE TABLE ... REFRESH METADATA} into Drill's Iceberg Metastore through the switch
 * ({@code tdfs}, our reader) and through stock {@code dfs}, each over its own copy of the same
 * table. Both must analyze from the footers alone (a direct scan, no row group read), store the
 * same files and row groups with the same schemas, row counts and column statistics, and later
 * queries must plan from the metastore with the same files, row groups and row-count estimates,
 * and give the same rows.
 */
public class MetastoreDrillTest extends ClusterTest {
  private static final String BUILT_IN = "dfs.`copy_b`";
  private static final String TURBO = "tdfs.`copy_t`";

  private static int rowGroups;

  @BeforeClass
  public static void setup() throws Exception {
    Path metastore = dirTestWatcher.getTmpDir().toPath().resolve("metastore").toAbsolutePath();
    startCluster(EmbeddedDrill.builder(dirTestWatcher).maxParallelization(1)
        .configProperty("drill.metastore.iceberg.location.base_path", metastore.toString())
        .systemOption(ExecConstants.METASTORE_ENABLED, true)
        .sessionOption(ExecConstants.QUERY_PROFILE_DEBUG_OPTION, true));
    SwitchDrillTest.defineSwitch(cluster, "tdfs");
    Path root = dirTestWatcher.getRootDir().toPath();
    SalesTable.write(root.resolve("copy_b"));
    SalesTable.write(root.resolve("copy_t"));
    rowGroups = SalesTable.rowGroups(root.resolve("copy_t"));
    assertTrue("several row groups per file: " + rowGroups, rowGroups >= 2 * SalesTable.YEARS * SalesTable.MONTHS);
    // Both read the footers only: a direct scan of the row groups' metadata, no row group read.
    QuerySummary b = analyze(BUILT_IN);
    assertFalse(ScanProfiles.of(cluster, b, DirectSubScan.OPERATOR_TYPE).isEmpty());
    assertEquals(List.of(), ScanProfiles.of(cluster, b, ParquetRowGroupScan.OPERATOR_TYPE));
    QuerySummary t = analyze(TURBO);
    assertFalse(ScanProfiles.of(cluster, t, DirectSubScan.OPERATOR_TYPE).isEmpty());
    assertEquals(List.of(), ScanProfiles.of(cluster, t, TurboParquetRowGroupScan.OPERATOR_TYPE));
  }

  private static QuerySummary analyze(String table) throws Exception {
    String sql = "analyze table " + table + " refresh metadata";
    QuerySummary summary = client.queryBuilder().sql(sql).run();
    assertTrue(sql, summary.succeeded());
    return summary;
  }

  @Test
  public void turboStoresWhatTheBuiltInReaderStores() throws Exception {
    List<String> builtIn = metastoreUnits("dfs", "copy_b");
    List<String> turbo = metastoreUnits("tdfs", "copy_t");
    assertEquals(rowGroups, builtIn.stream().filter(u -> u.startsWith("ROW_GROUP ")).count());
    assertEquals(1, builtIn.stream().filter(u -> u.startsWith("TABLE ")).count());
    assertEquals(builtIn, turbo);
    List<String> again = Result.of(client, "analyze table " + TURBO + " refresh metadata").cells().get(0);
    assertEquals("up to date: " + again, "false", again.get(0));
  }

  /**
   * ANALYZE of some columns only: turbo takes the built-in reader's path (Drill's rule finds
   * metadata missing for such a list and leaves it to a scan of the table, and so does ours) and
   * stores the same units, with those columns' statistics.
   */
  @Test
  public void aColumnListIsAnalyzedAsByTheBuiltInReader() throws Exception {
    Path root = dirTestWatcher.getRootDir().toPath();
    SalesTable.write(root.resolve("columns_b"));
    SalesTable.write(root.resolve("columns_t"));
    String sql = "analyze table %s columns (key, `day`) refresh metadata";
    QuerySummary b = client.queryBuilder().sql(String.format(sql, "dfs.`columns_b`")).run();
    QuerySummary t = client.queryBuilder().sql(String.format(sql, "tdfs.`columns_t`")).run();
    assertTrue(b.succeeded() && t.succeeded());
    assertEquals(ScanProfiles.of(cluster, b, DirectSubScan.OPERATOR_TYPE).isEmpty(),
        ScanProfiles.of(cluster, t, DirectSubScan.OPERATOR_TYPE).isEmpty());
    List<String> builtIn = metastoreUnits("dfs", "columns_b");
    assertTrue(builtIn.get(0), builtIn.stream().allMatch(u -> u.contains("`key`") && !u.contains("`name`")));
    assertEquals(builtIn, metastoreUnits("tdfs", "columns_t"));
  }

  /**
   * A table with a list and a struct: the list's statistics are left out (the metastore keeps none
   * of arrays), the struct's fields are kept; the same units as the built-in reader's.
   */
  @Test
  public void nestedColumnsAreAnalyzedAsByTheBuiltInReader() throws Exception {
    Path root = dirTestWatcher.getRootDir().toPath();
    for (String copy : List.of("nested_b", "nested_t")) {
      writeNested(Files.createDirectories(root.resolve(copy)));
    }
    String sql = "analyze table %s refresh metadata";
    QuerySummary b = client.queryBuilder().sql(String.format(sql, "dfs.`nested_b`")).run();
    QuerySummary t = client.queryBuilder().sql(String.format(sql, "tdfs.`nested_t`")).run();
    assertTrue(b.succeeded() && t.succeeded());
    assertFalse(ScanProfiles.of(cluster, b, DirectSubScan.OPERATOR_TYPE).isEmpty());
    assertFalse(ScanProfiles.of(cluster, t, DirectSubScan.OPERATOR_TYPE).isEmpty());
    List<String> builtIn = metastoreUnits("dfs", "nested_b");
    assertTrue(builtIn.get(0), builtIn.stream().filter(u -> u.startsWith("ROW_GROUP "))
        .allMatch(u -> u.contains("`point`.`x`") && !u.contains("`tags`.`list`")));
    assertEquals(builtIn, metastoreUnits("tdfs", "nested_t"));
  }

  /** Two files of ids, a list of tags and a struct, several row groups each. */
  private static void writeNested(Path dir) throws IOException {
    MessageType schema = MessageTypeParser.parseMessageType("message t { required int64 id; "
        + "optional group tags (LIST) { repeated group list { optional binary element (UTF8); } } "
        + "optional group point { required double x; required double y; } }");
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    for (int f = 0; f < 2; f++) {
      try (ParquetWriter<Group> w = ExampleParquetWriter.builder(
          new org.apache.hadoop.fs.Path(dir.resolve("part" + f + ".parquet").toUri()))
          .withConf(new Configuration()).withType(schema).withRowGroupSize(16 * 1024).withPageSize(4 * 1024)
          .build()) {
        for (int i = 0; i < 3_000; i++) {
          long id = f * 3_000L + i;
          Group g = groups.newGroup();
          g.add("id", id);
          Group tags = g.addGroup("tags");
          for (int k = 0; k < id % 3; k++) {
            tags.addGroup("list").add("element", "t" + (id + k) % 17);
          }
          if (id % 5 != 0) {
            g.addGroup("point").append("x", id / 10.0).append("y", -id / 10.0);
          }
          w.write(g);
        }
      }
    }
  }

  /**
   * The table's metadata in the metastore, one line per unit (table, segment, file, row group,
   * partition), sorted: where it is, its schema, its statistics (row count) and every statistic of
   * every column, the partition columns' too.
   */
  private static List<String> metastoreUnits(String plugin, String name) {
    TableInfo info = TableInfo.builder().name(name).owner(cluster.config().getString("user.name"))
        .storagePlugin(plugin).workspace("default").type(AnalyzeParquetInfoProvider.TABLE_TYPE_NAME).build();
    BasicTablesRequests requests = cluster.drillbit().getContext().getMetastoreRegistry().get().tables()
        .basicRequests();
    assertTrue(plugin + "." + name + " is in the metastore", requests.metastoreTableInfo(info).isExists());
    String root = dirTestWatcher.getRootDir().toPath().resolve(name).toAbsolutePath().normalize().toString();
    return requests.request(BasicTablesRequests.RequestMetadata.builder().tableInfo(info)
        .metadataTypes(MetadataType.TABLE, MetadataType.SEGMENT, MetadataType.FILE, MetadataType.ROW_GROUP,
            MetadataType.PARTITION).build()).stream()
        .map(u -> (u.metadataType() + " " + u.metadataKey() + " " + u.metadataIdentifier() + " " + u.column()
            + " " + u.path() + " #" + u.rowGroupIndex() + " " + u.location() + " " + u.partitionValues()
            + " " + (u.locations() == null ? null : u.locations().stream().sorted().toList())
            + " " + u.schema() + " " + u.metadataStatistics() + " " + new TreeMap<>(u.columnsStatistics()))
            .replace(root, "<root>"))
        .sorted()
        .toList();
  }

  @Test
  public void turboPlansFromTheMetastoreAsTheBuiltInReader() throws Exception {
    for (String where : List.of("", "where name is null", "where name = 'n17'")) {
      samePlans(where, false);
    }
    // Partition pruning (directories), row-group pruning (the sorted key and day), both.
    for (String where : List.of("where dir0 = 'year=2023'", "where key >= 20000 and key < 20100",
        "where day >= date '2022-06-01' and day < date '2022-06-03'", "where dir0 = 'year=2024' and key < 26000",
        "where dir1 = 'month=02' and key >= 20000")) {
      samePlans(where, true);
    }
  }

  /** Same rows, and plans from the metastore over the same files and row groups with the same estimate. */
  private static void samePlans(String where, boolean pruned) throws Exception {
    String sql = "select * from %s " + where;
    String builtIn = String.format(sql, BUILT_IN);
    String turbo = String.format(sql, TURBO);
    Result expected = Result.of(client, builtIn);
    Result actual = Result.of(client, turbo);
    assertFalse(where, expected.rows().isEmpty());
    assertEquals(where, expected.schema(), actual.schema());
    assertEquals(where, expected.rows(), actual.rows());

    ScanPlan b = ScanPlan.of(client, builtIn);
    ScanPlan t = ScanPlan.of(client, turbo);
    assertTrue(t.text(), t.isTurbo());
    assertTrue(where + ": the built-in reader used the metastore: " + b.text(), b.usedMetastore());
    assertTrue(where + ": turbo used the metastore: " + t.text(), t.usedMetastore());
    assertEquals(where + " files", b.files(), t.files());
    assertEquals(where + " row groups", b.rowGroups(), t.rowGroups());
    assertEquals(where + " pruned: " + t.rowGroups(), pruned, t.rowGroups() < rowGroups);
    assertEquals(where + " estimate", b.rootRows(), t.rootRows(), 0.0);
  }

  @Test
  public void countStarFromTheMetastore() throws Exception {
    for (String table : List.of(BUILT_IN, TURBO)) {
      String plan = explain("select count(*) from " + table);
      assertTrue(plan, plan.contains("DirectScan") && plan.contains("usedMetastore = true"));
      assertEquals(table, SalesTable.ROWS,
          client.queryBuilder().sql("select count(*) from " + table).singletonLong());
    }
    String sql = "select count(*) from %s where dir0 = 'year=2023' and key > 15000";
    assertEquals(client.queryBuilder().sql(String.format(sql, BUILT_IN)).singletonLong(),
        client.queryBuilder().sql(String.format(sql, TURBO)).singletonLong());
  }

  private static String explain(String sql) throws Exception {
    return client.queryBuilder().sql(sql).explainText();
  }

}
