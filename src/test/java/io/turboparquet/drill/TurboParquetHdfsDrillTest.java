package io.turboparquet.drill;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.turboparquet.testing.GeneratedFile;
import io.turboparquet.testing.MiniHdfs;
import io.turboparquet.testing.OracleDigest;
import io.turboparquet.testing.TestFileGenerator;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.drill.exec.physical.rowSet.DirectRowSet;
import org.apache.drill.exec.physical.rowSet.RowSetReader;
import org.apache.drill.exec.record.metadata.ColumnMetadata;
import org.apache.drill.exec.store.dfs.FileSystemConfig;
import org.apache.drill.exec.store.dfs.WorkspaceConfig;
import org.apache.drill.exec.store.parquet.ParquetFormatConfig;
import org.apache.drill.test.ClusterTest;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The Drill plugin on HDFS: an embedded drillbit with a file-system storage plugin ({@code hdfs})
 * whose connection is an in-process HDFS cluster's {@code hdfs://} URI, carrying both the built-in
 * {@code parquet} format and {@code turbo-parquet}. A file of several row groups over several 256 KiB
 * blocks reads the same through both.
 */
public class TurboParquetHdfsDrillTest extends ClusterTest {
  private static final String TABLE = "lineitem.parquet";
  /** Every column but l_extendedprice, which Drill 1.22's built-in reader gets wrong (see TurboParquetDrillTest). */
  private static final String ALL_BUT_PRICE = "l_orderkey, l_partkey, l_suppkey, l_linenumber, l_quantity, "
      + "l_discount, l_tax, l_returnflag, l_linestatus, l_shipdate, l_commitdate, l_receiptdate, l_shipinstruct, "
      + "l_shipmode, l_comment";

  private static MiniHdfs hdfs;
  private static GeneratedFile lineitem;

  @BeforeClass
  public static void setup() throws Exception {
    hdfs = MiniHdfs.start("drill", 2, 2, 256 * 1024);
    java.nio.file.Path local = Files.createDirectories(dirTestWatcher.getRootDir().toPath().resolve("local"));
    lineitem = TestFileGenerator.lineitemLike(local, 30_000, CompressionCodecName.SNAPPY, 256 * 1024);
    Path remote = hdfs.upload(lineitem.path(), new Path("/data/" + TABLE));
    long length = hdfs.fileSystem().getFileStatus(remote).getLen();
    assertTrue("several blocks", hdfs.blocks(remote, 0, length).length >= 3);
    assertTrue("several row groups", OracleDigest.footer(lineitem.path()).getBlocks().size() >= 3);

    startCluster(EmbeddedDrill.builder(dirTestWatcher).maxParallelization(1));
    FileSystemConfig plugin = new FileSystemConfig(hdfs.uri().toString(), Map.of(),
        Map.of("data", new WorkspaceConfig("/data", false, null, false)),
        Map.of("parquet", new ParquetFormatConfig(), TurboParquetFormatConfig.NAME, new TurboParquetFormatConfig()),
        null);
    plugin.setEnabled(true);
    cluster.defineStoragePlugin("hdfs", plugin);
  }

  @AfterClass
  public static void stopHdfs() {
    if (hdfs != null) {
      hdfs.close();
    }
  }

  @Test
  public void sameRowsAsTheBuiltInReader() throws Exception {
    String plan = client.queryBuilder().sql("select l_orderkey from " + table(TurboParquetFormatConfig.NAME))
        .explainText();
    assertTrue(plan, plan.contains("TurboParquetGroupScan") && plan.contains("hdfs://"));
    same(ALL_BUT_PRICE, "");
    same("l_comment, l_shipmode, l_orderkey", "where l_linenumber = 2");
    same("count(*)", "where l_returnflag = 'R'");
    // Two fragments, the row groups split between them.
    client.alterSession("planner.slice_target", 1);
    client.alterSession("planner.width.max_per_node", 2);
    try {
      same("l_partkey, l_commitdate, l_shipinstruct", "");
    } finally {
      client.resetSession("planner.slice_target");
      client.resetSession("planner.width.max_per_node");
    }
  }

  @Test
  public void priceColumnAsParquetJavaReadsIt() throws Exception {
    List<String> expected = new ArrayList<>();
    OracleDigest.readColumn(lineitem.path(), "l_extendedprice").entries()
        .forEach(e -> expected.add(BigDecimal.valueOf((Long) e.value(), 2).toString()));
    List<String> actual = rows("select l_extendedprice from " + table(TurboParquetFormatConfig.NAME));
    // One fragment: the rows come in file order.
    assertEquals(expected, actual.subList(1, actual.size()));
  }

  /** Same column types and the same rows, in any order (several fragments). */
  private static void same(String columns, String where) throws Exception {
    String query = "select " + columns + " from %s " + where;
    List<String> expected = rows(String.format(query, table("parquet")));
    List<String> actual = rows(String.format(query, table(TurboParquetFormatConfig.NAME)));
    assertTrue(query + ": no rows", expected.size() > 1);
    assertEquals(query + " (schema)", expected.get(0), actual.get(0));
    assertEquals(query, sorted(expected.subList(1, expected.size())), sorted(actual.subList(1, actual.size())));
  }

  private static List<String> sorted(List<String> rows) {
    return rows.stream().sorted().toList();
  }

  private static String table(String type) {
    return "table(hdfs.data.`" + TABLE + "`(type => '" + type + "'))";
  }

  /** The column names and types, then every row as text in the order the query returns them. */
  private static List<String> rows(String sql) throws Exception {
    List<String> schema = new ArrayList<>();
    List<String> rows = new ArrayList<>();
    rows.add("");
    for (DirectRowSet batch : client.queryBuilder().sql(sql).rowSetIterator()) {
      try {
        if (schema.isEmpty()) {
          for (ColumnMetadata c : batch.schema()) {
            schema.add(c.name() + " " + c.majorType().toString().replace('\n', ' '));
          }
        }
        RowSetReader reader = batch.reader();
        while (reader.next()) {
          StringBuilder row = new StringBuilder();
          for (int i = 0; i < reader.columnCount(); i++) {
            row.append(i == 0 ? "" : " | ").append(reader.column(i).getObject());
          }
          rows.add(row.toString());
        }
      } finally {
        batch.clear();
      }
    }
    rows.set(0, String.join(", ", schema));
    return rows;
  }
}
