package io.turboparquet.drill.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.turboparquet.clickbench.AnswerComparison;
import io.turboparquet.clickbench.ClickBenchQueries;
import io.turboparquet.clickbench.DuckDbHits;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * ClickBench's 43 Drill queries (bin/drill clickbench) on a hits file, through Drill's built-in
 * reader ({@code table(dfs.`FILE`(type => 'parquet'))}) and through turbo-parquet ({@code
 * dfs.`FILE`}, the switch on), interleaved per query: one cold run, then N hot runs each; a reader
 * that fails a query is not run again on it. Every answer is checked against DuckDB's on the same
 * file ({@link AnswerComparison}). Prints per query the hot medians, their ratio, errors and
 * EQUAL / DIFFERENT, then the hot sums over the queries both readers ran; writes one JSON line per
 * run and per query. Exit status 1 when turbo-parquet fails a query or answers differently.
 *
 * <p>usage: ClickBench --out FILE.jsonl [--repeat N] [--queries 1,7,37] FILE.parquet
 */
public final class ClickBench {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String[] READERS = {"parquet", "turbo-parquet"};

  private ClickBench() {}

  /** One reader's runs of one query: hot times, the last answer, or the error that stopped it. */
  private static final class Runs {
    final List<Double> hotMs = new ArrayList<>();
    List<List<Object>> answer;
    String error;

    double median() {
      return hotMs.isEmpty() ? Double.NaN : DrillBench.median(hotMs.stream().mapToDouble(d -> d).toArray());
    }
  }

  public static void main(String[] args) throws Exception {
    int repeat = 3;
    Path out = null;
    Path file = null;
    Set<Integer> only = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--repeat" -> repeat = Integer.parseInt(args[++i]);
        case "--out" -> out = Paths.get(args[++i]);
        case "--queries" -> only = Arrays.stream(args[++i].split(",")).map(Integer::parseInt).collect(Collectors.toSet());
        default -> file = Paths.get(args[i]).toAbsolutePath();
      }
    }
    if (file == null || out == null || repeat < 1) {
      System.err.println("usage: ClickBench --out FILE.jsonl [--repeat N] [--queries 1,7,37] FILE.parquet");
      System.exit(2);
    }
    String[] tables = {"table(dfs.`" + file + "`(type => 'parquet'))", "dfs.`" + file + "`"};
    PrintStream log = System.out;
    boolean allEqual = true;
    double[] sums = new double[2];
    int both = 0;
    try (Connection drill = DriverManager.getConnection("jdbc:drill:zk=local");
        DuckDbHits duckDb = new DuckDbHits(file);
        PrintStream json = new PrintStream(Files.newOutputStream(out))) {
      log.printf("%-4s %12s %12s %7s %10s  %-9s %s%n", "q", "parquet ms", "turbo ms", "ratio", "duckdb ms", "turbo",
          "built-in");
      for (ClickBenchQueries.Query q : ClickBenchQueries.all()) {
        if (only != null && !only.contains(q.number())) {
          continue;
        }
        long start = System.nanoTime();
        List<List<Object>> expected = duckDb.rows(q.duckDbSql());
        double duckDbMs = (System.nanoTime() - start) / 1e6;
        Runs[] runs = {new Runs(), new Runs()};
        for (int run = -1; run < repeat; run++) {
          for (int r = 0; r < READERS.length; r++) {
            if (runs[r].error != null) {
              continue;
            }
            try {
              start = System.nanoTime();
              runs[r].answer = rows(drill, q.drillSql(tables[r]));
              double ms = (System.nanoTime() - start) / 1e6;
              if (run >= 0) {
                runs[r].hotMs.add(ms);
              }
              json.println(MAPPER.writeValueAsString(Map.of("query", q.number(), "reader", READERS[r], "run", run,
                  "ms", ms, "rows", runs[r].answer.size())));
            } catch (SQLException e) {
              runs[r].error = firstLine(e);
            }
          }
        }
        String[] verdicts = new String[2];
        for (int r = 0; r < READERS.length; r++) {
          if (runs[r].error == null) {
            Optional<String> d = AnswerComparison.difference(expected, runs[r].answer, q.sortKeys(), q.limit());
            verdicts[r] = d.isEmpty() ? "EQUAL" : "DIFFERENT: " + d.get();
          } else {
            verdicts[r] = "ERROR: " + runs[r].error;
          }
        }
        allEqual &= verdicts[1].equals("EQUAL");
        double ratio = runs[0].median() / runs[1].median();
        if (runs[0].error == null && runs[1].error == null) {
          sums[0] += runs[0].median();
          sums[1] += runs[1].median();
          both++;
        }
        log.printf(Locale.ROOT, "Q%-3d %12.0f %12.0f %6.2fx %10.0f  %-9s %s%n", q.number(), runs[0].median(),
            runs[1].median(), ratio, duckDbMs, verdicts[1], verdicts[0]);
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("query", q.number());
        summary.put("parquet_hot_median_ms", runs[0].median());
        summary.put("turbo_hot_median_ms", runs[1].median());
        summary.put("ratio", ratio);
        summary.put("parquet_error", runs[0].error);
        summary.put("turbo_error", runs[1].error);
        summary.put("duckdb_ms", duckDbMs);
        summary.put("rows", expected.size());
        summary.put("turbo_vs_duckdb", verdicts[1]);
        summary.put("parquet_vs_duckdb", verdicts[0]);
        summary.put("hot_runs", repeat);
        json.println(MAPPER.writeValueAsString(summary));
      }
      log.printf(Locale.ROOT, "hot sums over the %d queries both readers ran: parquet %.1f s, turbo-parquet %.1f s, "
          + "ratio %.2fx%n", both, sums[0] / 1e3, sums[1] / 1e3, sums[0] / sums[1]);
      log.println(allEqual ? "every turbo-parquet answer EQUAL to DuckDB's" : "some turbo-parquet answers DIFFER");
    }
    System.exit(allEqual ? 0 : 1);
  }

  /** Every row of the query's answer, read to its end (the timed part). */
  private static List<List<Object>> rows(Connection connection, String sql) throws SQLException {
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      return DuckDbHits.rows(rs);
    }
  }

  /**
   * The error's first line (Drill's messages go on with the plan and the stack), with the first
   * expression error's text when there is one: "Failure while materializing expression" alone does
   * not say which function is missing.
   */
  static String firstLine(SQLException e) {
    List<String> lines = String.valueOf(e.getMessage()).strip().lines().toList();
    String detail = lines.stream().filter(l -> l.startsWith("Error in expression")).findFirst()
        .map(l -> " " + l.replaceFirst(".*?Error: ", "").replaceFirst("\\. Full expression.*", "")).orElse("");
    return lines.isEmpty() ? "" : lines.get(0).strip() + detail;
  }
}
