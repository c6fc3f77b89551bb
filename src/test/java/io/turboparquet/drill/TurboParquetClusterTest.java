package io.turboparquet.drill;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.turboparquet.testing.TestFileGenerator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.drill.exec.ExecConstants;
import org.apache.drill.test.ClusterTest;
import org.apache.drill.test.QueryBuilder.QuerySummary;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Three drillbits in this JVM (Drill's test cluster; ClusterDropInTest runs drillbits as JVMs of
 * their own): Drill splits a table's row groups between them, each reads its share with
 * turbo-parquet, and the rows are those of Drill's built-in reader. Also a directory whose files
 * have different schemas, which Drill's reader answers with nulls for the columns a file lacks.
 */
public class TurboParquetClusterTest extends ClusterTest {
  private static Path data;

  @BeforeClass
  public static void setup() throws Exception {
    startCluster(EmbeddedDrill.builder(dirTestWatcher).withBits("bit1", "bit2", "bit3")
        .sessionOption(ExecConstants.QUERY_PROFILE_DEBUG_OPTION, true)
        .sessionOption("planner.slice_target", 1)
        .sessionOption("planner.width.max_per_node", 1));
    data = dirTestWatcher.getRootDir().toPath();
  }

  @Test
  public void rowGroupsAreSplitBetweenDrillbits() throws Exception {
    Path dir = Files.createDirectories(data.resolve("split"));
    int files = 6;
    for (int i = 0; i < files; i++) {
      Path f = TestFileGenerator.lineitemLike(Files.createDirectories(dir.resolve("p" + i)), 2_000 + 500 * i,
          i % 2 == 0 ? CompressionCodecName.SNAPPY : CompressionCodecName.ZSTD).path();
      assertTrue(Files.exists(f));
    }
    String columns = "l_orderkey, l_partkey, l_quantity, l_extendedprice, l_shipdate, l_comment, dir0";
    Result expected = Result.of(client, "select " + columns + " from " + table("split", "parquet"));
    String sql = "select " + columns + " from " + table("split", TurboParquetFormatConfig.NAME);
    assertEquals(expected.schema(), Result.of(client, sql).schema());
    assertEquals(expected.rows(), Result.of(client, sql).rows());

    QuerySummary summary = client.queryBuilder().sql(sql).run();
    List<ScanProfiles.Operator> scans = ScanProfiles.of(cluster, summary, TurboParquetRowGroupScan.OPERATOR_TYPE);
    Set<String> endpoints = new HashSet<>();
    long rowGroups = 0;
    long rows = 0;
    for (ScanProfiles.Operator scan : scans) {
      endpoints.add(scan.endpoint());
      rowGroups += scan.metric("NUM_ROWGROUPS");
      rows += scan.metric("NUM_ROWS");
    }
    assertEquals("scans ran on every drillbit: " + scans, 3, endpoints.size());
    assertEquals(files, rowGroups);
    assertEquals(expected.rows().size(), rows);
    assertEquals(client.queryBuilder().sql("select count(*) from " + table("split", "parquet")
        + " where l_linenumber = 2").singletonLong(),
        client.queryBuilder().sql("select count(*) from " + table("split", TurboParquetFormatConfig.NAME)
            + " where l_linenumber = 2").singletonLong());
  }

  @Test
  public void filesWithDifferentSchemas() throws Exception {
    Path dir = Files.createDirectories(data.resolve("evolving"));
    write(dir.resolve("a.parquet"), "message t { required int64 id; optional binary name (STRING); }", 300,
        (g, i) -> {
          g.add("id", (long) i);
          if (i % 3 != 0) {
            g.add("name", "n" + i);
          }
        });
    write(dir.resolve("b.parquet"), "message t { required int64 id; required double score; }", 200,
        (g, i) -> {
          g.add("id", 1000L + i);
          g.add("score", i * 0.5);
        });
    write(dir.resolve("c.parquet"), "message t { optional int64 id; optional binary name (STRING); "
        + "optional int32 extra; }", 100, (g, i) -> {
          g.add("id", 5000L + i);
          g.add("name", "c" + i);
          if (i % 2 == 0) {
            g.add("extra", i);
          }
        });
    for (String columns : List.of("id, name", "id, score", "id, name, score, extra", "extra")) {
      Result expected = Result.of(client, "select " + columns + " from " + table("evolving", "parquet"));
      Result actual = Result.of(client, "select " + columns + " from "
          + table("evolving", TurboParquetFormatConfig.NAME));
      assertEquals(columns, expected.rows(), actual.rows());
      assertEquals(columns, 600, actual.rows().size());
    }
  }

  private interface Filler {
    void fill(Group g, int row);
  }

  private static void write(Path file, String schemaText, int rows, Filler filler) throws Exception {
    MessageType schema = MessageTypeParser.parseMessageType(schemaText);
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    try (ParquetWriter<Group> w = ExampleParquetWriter
        .builder(new org.apache.hadoop.fs.Path(file.toUri()))
        .withConf(new Configuration()).withType(schema)
        .withCompressionCodec(CompressionCodecName.SNAPPY).build()) {
      for (int i = 0; i < rows; i++) {
        Group g = groups.newGroup();
        filler.fill(g, i);
        w.write(g);
      }
    }
  }

  private static String table(String relative, String type) {
    return "table(dfs.`" + relative + "`(type => '" + type + "'))";
  }
}
