package io.turboparquet.drill.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.turboparquet.clickbench.AnswerComparison;
import io.turboparquet.clickbench.ClickBenchQueries.Query;
import io.turboparquet.clickbench.DuckDbOracle;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A benchmark's queries on one file through Drill's built-in reader ({@code table(dfs.`FILE`(type
 * => 'parquet'))}) and through turbo-parquet ({@code dfs.`FILE`}, the switch on), in an embedded
 * drillbit, interleaved per query: one cold run, then N hot runs each; a reader that fails a query
 * is not run again on it. Every answer is checked against DuckDB's on the same file
 * ({@link AnswerComparison}). Prints per query the hot medians, their ratio, errors and EQUAL /
 * DIFFERENT, then the hot sums over the queries both readers ran; writes one JSON line per run and
 * per query. {@code bin/drill clickbench} and {@code bin/drill tpch} run it.
 */
final class ReaderComparison {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String[] READERS = {"parquet", "turbo-parquet"};

  private ReaderComparison() {}

  /** One reader's runs of one query: hot times, the last answer, or the error that stopped it. */
  private static final class Runs {
    final List<Double> hotMs = new ArrayList<>();
    List<List<Object>> answer;
    String error;

    double median() {
      return hotMs.isEmpty() ? Double.NaN : DrillBench.median(hotMs.stream().mapToDouble(d -> d).toArray());
    }
  }

  /** The command line both benchmarks take: {@code --out FILE.jsonl [--repeat N] [--queries 1,7] FILE.parquet}. */
  record Arguments(Path out, int repeat, Set<Integer> only, Path file) {
    static Arguments parse(String[] args, String usage) {
      int repeat = 3;
      Path out = null;
      Path file = null;
      Set<Integer> only = null;
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--repeat" -> repeat = Integer.parseInt(args[++i]);
          case "--out" -> out = Path.of(args[++i]);
          case "--queries" -> only = Set.copyOf(List.of(args[++i].split(",")).stream().map(Integer::parseInt).toList());
          default -> file = Path.of(args[i]).toAbsolutePath();
        }
      }
      if (file == null || out == null || repeat < 1) {
        System.err.println("usage: " + usage);
        System.exit(2);
      }
      return new Arguments(out, repeat, only, file);
    }
  }

  /** Runs {@code queries} (those {@code args} selects) and exits: 1 when turbo-parquet fails one or answers differently. */
  static void runAndExit(List<Query> queries, DuckDbOracle duckDb, Arguments args) throws Exception {
    String[] tables = {"table(dfs.`" + args.file() + "`(type => 'parquet'))", "dfs.`" + args.file() + "`"};
    PrintStream log = System.out;
    boolean allEqual = true;
    double[] sums = new double[2];
    int both = 0;
    try (duckDb; Connection drill = DriverManager.getConnection("jdbc:drill:zk=local");
        PrintStream json = new PrintStream(Files.newOutputStream(args.out()))) {
      log.printf("%-4s %12s %12s %7s %10s  %-9s %s%n", "q", "parquet ms", "turbo ms", "ratio", "duckdb ms", "turbo",
          "built-in");
      for (Query q : queries) {
        if (args.only() != null && !args.only().contains(q.number())) {
          continue;
        }
        long start = System.nanoTime();
        List<List<Object>> expected = duckDb.rows(q.duckDbSql());
        double duckDbMs = (System.nanoTime() - start) / 1e6;
        Runs[] runs = {new Runs(), new Runs()};
        for (int run = -1; run < args.repeat(); run++) {
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
        summary.put("hot_runs", args.repeat());
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
      return DuckDbOracle.rows(rs);
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
