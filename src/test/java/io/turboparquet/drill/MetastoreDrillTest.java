package io.turboparquet.drill;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.drill.exec.ExecConstants;
import org.apache.drill.exec.metastore.analyze.AnalyzeParquetInfoProvider;
import org.apache.drill.exec.store.direct.DirectSubScan;
import org.apache.drill.exec.store.parquet.ParquetRowGroupScan;
import org.apache.drill.metastore.components.tables.BasicTablesRequests;
import org.apache.drill.metastore.metadata.MetadataType;
import org.apache.drill.metastore.metadata.TableInfo;
import org.apache.drill.metastore.statistics.ColumnStatistics;
import org.apache.drill.metastore.statistics.ColumnStatisticsKind;
import org.apache.drill.test.ClusterTest;
import org.apache.drill.test.QueryBuilder.QuerySummary;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * {@code ANALYZE TABLE ... REFRESH METADATA} into Drill's Iceberg Metastore through the switch
 * ({@code tdfs}, our reader) and through stock {@code dfs}, each over its own copy of the same
 * table. Both must store the same files and row groups with the same row counts and column
 * statistics, and later queries must plan from the metastore with the same files, row groups and
 * row-count estimates, and give the same rows.
 *
 * <p>Drill's ConvertMetadataAggregateToDirectScanRule (ANALYZE from the footers, without a scan)
 * takes only Drill's own ParquetGroupScan, so through the switch ANALYZE reads the files with our
 * scan and Drill aggregates the values. That path stores a few things differently, all of them
 * Drill's doing (or parquet-java's) and none used differently by the planner here: the schema and
 * the column statistics list the partition columns (dir0, dir1) too, a DATE column's statistics
 * are typed DATE (BIGINT from the footers), a column's rowCount statistic is its non-null count
 * (the row count from the footers), a minimum of 0.0 is 0.0 (-0.0 in the footers, as parquet-java
 * writes it), and a segment's files come in another order. The comparison leaves those out.
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
    // The built-in ANALYZE reads the footers (a direct scan); ours scans every row with our reader.
    QuerySummary b = analyze(BUILT_IN);
    assertFalse(ScanProfiles.of(cluster, b, DirectSubScan.OPERATOR_TYPE).isEmpty());
    assertEquals(List.of(), ScanProfiles.of(cluster, b, ParquetRowGroupScan.OPERATOR_TYPE));
    QuerySummary t = analyze(TURBO);
    assertEquals(List.of(), ScanProfiles.of(cluster, t, DirectSubScan.OPERATOR_TYPE));
    assertEquals(SalesTable.ROWS, ScanProfiles.of(cluster, t, TurboParquetRowGroupScan.OPERATOR_TYPE).stream()
        .mapToLong(o -> o.metric("NUM_ROWS")).sum());
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
   * The table's metadata in the metastore, one line per unit (table, segment, file, row group,
   * partition), sorted: where it is, its statistics (row count) and each column's minimum,
   * maximum, null and non-null counts.
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
            + " " + u.metadataStatistics() + " " + columns(u.columnsStatistics())).replace(root, "<root>"))
        .sorted()
        .toList();
  }

  /** Each file column's statistics that pruning and estimates read, the partition columns left out. */
  private static Map<String, String> columns(Map<String, String> statistics) {
    Map<String, String> out = new TreeMap<>();
    statistics.forEach((column, json) -> {
      if (column.matches("`dir\\d+`")) {
        return;
      }
      ColumnStatistics<?> c = ColumnStatistics.of(json);
      out.put(column, List.of(ColumnStatisticsKind.MIN_VALUE, ColumnStatisticsKind.MAX_VALUE,
          ColumnStatisticsKind.NULLS_COUNT, ColumnStatisticsKind.NON_NULL_VALUES_COUNT).stream()
          .map(kind -> kind.getName() + "=" + unsignedZero(c.get(kind))).toList().toString());
    });
    return out;
  }

  /** parquet-java writes a minimum of 0.0 as -0.0 (Parquet's rule for float statistics); a scan sees 0.0. */
  private static Object unsignedZero(Object value) {
    return value instanceof Double d && d == 0.0 ? 0.0 : value;
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
