package io.turboparquet.drill;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.apache.drill.exec.ExecConstants;
import org.apache.drill.test.ClusterTest;
import org.apache.drill.test.QueryRowSetIterator;
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
 * The scan drops the rows the pushed filter rules out (issue 34): random predicate trees (AND, OR,
 * NOT; comparisons, IN, BETWEEN, IS [NOT] NULL, IS [NOT] TRUE/FALSE, LIKE, ILIKE; literals of the column's
 * type and of others, which Drill casts) over random data with nulls, NaN, -0.0 and values where
 * Drill's casts round give the same rows through turbo-parquet as through Drill's built-in reader,
 * while turbo-parquet's scan hands Drill fewer rows than it decodes.
 */
public class RowFilterDrillTest extends ClusterTest {
  private static final int ROWS = 6_000;
  private static final String SCAN = TurboParquetRowGroupScan.OPERATOR_TYPE;
  private static final SplittableRandom DATA = new SplittableRandom(34);

  /** A column and how to write a random literal for it (some off its values, some of another type). */
  private record Column(String name, Function<SplittableRandom, String> literal) {}

  private static final List<Column> COLUMNS = List.of(
      new Column("i32", r -> r.nextInt(6) == 0 ? (r.nextInt(40) - 20) + ".5" : String.valueOf(r.nextInt(60) - 25)),
      new Column("i64", r -> r.nextInt(5) == 0 ? "9007199254740993.0" : String.valueOf((1L << 53) + r.nextInt(8) - 4)),
      new Column("f32", r -> r.nextBoolean() ? String.valueOf(r.nextInt(40) / 4.0) : r.nextBoolean() ? "0.7" : "-0.0"),
      new Column("f64", r -> r.nextBoolean() ? String.valueOf(r.nextInt(60) / 8.0) : r.nextBoolean() ? "0.1" : "0"),
      new Column("dec9", r -> String.valueOf((r.nextInt(200) - 100) / 4.0)),
      new Column("s", r -> "'x" + r.nextInt(70) + (r.nextInt(4) == 0 ? "a'" : "'")),
      new Column("d", r -> "date '2020-01-" + String.format("%02d", 1 + r.nextInt(31)) + "'"),
      new Column("tsm", r -> "timestamp '2020-01-0" + (1 + r.nextInt(8)) + " " + String.format("%02d", r.nextInt(24))
          + ":00:00'"));

  private static String table(String type) {
    return "table(dfs.`rowfilter/t.parquet`(type => '" + type + "'))";
  }

  @BeforeClass
  public static void setup() throws Exception {
    startCluster(EmbeddedDrill.builder(dirTestWatcher).maxParallelization(1)
        .sessionOption(ExecConstants.QUERY_PROFILE_DEBUG_OPTION, true));
    write(Files.createDirectories(dirTestWatcher.getRootDir().toPath().resolve("rowfilter")).resolve("t.parquet"));
  }

  @Test
  public void randomFiltersGiveTheBuiltInReadersRows() throws Exception {
    SplittableRandom random = new SplittableRandom(3434);
    long dropped = 0;
    long handed = 0;
    int selective = 0;
    for (int i = 0; i < 60; i++) {
      String where = predicate(random, 1 + random.nextInt(3));
      where = where.equals("b") ? "b = true" : where; // alone, a column of a schemaless table is no condition to Calcite
      String columns = i % 3 == 0 ? "id" : "id, i32, f32, s, d, b, t";
      String sql = "select " + columns + " from TABLE where " + where + " order by id";
      Result expected;
      try {
        expected = Result.of(client, sql.replace("TABLE", table("parquet")));
      } catch (Exception e) {
        throw new AssertionError(where, e);
      }
      String turbo = sql.replace("TABLE", table(TurboParquetFormatConfig.NAME));
      // The rows and the scan's metrics of one run of the query (its profile, by the query's id).
      QueryRowSetIterator batches = client.queryBuilder().sql(turbo).rowSetIterator();
      assertEquals(where, expected, Result.of(batches));
      for (ScanProfiles.Operator scan : ScanProfiles.of(cluster, batches.queryIdString(), SCAN)) {
        assertEquals(where, scan.metric("NUM_ROWS"), scan.records());
        handed += scan.records();
        dropped += scan.metric("NUM_FILTERED_ROWS");
        selective += scan.metric("NUM_FILTERED_ROWS") > 0 ? 1 : 0;
      }
    }
    String what = "scans that dropped rows: " + selective + " of 60; rows dropped " + dropped + ", handed to Drill "
        + handed;
    System.out.println(what);
    assertTrue(what, selective > 20 && 4 * dropped > dropped + handed); // over a quarter of the rows judged
  }

  /**
   * NOT is judged in the scan too: each of these keeps under half of the rows, so the scan drops
   * rows in every batch, and gives the built-in reader's rows (nulls pass neither side of a NOT,
   * but do pass IS NOT TRUE). Drill's planner turns NOT of a comparison, IN, BETWEEN or IS NULL
   * into its negation itself; NOT of LIKE reaches the scan as {@code not}, and without its
   * translation the third filter drops no row.
   */
  @Test
  public void negatedFiltersDropRowsInTheScan() throws Exception {
    for (String where : List.of("not (i32 > -10)", "i32 not between -15 and 29",
        "not (s like '%1%' or s like '%2%' or s like '%3%')", "s not like '%0' and not (s >= 'x3')",
        "not ilike(t, '%X%')", "t like 'x%1%' or ilike(t, '%É')", "not (t like '%_')",
        "not (b or i32 > 0)", "b is not true and i32 < 0", "not (d >= date '2020-01-08')")) {
      String sql = "select id, i32, s, b, d, t from TABLE where " + where + " order by id";
      Result expected = Result.of(client, sql.replace("TABLE", table("parquet")));
      QueryRowSetIterator batches = client.queryBuilder().sql(sql.replace("TABLE", table(TurboParquetFormatConfig.NAME)))
          .rowSetIterator();
      assertEquals(where, expected, Result.of(batches));
      long dropped = 0;
      for (ScanProfiles.Operator scan : ScanProfiles.of(cluster, batches.queryIdString(), SCAN)) {
        dropped += scan.metric("NUM_FILTERED_ROWS");
      }
      assertTrue(where + ": rows the scan dropped " + dropped, dropped > ROWS / 2);
    }
  }

  /** A random tree of {@code leaves} conditions. */
  private static String predicate(SplittableRandom r, int leaves) {
    if (leaves == 1) {
      String leaf = leaf(r);
      return r.nextInt(6) == 0 ? "not (" + leaf + ")" : leaf;
    }
    int left = 1 + r.nextInt(leaves - 1);
    String tree = "(" + predicate(r, left) + (r.nextBoolean() ? " and " : " or ") + predicate(r, leaves - left) + ")";
    return r.nextInt(8) == 0 ? "not " + tree : tree;
  }

  private static String leaf(SplittableRandom r) {
    switch (r.nextInt(13)) {
      case 0:
        return COLUMNS.get(r.nextInt(COLUMNS.size())).name() + (r.nextBoolean() ? " is null" : " is not null");
      case 1:
        return "b" + List.of(" is true", " is false", " is not true", " is not false", " = true", "").get(r.nextInt(6));
      case 2: {
        Column c = COLUMNS.get(r.nextInt(COLUMNS.size()));
        return c.name() + " in (" + c.literal().apply(r) + ", " + c.literal().apply(r) + ", " + c.literal().apply(r) + ")";
      }
      case 3: {
        Column c = COLUMNS.get(r.nextInt(COLUMNS.size()));
        return c.name() + " between " + c.literal().apply(r) + " and " + c.literal().apply(r);
      }
      case 4: {
        int d = r.nextInt(8);
        return "s like " + List.of("'x" + d + "%'", "'%" + d + "'", "'%" + d + "%'", "'x" + d + "_'", "'x%" + d + "'",
            "'x" + d + "'").get(r.nextInt(6));
      }
      case 5: { // Drill's regular expressions: ILIKE, and LIKE with _ or a % inside, on values with line terminators
        int d = r.nextInt(8);
        String pattern = List.of("'X" + d + "%'", "'%" + d + "%'", "'%é'", "'%É'", "'x%" + d + "%'", "'%'", "'x" + d + "'",
            "'%K'", "'_" + d + "%'", "'%" + d + "_'").get(r.nextInt(10));
        return r.nextInt(3) == 0 ? "t like " + pattern.replace("%'", "%a%'") : "ilike(t, " + pattern + ")";
      }
      default: {
        Column c = COLUMNS.get(r.nextInt(COLUMNS.size()));
        String op = List.of("=", "<>", "<", "<=", ">", ">=").get(r.nextInt(6));
        return r.nextInt(5) == 0 ? c.literal().apply(r) + " " + op + " " + c.name()
            : c.name() + " " + op + " " + c.literal().apply(r);
      }
    }
  }

  private static void write(Path path) throws IOException {
    MessageType type = MessageTypeParser.parseMessageType("message t { required int64 id; optional int32 i32; "
        + "optional int64 i64; optional float f32; optional double f64; optional int32 dec9 (DECIMAL(9,2)); "
        + "optional binary s (UTF8); optional boolean b; optional int32 d (DATE); "
        + "optional int64 tsm (TIMESTAMP(MILLIS,true)); optional binary t (UTF8); }");
    String[] ends = {"", "", "a", "\n", "é", "É", "\u2028", "a\rb", "\u212a", "k"};
    float[] floats = {16777216f, 0.1f, 0.7f, -0.0f, 0.0f, 1.5f, Float.NaN, 3.25f};
    double[] doubles = {0.1, 1.5, Double.NaN, -0.0, 0.0, 2.75};
    SimpleGroupFactory groups = new SimpleGroupFactory(type);
    try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(path.toUri()))
        .withConf(new Configuration()).withType(type).withRowGroupSize(48 * 1024L).withPageSize(4096).build()) {
      for (int i = 0; i < ROWS; i++) {
        Group g = groups.newGroup();
        g.add("id", (long) i);
        if (DATA.nextInt(9) != 0) {
          g.add("i32", DATA.nextInt(50) - 20);
        }
        if (DATA.nextInt(9) != 0) {
          g.add("i64", (1L << 53) + DATA.nextInt(8) - 4);
        }
        if (DATA.nextInt(9) != 0) {
          g.add("f32", DATA.nextInt(3) == 0 ? floats[DATA.nextInt(floats.length)] : DATA.nextInt(40) / 4f);
        }
        if (DATA.nextInt(9) != 0) {
          g.add("f64", DATA.nextInt(3) == 0 ? doubles[DATA.nextInt(doubles.length)] : DATA.nextInt(60) / 8.0);
        }
        if (DATA.nextInt(9) != 0) {
          g.add("dec9", DATA.nextInt(5000) - 2500);
        }
        if (DATA.nextInt(9) != 0) {
          g.add("s", "x" + DATA.nextInt(70));
        }
        if (DATA.nextInt(9) != 0) {
          g.add("b", DATA.nextBoolean());
        }
        if (DATA.nextInt(9) != 0) {
          g.add("d", 18262 + DATA.nextInt(31)); // from 2020-01-01
        }
        if (DATA.nextInt(9) != 0) {
          g.add("tsm", 1577836800000L + DATA.nextInt(200) * 1_800_000L);
        }
        if (DATA.nextInt(9) != 0) {
          g.add("t", (DATA.nextBoolean() ? "x" : "X") + DATA.nextInt(20) + ends[DATA.nextInt(ends.length)]);
        }
        w.write(g);
      }
    }
  }
}
