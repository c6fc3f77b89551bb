package io.turboparquet.drill;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.turboparquet.scan.PageIndexFiles;
import io.turboparquet.scan.PruningFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.drill.exec.ExecConstants;
import org.apache.drill.test.ClusterTest;
import org.apache.drill.test.QueryBuilder.QuerySummary;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Selective scans inside Drill: the filter Drill pushes into the scan ({@link DrillPredicates})
 * reaches the fragment's pipeline, which skips row groups by dictionary and bloom filter and reads
 * only the pages that may hold matching rows. Drill's built-in reader on the same query is the
 * oracle: every filter gives its rows, whether the filter translates in full, in part (an AND with
 * a term we cannot use) or not at all; selective filters on sorted columns skip pages and read a
 * fraction of the bytes; equalities on values inside a row group's min/max but absent from it skip
 * the row group; the format properties turn each kind off.
 */
public class SelectiveScanDrillTest extends ClusterTest {
  private static final String SCAN = TurboParquetRowGroupScan.OPERATOR_TYPE;
  private static final String COLUMNS = "key, down, small, d, f, s, `mode`, `day`";
  private static String table;
  private static String pruning;

  /** Filters whose rows must equal the built-in reader's; the first ones select few pages of a sorted column. */
  private static final List<String> SELECTIVE = List.of(
      "key between 60000 and 60120",
      "key < 300 or key > 119700",
      "down = 20000",
      "`day` >= date '1996-01-05' and `day` < date '1996-01-08'",
      "s >= 'prefix-z'",
      "key >= 90000 and `mode` = 'AIR'",
      "key in (3, 60001, 119998)");
  private static final List<String> OTHERS = List.of(
      "small is null",
      "small is not null and key < 1000",
      "`mode` in ('MAIL', 'SHIP')",
      "d > 999.0",
      "f < -49.5 or key = 45000",
      "cast(key as varchar) = '60003'",
      "key + 1 = 60004",
      "key > 60000 and cast(key as varchar) like '6000%'",
      "not (key < 119000)");

  @BeforeClass
  public static void setup() throws Exception {
    startCluster(EmbeddedDrill.builder(dirTestWatcher).maxParallelization(1)
        .sessionOption(ExecConstants.QUERY_PROFILE_DEBUG_OPTION, true));
    Path dir = Files.createDirectories(dirTestWatcher.getRootDir().toPath().resolve("indexed"));
    PageIndexFiles.write(dir.resolve("v1.parquet"), 40_000, false, 1);
    table = "indexed/v1.parquet";
    PruningFiles.write(dir.resolve("pruning.parquet"), false);
    pruning = "indexed/pruning.parquet";
    io.turboparquet.scan.NestedPageSkippingTest.write(dir.resolve("nested.parquet"), 30_000, false, 3);
  }

  private static String query(String format, String where) {
    return "select " + COLUMNS + " from table(dfs.`" + table + "`(" + format + ")) where " + where + " order by key";
  }

  @Test
  public void everyFilterGivesTheBuiltInReadersRows() throws Exception {
    for (String where : concat(SELECTIVE, OTHERS)) {
      Result expected = Result.of(client, query("type => 'parquet'", where));
      assertEquals(where, expected, Result.of(client, query("type => 'turbo-parquet'", where)));
      assertEquals(where, expected,
          Result.of(client, query("type => 'turbo-parquet', pageIndexSkipping => false", where)));
    }
  }

  @Test
  public void selectiveFiltersOnSortedColumnsSkipPagesAndBytes() throws Exception {
    long all = scanMetrics("select " + COLUMNS + " from table(dfs.`" + table + "`(type => 'turbo-parquet'))")
        .get("TOTAL_READ_BYTES");
    for (String where : SELECTIVE) {
      Map<String, Long> m = scanMetrics(query("type => 'turbo-parquet'", where));
      assertTrue(where + ": " + m, m.get("NUM_PAGES_SKIPPED") > 0);
      assertTrue(where + ": " + m, m.get("NUM_ROWS_SKIPPED") > 0);
      assertTrue(where + ": " + m, m.get("TOTAL_PAGE_INDEX_BYTES") > 0);
      Map<String, Long> off = scanMetrics(query("type => 'turbo-parquet', pageIndexSkipping => false", where));
      assertEquals(where, 0L, (long) off.get("NUM_PAGES_SKIPPED"));
      assertTrue(where + ": read " + m.get("TOTAL_READ_BYTES") + " of " + off.get("TOTAL_READ_BYTES"),
          m.get("TOTAL_READ_BYTES") < off.get("TOTAL_READ_BYTES"));
    }
    // A range of 0.1% of the sorted key reads a small part of what the whole table takes.
    long range = scanMetrics(query("type => 'turbo-parquet'", SELECTIVE.get(0))).get("TOTAL_READ_BYTES");
    assertTrue("read " + range + " of " + all, range * 10 < all);
  }

  /**
   * A LIMIT right above the scan (or above a projection): each reader reads only the pages holding
   * the rows it needs, with the built-in reader's rows (one fragment, one file: both in file order).
   */
  @Test
  public void aLimitReadsOnlyThePagesOfTheRowsItNeeds() throws Exception {
    String scan = "select " + COLUMNS + " from table(dfs.`" + table + "`(%s))";
    String builtIn = String.format(scan, "type => 'parquet'");
    String turbo = String.format(scan, "type => 'turbo-parquet'");
    long whole = scanMetrics(turbo).get("TOTAL_READ_BYTES");
    assertEquals(Result.of(client, builtIn + " limit 10"), Result.of(client, turbo + " limit 10"));
    // (An OFFSET makes the scan read offset + limit rows; Drill's Limit operator fails such
    // queries through either reader when batches are validated, as in these tests.)
    Map<String, Long> ten = scanMetrics(turbo + " limit 10");
    assertTrue(ten.toString(), ten.get("NUM_PAGES_SKIPPED") > 0);
    assertTrue("read " + ten.get("TOTAL_READ_BYTES") + " of " + whole, ten.get("TOTAL_READ_BYTES") * 4 < whole);
    // LIMIT 0 (also what JDBC's prepared statements plan): the schema, no rows, and planning ends.
    Result none = Result.of(client, turbo + " limit 0");
    assertEquals(Result.of(client, builtIn + " limit 0"), none);
    assertTrue(none.rows().isEmpty());
    String projected = "select key + 1 as k, s from table(dfs.`" + table + "`(%s)) limit 7";
    assertEquals(Result.of(client, String.format(projected, "type => 'parquet'")),
        Result.of(client, String.format(projected, "type => 'turbo-parquet'")));
    assertTrue(scanMetrics(String.format(projected, "type => 'turbo-parquet'")).get("NUM_PAGES_SKIPPED") > 0);
  }

  /**
   * An unsorted column: neither statistics nor the page index can help, but batches in which no
   * value of the filter column matches are not decoded in the other columns.
   */
  @Test
  public void lateMaterializationSkipsBatchesWithoutACandidate() throws Exception {
    client.alterSession(ExecConstants.PARQUET_FLAT_BATCH_NUM_RECORDS, 1000L);
    try {
      String where = "small between 1000 and 1002";
      String on = query("type => 'turbo-parquet', pageIndexSkipping => false", where);
      String off = query("type => 'turbo-parquet', pageIndexSkipping => false, lateMaterialization => false", where);
      Result expected = Result.of(client, query("type => 'parquet'", where));
      assertTrue(expected.rows().size() > 0);
      assertEquals(expected, Result.of(client, on));
      Map<String, Long> late = scanMetrics(on);
      Map<String, Long> all = scanMetrics(off);
      assertTrue(late.toString(), late.get("NUM_LATE_SKIPPED_ROWS") > 15_000);
      assertEquals(0L, (long) all.get("NUM_LATE_SKIPPED_ROWS"));
      assertTrue(late.get("TOTAL_DECOMPRESSED_BYTES") < all.get("TOTAL_DECOMPRESSED_BYTES"));
      assertTrue(late.get("NUM_ROWS") < all.get("NUM_ROWS") / 2);
    } finally {
      client.resetSession(ExecConstants.PARQUET_FLAT_BATCH_NUM_RECORDS);
    }
  }

  /** Nested columns projected: their pages are skipped too, record by record, with the built-in reader's rows. */
  @Test
  public void nestedColumnsSkipPagesWithTheBuiltInReadersRows() throws Exception {
    for (String where : List.of("key between 12000 and 12100", "key < 50 or key in (17000, 29999)")) {
      String sql = "select key, tags, point, n from table(dfs.`indexed/nested.parquet`(type => '%s')) where "
          + where + " order by key";
      Result expected = Result.of(client, String.format(sql, "parquet"));
      assertTrue(where, expected.rows().size() > 2);
      assertEquals(where, expected, Result.of(client, String.format(sql, "turbo-parquet")));
      Map<String, Long> m = scanMetrics(String.format(sql, "turbo-parquet"));
      assertTrue(where + ": " + m, m.get("NUM_PAGES_SKIPPED") > 0);
      assertEquals(where + ": " + m, 0L, (long) m.get("NUM_PAGE_INDEX_FALLBACKS"));
    }
  }

  @Test
  public void filtersWeCannotUseSkipNothing() throws Exception {
    for (String where : List.of("cast(key as varchar) = '60003'", "key + 1 = 60004")) {
      assertEquals(where, 0L, (long) scanMetrics(query("type => 'turbo-parquet'", where)).get("NUM_PAGES_SKIPPED"));
    }
  }

  /**
   * Values inside the min/max of their block's row groups but in none of them: statistics cannot
   * rule those row groups out (Drill's planner keeps them), dictionaries and bloom filters can.
   */
  @Test
  public void equalitiesOnAbsentValuesSkipRowGroupsByDictionaryAndBloomFilter() throws Exception {
    String off = "type => 'turbo-parquet', dictionaryPruning => false, bloomFilterPruning => false";
    for (String where : List.of("name = 'n2-100'", "sbloom in ('s2-100', 's3-200')", "name = 'n2-100' and id > 0",
        "name = 'n2-3' or sbloom = 's2-100'", "name = 'n2-100' or id = 7000")) {
      String sql = "select id, name, sbloom, code from table(dfs.`%s`(%s)) where " + where + " order by id";
      Result expected = Result.of(client, String.format(sql, pruning, "type => 'parquet'"));
      assertEquals(where, expected, Result.of(client, String.format(sql, pruning, "type => 'turbo-parquet'")));
      assertEquals(where, expected, Result.of(client, String.format(sql, pruning, off)));
    }
    String sql = "select id, name, sbloom, code from table(dfs.`" + pruning + "`(%s)) where %s";
    Map<String, Long> dictionary = scanMetrics(String.format(sql, "type => 'turbo-parquet'", "name = 'n2-100'"));
    Map<String, Long> bloom = scanMetrics(String.format(sql, "type => 'turbo-parquet'", "sbloom = 's2-100'"));
    Map<String, Long> neither = scanMetrics(String.format(sql, off, "sbloom = 's2-100'"));
    long pruned = dictionary.get("NUM_ROWGROUPS_PRUNED_BY_DICTIONARY")
        + dictionary.get("NUM_ROWGROUPS_PRUNED_BY_BLOOM_FILTER");
    assertTrue(dictionary.toString(), pruned > 0);
    assertEquals(dictionary.toString(), 0L, (long) dictionary.get("NUM_ROWS"));
    assertTrue(bloom.toString(), bloom.get("NUM_ROWGROUPS_PRUNED_BY_BLOOM_FILTER") > 0);
    assertTrue(bloom.toString(), bloom.get("TOTAL_PRUNING_BYTES") > 0);
    assertEquals(neither.toString(), 0L, neither.get("NUM_ROWGROUPS_PRUNED_BY_DICTIONARY")
        + neither.get("NUM_ROWGROUPS_PRUNED_BY_BLOOM_FILTER"));
    assertTrue(bloom.get("TOTAL_READ_BYTES") < neither.get("TOTAL_READ_BYTES"));
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new java.util.ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  /** The named metrics of the query's single turbo scan operator. */
  private static Map<String, Long> scanMetrics(String sql) throws Exception {
    QuerySummary summary = client.queryBuilder().sql(sql).run();
    assertTrue(summary.toString(), summary.succeeded());
    List<ScanProfiles.Operator> scans = ScanProfiles.of(cluster, summary, SCAN);
    assertEquals(sql, 1, scans.size());
    return scans.get(0).metrics();
  }
}
