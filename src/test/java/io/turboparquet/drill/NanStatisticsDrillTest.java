package io.turboparquet.drill;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.turboparquet.testing.ParquetJava118;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.drill.test.ClusterTest;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Filters on NaN-holding floating columns in Drill (parquet-testing's floating_orders_nan_count.parquet,
 * parquet-java 1.18: FLOAT and DOUBLE each in IEEE 754 total order and in the type order, with
 * nan_count; five row groups: no NaN, mixed, all NaN, zeros at the bottom, zeros at the top). Every
 * comparison on either side of every row group's values counts the same rows through turbo-parquet
 * as through Drill's built-in reader, and as Drill's own evaluation of every row (no filter to
 * push), which orders NaN above every number.
 */
public class NanStatisticsDrillTest extends ClusterTest {
  private static final String FILE = "floating_orders_nan_count.parquet";

  @BeforeClass
  public static void setup() throws Exception {
    startCluster(EmbeddedDrill.builder(dirTestWatcher).maxParallelization(1));
    Path root = dirTestWatcher.getRootDir().toPath();
    Files.copy(Path.of(NanStatisticsDrillTest.class.getResource("/parquet-testing/" + FILE).toURI()),
        root.resolve(FILE));
  }

  @Test
  public void noFilterLosesANaNRow() throws Exception {
    List<String> filters = new ArrayList<>();
    for (String column : List.of("float_ieee754", "float_typedef", "double_ieee754", "double_typedef")) {
      for (String op : List.of(">", ">=", "<", "<=", "=", "<>")) {
        for (String v : List.of("-6", "-3.5", "0", "0.5", "3.5", "6")) {
          filters.add(column + " " + op + " " + v);
        }
      }
    }
    List<String> everyRow = everyRow(filters, "parquet");
    List<Long> builtIn = counts(filters, "parquet");
    List<Long> turbo = counts(filters, TurboParquetFormatConfig.NAME);
    for (int i = 0; i < filters.size(); i++) {
      assertEquals("built-in: " + filters.get(i), Long.parseLong(everyRow.get(i)), (long) builtIn.get(i));
      assertEquals("turbo-parquet: " + filters.get(i), Long.parseLong(everyRow.get(i)), (long) turbo.get(i));
    }
    // The query: 14 rows through turbo-parquet while it pruned the row groups that hold NaN.
    assertTrue(turbo.get(filters.indexOf("float_ieee754 > 3.5")) > 14);
  }

  /**
   * FLOAT16 reads as FLOAT4: the file holds each row's value in every column, so the half-precision
   * columns equal the FLOAT one (NaN and -0.0 included), and filters on them lose no row either
   * (checked against Drill's evaluation of every row, through turbo-parquet: the built-in reader
   * gives FLOAT16 as bytes).
   */
  @Test
  public void float16ReadsAsFloat4() throws Exception {
    Result values = Result.of(client, "select float_ieee754, float16_ieee754, float16_typedef from "
        + table(TurboParquetFormatConfig.NAME));
    assertTrue(values.schema().get(1), values.schema().get(1).contains("FLOAT4"));
    for (List<String> row : values.cells()) {
      assertEquals(row.get(0), row.get(1));
      assertEquals(row.get(0), row.get(2));
    }
    List<String> filters = new ArrayList<>();
    for (String column : List.of("float16_ieee754", "float16_typedef")) {
      for (String op : List.of(">", ">=", "<", "<=", "=", "<>")) {
        for (String v : List.of("-3.5", "0", "3.5", "6")) {
          filters.add(column + " " + op + " " + v);
        }
      }
    }
    List<String> everyRow = everyRow(filters, TurboParquetFormatConfig.NAME);
    List<Long> turbo = counts(filters, TurboParquetFormatConfig.NAME);
    for (int i = 0; i < filters.size(); i++) {
      assertEquals("turbo-parquet: " + filters.get(i), Long.parseLong(everyRow.get(i)), (long) turbo.get(i));
    }
  }

  /**
   * A file parquet-java 1.18.1 writes with its defaults (IEEE 754 order with nan_count, page
   * indexes; row groups of numbers, of numbers and NaN, of NaN only, of NaN and nulls): every
   * comparison counts the same rows through both readers as Drill's evaluation of every row.
   */
  @Test
  public void aParquetJava118FileLosesNoRow() throws Exception {
    String file = "nan-parquet-java-118.parquet";
    ParquetJava118.writeNan(dirTestWatcher.getRootDir().toPath().resolve(file));
    List<String> filters = new ArrayList<>();
    for (String column : List.of("f", "d")) {
      for (String op : List.of(">", ">=", "<", "<=", "=", "<>")) {
        for (String v : List.of("-5.5", "3.5", "15.5", "25.5")) {
          filters.add(column + " " + op + " " + v);
        }
      }
    }
    List<String> everyRow = everyRow(file, filters, "parquet");
    List<Long> builtIn = counts(file, filters, "parquet");
    List<Long> turbo = counts(file, filters, TurboParquetFormatConfig.NAME);
    for (int i = 0; i < filters.size(); i++) {
      assertEquals("built-in: " + filters.get(i), Long.parseLong(everyRow.get(i)), (long) builtIn.get(i));
      assertEquals("turbo-parquet: " + filters.get(i), Long.parseLong(everyRow.get(i)), (long) turbo.get(i));
    }
    // FLOAT16 (the built-in reader gives it as bytes): against Drill's evaluation of every row through
    // turbo-parquet, and its row groups without NaN pruned by their bounds.
    List<String> halves = filters.stream().map(f -> "h" + f.substring(1)).distinct().toList();
    List<String> halfRows = everyRow(file, halves, TurboParquetFormatConfig.NAME);
    List<Long> halfTurbo = counts(file, halves, TurboParquetFormatConfig.NAME);
    for (int i = 0; i < halves.size(); i++) {
      assertEquals("turbo-parquet: " + halves.get(i), Long.parseLong(halfRows.get(i)), (long) halfTurbo.get(i));
    }
    String table = table(file, TurboParquetFormatConfig.NAME);
    int all = ScanPlan.of(client, "select count(*) from " + table + " where id >= 0").rowGroups();
    int kept = ScanPlan.of(client, "select count(*) from " + table + " where h > 15.5").rowGroups();
    assertTrue("h > 15.5 keeps " + kept + " of " + all + " row groups", kept < all);
  }

  /** Each filter's count as Drill evaluates it on every row: one scan, no filter to push. */
  private List<String> everyRow(List<String> filters, String type) throws Exception {
    return everyRow(FILE, filters, type);
  }

  private List<String> everyRow(String file, List<String> filters, String type) throws Exception {
    StringBuilder sql = new StringBuilder("select ");
    for (int i = 0; i < filters.size(); i++) {
      sql.append(i == 0 ? "" : ", ").append("sum(case when ").append(filters.get(i)).append(" then 1 else 0 end)");
    }
    return Result.of(client, sql.append(" from ").append(table(file, type)).toString()).cells().get(0);
  }

  /** Each filter's count: a query for every six filters, a scan each (each pruned on its own). */
  private List<Long> counts(List<String> filters, String type) throws Exception {
    return counts(FILE, filters, type);
  }

  private List<Long> counts(String file, List<String> filters, String type) throws Exception {
    List<Long> out = new ArrayList<>();
    for (int from = 0; from < filters.size(); from += 6) {
      StringBuilder sql = new StringBuilder("select i, n from (");
      for (int i = from; i < Math.min(from + 6, filters.size()); i++) {
        sql.append(i == from ? "" : " union all ").append("select ").append(i).append(" as i, count(*) as n from ")
            .append(table(file, type)).append(" where ").append(filters.get(i));
      }
      for (List<String> row : Result.of(client, sql.append(") order by i").toString()).cells()) {
        assertEquals(out.size(), Integer.parseInt(row.get(0)));
        out.add(Long.parseLong(row.get(1)));
      }
    }
    assertEquals(filters.size(), out.size());
    return out;
  }

  private static String table(String type) {
    return table(FILE, type);
  }

  private static String table(String file, String type) {
    return "table(dfs.`" + file + "`(type => '" + type + "'))";
  }
}
