package io.turboparquet.drill;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.turboparquet.decode.HalfFloat;
import io.turboparquet.testing.OracleColumn;
import io.turboparquet.testing.OracleDigest;
import io.turboparquet.testing.UnsignedFiles;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.drill.test.ClusterTest;
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
 * Unsigned integers (UINT_8/16/32 in INT32, UINT_64 in INT64, as ClickBench's EventDate and
 * parquet-java write them) read in Drill as types Drill computes with, every value kept: INT, INT,
 * BIGINT and VARDECIMAL(20,0), each value equal to parquet-java's read unsigned, extremes included;
 * comparisons, casts and aggregates work on them. {@code builtInTypes => true} brings back the
 * built-in reader's UINT4 / UINT8, with its rows.
 */
public class UnsignedTypesDrillTest extends ClusterTest {
  private static final int ROWS = 5_000;
  private static Path file;

  @BeforeClass
  public static void setup() throws Exception {
    startCluster(EmbeddedDrill.builder(dirTestWatcher).maxParallelization(1));
    file = dirTestWatcher.getRootDir().toPath().resolve("unsigned.parquet");
    write(file);
    UnsignedFiles.write(dirTestWatcher.getRootDir().toPath());
  }

  private static void write(Path file) throws IOException {
    MessageType schema = MessageTypeParser.parseMessageType("message t { required int32 id; "
        + "required int32 u8 (UINT_8); optional int32 u16 (UINT_16); required int32 u32 (UINT_32); "
        + "optional int64 u64 (UINT_64); }");
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    SplittableRandom random = new SplittableRandom(36);
    try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file.toUri()))
        .withConf(new Configuration()).withType(schema).withPageRowCountLimit(1_000).build()) {
      for (int i = 0; i < ROWS; i++) {
        Group g = groups.newGroup();
        g.add("id", i);
        g.add("u8", i < 2 ? 255 * i : random.nextInt(256));
        if (i % 11 != 5) {
          g.add("u16", i < 2 ? 65_535 * i : random.nextInt(65_536));
        }
        g.add("u32", i < 2 ? -i : random.nextInt()); // -1: 2^32 - 1
        if (i % 13 != 7) {
          g.add("u64", i == 0 ? 0 : i == 1 ? -1L : i == 2 ? Long.MIN_VALUE : random.nextLong()); // 2^64 - 1, 2^63
        }
        w.write(g);
      }
    }
  }

  @Test
  public void valuesAreParquetJavasReadUnsigned() throws Exception {
    Result r = Result.of(client, "select id, u8, u16, u32, u64 from " + table("") + " order by id");
    List<List<String>> expected = new ArrayList<>();
    List<OracleColumn> oracle = OracleDigest.read(file, List.of("id", "u8", "u16", "u32", "u64"));
    for (int row = 0; row < ROWS; row++) {
      List<String> cells = new ArrayList<>();
      for (OracleColumn c : oracle) {
        Object v = c.entries().get(row).value();
        cells.add(v == null ? "null" : v instanceof Long l ? Long.toUnsignedString(l)
            : c.path().equals("u32") ? Integer.toUnsignedString((Integer) v) : v.toString());
      }
      expected.add(cells);
    }
    assertEquals(expected, r.cells());
    assertEquals(List.of("id INT:REQUIRED", "u8 INT:REQUIRED", "u16 INT:OPTIONAL", "u32 BIGINT:REQUIRED",
        "u64 VARDECIMAL:OPTIONAL"), r.schema().stream().map(UnsignedTypesDrillTest::typeOnly).toList());
  }

  @Test
  public void drillComputesWithThem() throws Exception {
    List<OracleColumn> oracle = OracleDigest.read(file, List.of("u8", "u16", "u32", "u64"));
    long count = 0;
    long sumU8 = 0;
    long maxU32 = 0;
    BigInteger maxU64 = BigInteger.ZERO;
    for (int row = 0; row < ROWS; row++) {
      Object u16 = oracle.get(1).entries().get(row).value();
      long u32 = Integer.toUnsignedLong((Integer) oracle.get(2).entries().get(row).value());
      if (u16 != null && (Integer) u16 > 30_000 && u32 >= 3_000_000_000L) {
        count++;
        sumU8 += (Integer) oracle.get(0).entries().get(row).value();
        maxU32 = Math.max(maxU32, u32);
        Object u64 = oracle.get(3).entries().get(row).value();
        if (u64 != null) {
          maxU64 = maxU64.max(new BigInteger(Long.toUnsignedString((Long) u64)));
        }
      }
    }
    Result r = Result.of(client, "select count(*), sum(u8), max(u32), max(u64), min(cast(u16 as bigint)) from "
        + table("") + " where u16 > 30000 and u32 >= 3000000000");
    assertEquals(String.valueOf(count), r.cells().get(0).get(0));
    assertEquals(String.valueOf(sumU8), r.cells().get(0).get(1));
    assertEquals(String.valueOf(maxU32), r.cells().get(0).get(2));
    assertEquals(maxU64.toString(), r.cells().get(0).get(3));
  }

  @Test
  public void theBuiltInTypingOnRequest() throws Exception {
    String columns = "select id, u8, u16, u32, u64 from ";
    Result builtIn = Result.of(client, columns + "table(dfs.`unsigned.parquet`(type => 'parquet')) order by id");
    Result turbo = Result.of(client, columns + table(", builtInTypes => true") + " order by id");
    assertEquals(builtIn.schema(), turbo.schema());
    assertEquals(builtIn.cells(), turbo.cells());
    assertEquals("UINT4:REQUIRED", typeOnly(turbo.schema().get(3)).replace("u32 ", ""));
  }

  /**
   * Filters on unsigned and FLOAT16 columns of a file of many row groups, each column rising with the
   * row (UnsignedFiles): every count equals the rows the values say match (unsigned; NaN above every
   * number, as Drill orders it; nulls never), the planner prunes the row groups of selective filters,
   * and nothing fails to plan (Drill cannot plan comparisons with its own UINT types).
   */
  @Test
  public void filtersPruneByUnsignedAndHalfFloatStatistics() throws Exception {
    Map<String, List<String>> constants = new LinkedHashMap<>();
    constants.put("u8", List.of("0", "100", "255", "256"));
    constants.put("u16", List.of("0", "30000", "65535"));
    constants.put("u32", List.of("2147483647", "2147483648", "3000000000", "4294967295"));
    constants.put("u64", List.of("100", "9223372036854775807", "9223372036854775808", "18446744073709551615"));
    constants.put("h", List.of("-375", "-1", "0", "0.5", "200", "375"));
    String table = "table(dfs.`unsigned-sorted.parquet`(type => '" + TurboParquetFormatConfig.NAME + "'))";
    int rowGroups = ScanPlan.of(client, "select count(*) from " + table + " where id >= 0").rowGroups();
    assertTrue("row groups: " + rowGroups, rowGroups >= 4);
    List<String> wrong = new ArrayList<>();
    int checked = 0;
    for (Map.Entry<String, List<String>> column : constants.entrySet()) {
      for (String op : List.of(">", ">=", "<", "<=", "=", "<>")) {
        for (String constant : column.getValue()) {
          String where = column.getKey() + " " + op + " " + sql(constant);
          String got = Result.of(client, "select count(*) from " + table + " where " + where).cells().get(0).get(0);
          long expected = matches(column.getKey(), op, new BigDecimal(constant));
          if (!got.equals(String.valueOf(expected))) {
            wrong.add(where + ": " + got + ", expected " + expected);
          }
          checked++;
        }
      }
    }
    assertEquals(List.of(), wrong);
    assertEquals(126, checked);
    // FLOAT16 bounds are not used here: parquet-java 1.15 writes no nan_count (NanStatisticsDrillTest
    // prunes by a 1.18.1 file's).
    for (String selective : List.of("u8 = 255", "u16 < 1000", "u32 >= 4000000000",
        "u64 > " + sql("18446744073709551000"))) {
      int kept = ScanPlan.of(client, "select count(*) from " + table + " where " + selective).rowGroups();
      assertTrue(selective + " keeps " + kept + " of " + rowGroups + " row groups", kept < rowGroups / 2);
    }
  }

  /** A number as SQL: beyond BIGINT, a DECIMAL cast (Drill refuses such integer literals). */
  private static String sql(String number) {
    return new BigDecimal(number).compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0
        ? "cast('" + number + "' as decimal(20, 0))" : number;
  }

  /** The rows of UnsignedFiles whose value in {@code column} satisfies {@code op constant} in Drill. */
  private static long matches(String column, String op, BigDecimal constant) {
    long n = 0;
    for (int row = 0; row < UnsignedFiles.ROWS; row++) {
      int c;
      switch (column) {
        case "u8" -> c = BigDecimal.valueOf(UnsignedFiles.u8(row)).compareTo(constant);
        case "u16" -> {
          if (UnsignedFiles.u16(row) == null) {
            continue;
          }
          c = BigDecimal.valueOf(UnsignedFiles.u16(row)).compareTo(constant);
        }
        case "u32" -> c = BigDecimal.valueOf(UnsignedFiles.u32(row)).compareTo(constant);
        case "u64" -> {
          if (UnsignedFiles.u64(row) == null) {
            continue;
          }
          c = new BigDecimal(Long.toUnsignedString(UnsignedFiles.u64(row))).compareTo(constant);
        }
        default -> {
          if (UnsignedFiles.h(row) == null) {
            continue;
          }
          float v = HalfFloat.toFloat(UnsignedFiles.h(row));
          c = Float.isNaN(v) ? 1 : new BigDecimal(v).compareTo(constant); // NaN above every number
        }
      }
      boolean match = switch (op) {
        case ">" -> c > 0;
        case ">=" -> c >= 0;
        case "<" -> c < 0;
        case "<=" -> c <= 0;
        case "=" -> c == 0;
        default -> c != 0;
      };
      n += match ? 1 : 0;
    }
    return n;
  }

  private static String table(String properties) {
    return "table(dfs.`unsigned.parquet`(type => '" + TurboParquetFormatConfig.NAME + "'" + properties + "))";
  }

  /** "name minor_type: X mode: Y ..." as "name X:Y". */
  private static String typeOnly(String column) {
    String name = column.substring(0, column.indexOf(' '));
    String minor = column.replaceAll(".*minor_type: (\\w+).*", "$1");
    String mode = column.replaceAll(".*mode: (\\w+).*", "$1");
    return name + " " + minor + ":" + mode;
  }
}
