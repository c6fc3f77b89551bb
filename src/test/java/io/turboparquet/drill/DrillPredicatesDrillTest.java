package io.turboparquet.drill;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.turboparquet.filter.Filter;
import io.turboparquet.filter.PageIndexFilter;
import io.turboparquet.filter.Predicate;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.ColumnIndex;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.Schema;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.drill.common.expression.ExpressionStringBuilder;
import org.apache.drill.common.expression.LogicalExpression;
import org.apache.drill.common.parser.LogicalExpressionParser;
import org.apache.drill.exec.ExecConstants;
import org.apache.drill.exec.ops.QueryContext;
import org.apache.drill.exec.physical.PhysicalPlan;
import org.apache.drill.exec.physical.base.PhysicalOperator;
import org.apache.drill.exec.planner.physical.PlannerSettings;
import org.apache.drill.exec.planner.sql.DrillSqlWorker;
import org.apache.drill.exec.proto.UserBitShared;
import org.apache.drill.exec.rpc.user.UserSession;
import org.apache.drill.exec.server.DrillbitContext;
import org.apache.drill.test.ClusterTest;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Real SQL filters planned by an embedded drillbit on a turbo-parquet table (a parquet-java file of
 * every column kind and several row groups, with nulls, NaN and values where Drill's casts round).
 * The filter Drill hands the row-group scan comes in two forms, and each is checked against the
 * answer Drill gives with it: the planner's own expression, which the scan of the root fragment
 * gets (a one-fragment query), and the expression parsed back from the plan's text, which the scan
 * of any other fragment gets (where a decimal literal has become a DOUBLE, so Drill compares
 * differently). Each is translated by {@link DrillPredicates}, and every row of Drill's answer must
 * be kept by the predicate. "Kept" is the core's own decision: the predicate bound to the file's
 * schema ({@link Filter#bind}) and asked of a column index with one page per row
 * ({@link PageIndexFilter}), values read back from the file by parquet-java.
 */
public class DrillPredicatesDrillTest extends ClusterTest {
  private static final int ROWS = 400;
  private static final String TABLE = "table(dfs.`filters/t.parquet`(type => '" + TurboParquetFormatConfig.NAME + "'))";

  /** A filter, its translation from the planner's expression, and from the plan's text where that differs. */
  private record Case(String sql, String planned, String serialised) {
    Case(String sql, String translation) {
      this(sql, translation, translation);
    }
  }

  private static final List<Case> TRANSLATED = List.of(
      new Case("i32 = 5", "i32 = 5"),
      new Case("5 < i32", "i32 > 5"),
      new Case("i32 between 3 and 7", "i32 >= 3 AND i32 <= 7"),
      new Case("i32 in (1, 7, 22)", "i32 IN (1, 7, 22)"),
      new Case("i32 not in (1, 2)", "i32 <> 1 AND i32 <> 2"),
      new Case("i32 < 2.5", "i32 <= 2"),
      new Case("i32 <> 5 and i32 > -3", "(i32 > -3 AND i32 < 5) OR i32 > 5"),
      new Case("s is null", "s IS NULL"),
      new Case("s is not null and i32 > 30", "s IS NOT NULL AND i32 > 30"),
      new Case("i32 = 3 or s = 'x9'", "i32 = 3 OR s = 'x9'"),
      new Case("i32 is null or i32 = 5", "i32 IS NULL OR i32 = 5"),
      new Case("s >= 'x5' and s < 'x6'", "s >= 'x5' AND s < 'x6'"),
      new Case("raw = 'r5'", "raw = 'r5'"),
      new Case("b = true", "b = true"),
      new Case("not b", "b <> true"),
      new Case("not (s like 'x1%' or i32 > 30)", "i32 <= 30 AND (s < 'x1' OR s >= 'x2')"),
      new Case("s like 'x1%' and i32 > 3", "s >= 'x1' AND s < 'x2' AND i32 > 3"),
      new Case("s like 'x1%' or s like 'x5%'", "(s >= 'x1' AND s < 'x2') OR (s >= 'x5' AND s < 'x6')"),
      new Case("s like 'x1' and s like 'x_' and s like 'x%1%'",
          "s = 'x1' AND s LIKE 'x_' (line-bound) AND s LIKE 'x%1%' (line-bound)"),
      new Case("d = date '2020-01-03'", "d = DATE '2020-01-03'"),
      new Case("d >= '2020-01-25'", "d >= DATE '2020-01-25'"),
      new Case("d < timestamp '2020-01-03 12:00:00'", "d < DATE '2020-01-04'"),
      new Case("d between date '2020-01-10' and date '2020-01-12' or d is null",
          "d IS NULL OR (d >= DATE '2020-01-10' AND d <= DATE '2020-01-12')"),
      new Case("tsm >= timestamp '2020-01-08 10:00:00'", "tsm >= 1578477600000"),
      new Case("tsm = '2020-01-02 10:30:00'", "tsm = 1577961000000"),
      new Case("tsu < timestamp '2020-01-02 10:00:00.123'", "tsu < 1577959200123000"),
      new Case("tsu = timestamp '1969-12-31 23:59:59.999'", "tsu >= -1999 AND tsu <= -1000"),
      new Case("tm < time '01:00:00'", "tm < 3600000"),
      new Case("f64 = 0.1", "f64 = 0.1"),
      new Case("f64 < 1.5", "f64 < 1.5"),
      new Case("f32 = 16777217", "f32 = 1.6777216E7"),
      // The planner's decimal 0.7 is cast to FLOAT, the plan text's DOUBLE 0.7 is not.
      new Case("f32 = 0.7", "f32 = 0.699999988079071", "f32 = 0.7"),
      new Case("f32 < 0.7", "f32 < 0.699999988079071", "f32 < 0.7"),
      new Case("f32 >= 0.7", "f32 >= 0.699999988079071", "f32 >= 0.7"),
      // The planner's decimal compares exactly, the plan text's DOUBLE with the column rounded to it.
      new Case("i64 = 9007199254740992.0", "i64 = 9007199254740992",
          "i64 >= 9007199254740992 AND i64 <= 9007199254740993"),
      new Case("i64 < 9007199254740992.0", "i64 < 9007199254740992", "i64 <= 9007199254740991"),
      new Case("dec9 = 1.5", "dec9 = 1.5"),
      new Case("dec9 between 1 and 2.55", "dec9 >= 1 AND dec9 <= 2.55"),
      new Case("dec9 < 0.1", "dec9 < 0.1", "dec9 <= 0.09"));
  /** Filters whose translation only rows can judge (no page index prunes a regular expression's LIKE). */
  private static final List<Case> JUDGED_BY_ROWS = List.of(
      new Case("s not like 'x_'", "s NOT LIKE 'x_' (line-bound)"),
      new Case("s like 'x_' or i32 > 3", "s LIKE 'x_' (line-bound) OR i32 > 3"),
      new Case("ilike(s, 'X1%')", "s ILIKE 'X1%' (line-bound)"),
      new Case("not ilike(s, '%X%1')", "s NOT ILIKE '%X%1' (line-bound)"));
  /** Filters Drill pushes that have nothing translatable. */
  private static final List<String> UNTRANSLATED = List.of("s not like 'x#_' escape '#'",
      "s like 'x#_' escape '#' or i32 > 3", "upper(s) = 'X1'", "i32 = '5'", "cast(i32 as bigint) = 5");

  private static Path file;
  private static Schema schema;
  private static List<byte[][]> rows;

  @BeforeClass
  public static void setup() throws Exception {
    startCluster(EmbeddedDrill.builder(dirTestWatcher).maxParallelization(1));
    file = write(Files.createDirectories(dirTestWatcher.getRootDir().toPath().resolve("filters")).resolve("t.parquet"));
    FileMetadata footer = TurboParquetDrillTest.footer(file);
    assertTrue("row groups for two fragments", footer.rowGroups().size() >= 2);
    schema = footer.schema();
    rows = read(file, schema);
  }

  @Test
  public void everyRowOfDrillsAnswerIsKeptByTheTranslation() throws Exception {
    List<TreeSet<Long>> roots = new ArrayList<>();
    for (Case c : TRANSLATED) {
      roots.add(drill(c.sql(), false));
    }
    List<TreeSet<Long>> remotes = remote(() -> {
      List<TreeSet<Long>> out = new ArrayList<>();
      for (Case c : TRANSLATED) {
        out.add(drill(c.sql(), true));
      }
      return out;
    });
    for (int i = 0; i < TRANSLATED.size(); i++) {
      Case c = TRANSLATED.get(i);
      LogicalExpression planned = plannedFilter(c.sql());
      LogicalExpression serialised = LogicalExpressionParser.parse(ExpressionStringBuilder.toString(planned));
      Predicate p = DrillPredicates.of(planned, schema, reading());
      Predicate q = DrillPredicates.of(serialised, schema, reading());
      assertEquals(c.sql(), c.planned(), String.valueOf(p));
      assertEquals(c.sql(), c.serialised(), String.valueOf(q));
      assertKept(c.sql() + " in the root fragment", roots.get(i), p);
      assertKept(c.sql() + " in another fragment", remotes.get(i), q);
      assertFalse(c.sql() + ": Drill returns rows", roots.get(i).isEmpty() && remotes.get(i).isEmpty());
    }
  }

  @Test
  public void likeOfRegularExpressionsIsTranslatedInEveryFragment() throws Exception {
    for (Case c : JUDGED_BY_ROWS) {
      LogicalExpression planned = plannedFilter(c.sql());
      assertEquals(c.sql(), c.planned(), String.valueOf(DrillPredicates.of(planned, schema, reading())));
      assertEquals(c.sql(), c.serialised(), String.valueOf(DrillPredicates.of(
          LogicalExpressionParser.parse(ExpressionStringBuilder.toString(planned)), schema, reading())));
    }
  }

  @Test
  public void filtersWithNothingTranslatableGiveNull() throws Exception {
    for (String sql : UNTRANSLATED) {
      LogicalExpression planned = plannedFilter(sql);
      assertNull(sql, DrillPredicates.of(planned, schema, reading()));
      assertNull(sql, DrillPredicates.of(LogicalExpressionParser.parse(ExpressionStringBuilder.toString(planned)),
          schema, reading()));
    }
  }

  /**
   * Where Drill's casts round, the literal as written would lose rows Drill returns: the check
   * above catches such a translation.
   */
  @Test
  public void theLiteralAsWrittenWouldLoseRowsWhereDrillsCastsRound() throws Exception {
    for (String[] naive : new String[][] {
        {"f32 = 16777217", "f32 = 16777217", "root"},
        {"f32 = 0.7", "f32 = 0.7", "root"},
        {"i64 = 9007199254740992.0", "i64 = 9007199254740992", "remote"},
        {"tsu = timestamp '1969-12-31 23:59:59.999'", "tsu = -999000", "root"},
        {"d < timestamp '2020-01-03 12:00:00'", "d < DATE '2020-01-03'", "root"}}) {
      TreeSet<Long> lost = naive[2].equals("remote") ? remote(() -> drill(naive[0], true)) : drill(naive[0], false);
      lost.removeAll(kept(Predicate.parse(naive[1])));
      assertFalse(naive[0] + " as " + naive[1], lost.isEmpty());
    }
  }

  /** As the drillbit's options say. */
  private static DrillPredicates.Reading reading() {
    return DrillPredicates.Reading.of(cluster.drillbit().getContext().getOptionManager(), new TurboParquetFormatConfig());
  }

  private static void assertKept(String what, TreeSet<Long> drill, Predicate p) {
    TreeSet<Long> kept = kept(p);
    TreeSet<Long> lost = new TreeSet<>(drill);
    lost.removeAll(kept);
    assertTrue(what + ": " + p + " loses rows " + lost, lost.isEmpty());
    assertTrue(what + ": " + p + " keeps every row", kept.size() < ROWS);
  }

  /** The filter on the turbo-parquet scan of {@code select id ... where sql}, as the planner made it. */
  private static LogicalExpression plannedFilter(String where) throws Exception {
    DrillbitContext drillbit = cluster.drillbit().getContext();
    UserSession session = UserSession.Builder.newBuilder()
        .withCredentials(UserBitShared.UserCredentials.newBuilder().setUserName("filters").build())
        .withOptionManager(drillbit.getOptionManager())
        .setSupportComplexTypes(true)
        .build();
    QueryContext query = new QueryContext(session, drillbit, UserBitShared.QueryId.getDefaultInstance());
    try {
      PhysicalPlan plan = DrillSqlWorker.getPlan(query, "select id from " + TABLE + " where " + where);
      for (PhysicalOperator op : plan.getSortedOperators()) {
        if (op instanceof TurboParquetGroupScan scan) {
          assertNotNull(where + ": a filter on the scan", scan.getFilter());
          return scan.getFilter();
        }
      }
    } finally {
      query.close();
    }
    throw new AssertionError(where + ": no turbo-parquet scan");
  }

  /**
   * What {@code work} returns with the scan and the filter in fragments of their own (which read
   * their operators from the plan's text): two of them, every row group kept at planning.
   */
  private static <T> T remote(Callable<T> work) throws Exception {
    client.alterSession(ExecConstants.SLICE_TARGET, 1L);
    client.alterSession(ExecConstants.MAX_WIDTH_PER_NODE_KEY, 2L);
    client.alterSession(PlannerSettings.PARQUET_ROWGROUP_FILTER_PUSHDOWN_PLANNING_THRESHOLD_KEY, 1L);
    try {
      return work.call();
    } finally {
      client.resetSession(ExecConstants.SLICE_TARGET);
      client.resetSession(PlannerSettings.PARQUET_ROWGROUP_FILTER_PUSHDOWN_PLANNING_THRESHOLD_KEY);
      client.alterSession(ExecConstants.MAX_WIDTH_PER_NODE_KEY, 1L);
    }
  }

  /** The ids Drill returns, checking that the scan runs in the root fragment or ({@code remote}) not. */
  private static TreeSet<Long> drill(String where, boolean remote) throws Exception {
    String sql = "select id from " + TABLE + " where " + where;
    String plan = client.queryBuilder().sql(sql).explainText();
    Matcher scan = Pattern.compile("(\\d+)-\\d+ +Scan").matcher(plan);
    assertTrue(plan, scan.find());
    assertEquals(where + ": the scan's fragment in\n" + plan, remote, !scan.group(1).equals("00"));
    TreeSet<Long> ids = new TreeSet<>();
    for (List<String> row : Result.of(client, sql).cells()) {
      ids.add(Long.parseLong(row.get(0)));
    }
    return ids;
  }

  /** The ids of the rows the core keeps for {@code p}, each row asked as a page of its own. */
  private static TreeSet<Long> kept(Predicate p) {
    Filter filter = Filter.bind(p, schema);
    TreeSet<Long> ids = new TreeSet<>();
    for (byte[][] row : rows) {
      boolean keep = !PageIndexFilter.rowRanges(filter, 1, new PageIndexFilter.Indexes() {
        @Override
        public ColumnIndex columnIndex(int leaf) {
          byte[] v = row[leaf];
          return new ColumnIndex(new boolean[] {v == null}, Arrays.asList(v == null ? new byte[0] : v),
              Arrays.asList(v == null ? new byte[0] : v), 0, new long[] {v == null ? 1 : 0}, null, null, null);
        }

        @Override
        public long[] pageFirstRows(int leaf) {
          return new long[] {0};
        }
      }).isEmpty();
      if (keep) {
        ids.add(ByteBuffer.wrap(row[0]).order(ByteOrder.LITTLE_ENDIAN).getLong());
      }
    }
    return ids;
  }

  private static Path write(Path path) throws IOException {
    MessageType type = MessageTypeParser.parseMessageType("message t { required int64 id; optional int32 i32; "
        + "optional int64 i64; optional float f32; optional double f64; optional int32 dec9 (DECIMAL(9,2)); "
        + "optional binary s (UTF8); optional binary raw; optional boolean b; optional int32 d (DATE); "
        + "optional int64 tsm (TIMESTAMP(MILLIS,true)); optional int64 tsu (TIMESTAMP(MICROS,true)); "
        + "optional int32 tm (TIME(MILLIS,true)); }");
    float[] floats = {16777216f, 0.1f, 0.7f, -0.0f, 1.5f, Float.NaN, 3.25f};
    double[] doubles = {0.1, 1.5, Double.NaN, -0.0, 2.75};
    SimpleGroupFactory groups = new SimpleGroupFactory(type);
    try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(path.toUri()))
        .withConf(new Configuration()).withType(type).withRowGroupSize(8 * 1024L).withPageSize(1024).build()) {
      for (int i = 0; i < ROWS; i++) {
        Group g = groups.newGroup();
        g.add("id", (long) i);
        if (i % 13 != 5) { // else every optional column is null
          g.add("i32", i % 50 - 10);
          g.add("i64", (1L << 53) + i % 5 - 2);
          g.add("f32", i % 3 == 0 ? floats[i % floats.length] : i / 8f);
          g.add("f64", i % 4 == 0 ? doubles[i % doubles.length] : i / 10.0);
          g.add("dec9", i % 100 * 5 - 50);
          g.add("s", "x" + i % 60);
          g.add("raw", Binary.fromString("r" + i % 40));
          g.add("b", i % 3 == 0);
          g.add("d", 18262 + i % 30); // from 2020-01-01
          g.add("tsm", 1577836800000L + i * 1_800_000L);
          g.add("tsu", i % 17 == 0 ? -1500L - i : 1577836800000000L + i * 1_800_000_123L + i % 3);
          g.add("tm", i % 48 * 1_800_000);
        }
        w.write(g);
      }
    }
    return path;
  }

  /** Each row's values in the page index's form (plain encoded; null for a null), by leaf. */
  private static List<byte[][]> read(Path path, Schema schema) throws IOException {
    List<byte[][]> out = new ArrayList<>();
    try (ParquetReader<Group> r = ParquetReader.builder(new GroupReadSupport(),
        new org.apache.hadoop.fs.Path(path.toUri())).withConf(new Configuration()).build()) {
      for (Group g = r.read(); g != null; g = r.read()) {
        byte[][] row = new byte[schema.columns().size()][];
        for (ColumnDescriptor c : schema.columns()) {
          String name = c.dottedPath();
          if (g.getFieldRepetitionCount(name) == 0) {
            continue;
          }
          ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
          row[c.index()] = switch (c.physicalType()) {
            case INT32 -> Arrays.copyOf(b.putInt(g.getInteger(name, 0)).array(), 4);
            case INT64 -> b.putLong(g.getLong(name, 0)).array();
            case FLOAT -> Arrays.copyOf(b.putFloat(g.getFloat(name, 0)).array(), 4);
            case DOUBLE -> b.putDouble(g.getDouble(name, 0)).array();
            case BOOLEAN -> new byte[] {(byte) (g.getBoolean(name, 0) ? 1 : 0)};
            default -> g.getBinary(name, 0).getBytes();
          };
        }
        out.add(row);
      }
    }
    assertEquals(ROWS, out.size());
    return out;
  }
}
