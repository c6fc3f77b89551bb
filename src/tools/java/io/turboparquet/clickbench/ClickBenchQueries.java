package io.turboparquet.clickbench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ClickBench's 43 queries: Drill's text (resource clickbench/drill-queries.sql, verbatim from
 * ClickBench), DuckDB's text asking the same (clickbench/duckdb-queries.sql), and what comparing
 * their answers needs: the sort keys (columns of DuckDB's answer, which may add hidden ones after
 * Drill's) and the LIMIT.
 */
public final class ClickBenchQueries {
  /**
   * Sort keys per query, 0-based columns of DuckDB's answer; null: no ORDER BY (the answer is a
   * multiset); empty: LIMIT without ORDER BY (Q18: any rows are right, only their count is checked).
   */
  private static final int[][] SORT_KEYS = {
      null, null, null, null, null, null, null, {1}, {1}, {2}, // Q1-Q10
      {1}, {2}, {1}, {1}, {2}, {1}, {2}, {}, {3}, null, // Q11-Q20
      null, {2}, {3}, {4}, {1}, {0}, {1, 0}, {1}, {1}, null, // Q21-Q30
      {2}, {2}, {2}, {1}, {2}, {4}, {1}, {1}, {1}, {5}, // Q31-Q40
      {2}, {2}, {0}}; // Q41-Q43
  private static final Pattern LIMIT = Pattern.compile("LIMIT (\\d+);?\\s*$");

  /**
   * One query of a benchmark: its number, Drill's text reading {@code FROM name}, DuckDB's on a
   * view of that name, and what comparing their answers needs (sort keys, see above, and LIMIT).
   */
  public record Query(int number, String name, String drillSql, String duckDbSql, int[] sortKeys, int limit) {
    /** Drill's text on {@code table} (e.g. {@code dfs.`/data/hits.parquet`}) instead of the name. */
    public String drillSql(String table) {
      return Pattern.compile("\\bFROM " + name + "\\b").matcher(drillSql)
          .replaceAll(Matcher.quoteReplacement("FROM " + table));
    }
  }

  private ClickBenchQueries() {}

  public static List<Query> all() {
    List<String> drill = lines("clickbench/drill-queries.sql");
    List<String> duckDb = lines("clickbench/duckdb-queries.sql");
    if (drill.size() != 43 || duckDb.size() != 43) {
      throw new IllegalStateException("43 queries expected, read " + drill.size() + " and " + duckDb.size());
    }
    List<Query> queries = new ArrayList<>();
    for (int i = 0; i < 43; i++) {
      Matcher limit = LIMIT.matcher(drill.get(i));
      queries.add(new Query(i + 1, "hits", strip(drill.get(i)), strip(duckDb.get(i)), SORT_KEYS[i],
          limit.find() ? Integer.parseInt(limit.group(1)) : -1));
    }
    return queries;
  }

  private static String strip(String sql) {
    return sql.strip().replaceAll(";$", "");
  }

  private static List<String> lines(String resource) {
    try (InputStream in = ClickBenchQueries.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("no resource " + resource);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
          .filter(l -> !l.isBlank() && !l.startsWith("--")).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
