package io.turboparquet.drill.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * The planning benchmark (bench/planning.sh): on tables where footers dominate planning, two
 * queries (a sum of 10 columns; {@code count(*) ... where col_5 > 0.5}, which prunes row groups)
 * through Drill's {@code parquet} format and through {@code turbo-parquet}, each run twice in a
 * row: "first" after the table's files were given a new modification time (so turbo-parquet's
 * footer cache holds none of them: every footer is decoded again, as on a drillbit's first query),
 * then "warm". Formats interleaved, one untimed round first. Reports medians of the planning phase
 * from the query profile ({@code planEnd - start}) and of the query's wall time; one JSON line per
 * run. Fails if the formats' answers differ.
 *
 * {@code --formats parquet} or {@code --formats turbo-parquet} runs one format only, so that each can
 * be measured in a drillbit of its own (planning a wide table builds hundreds of MB of metadata:
 * in a shared JVM each format's collections copy the other's live metadata too).
 *
 * <p>usage: PlanningBench --out FILE.jsonl [--repeat N] [--formats F,...] TABLE_DIR...
 */
public final class PlanningBench {
  private static final String SUM = "select " + IntStream.range(0, 10).mapToObj(i -> "sum(col_" + i + ")")
      .collect(Collectors.joining(", ")) + " from %s";
  private static final String FILTER = "select count(*) from %s where col_5 > 0.5";
  private static final List<String> BOTH = List.of("parquet", "turbo-parquet");
  private static final List<String> MODES = List.of("first", "warm");

  private PlanningBench() {
  }

  public static void main(String[] args) throws Exception {
    int repeat = 5;
    Path out = null;
    List<String> formats = BOTH;
    List<Path> tables = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--repeat" -> repeat = Integer.parseInt(args[++i]);
        case "--out" -> out = Paths.get(args[++i]);
        case "--formats" -> formats = List.of(args[++i].split(","));
        default -> tables.add(Paths.get(args[i]).toAbsolutePath());
      }
    }
    if (tables.isEmpty() || out == null || repeat < 1 || !BOTH.containsAll(formats)) {
      System.err.println("usage: PlanningBench --out FILE.jsonl [--repeat N] [--formats F,...] TABLE_DIR...");
      System.exit(2);
    }
    try (Connection connection = DriverManager.getConnection("jdbc:drill:zk=local");
        PrintStream json = new PrintStream(Files.newOutputStream(out))) {
      DrillSession session = new DrillSession(connection);
      session.execute("alter session set `exec.query_profile.debug_mode` = true");
      PrintStream log = System.out;
      log.printf("%-10s %-7s %-14s %-6s %12s %10s%n", "table", "query", "format", "mode", "planning ms", "wall ms");
      for (Path table : tables) {
        for (String query : List.of(SUM, FILTER)) {
          String queryName = query == SUM ? "sum10" : "filter";
          double[][][] planning = new double[formats.size()][MODES.size()][repeat];
          double[][][] wall = new double[formats.size()][MODES.size()][repeat];
          List<String> answer = null;
          for (int run = -1; run < repeat; run++) {
            for (int f = 0; f < formats.size(); f++) {
              touch(table, run * formats.size() + f);
              String sql = String.format(Locale.ROOT, query, "table(dfs.`" + table + "`(type => '" + formats.get(f)
                  + "'))");
              for (int m = 0; m < MODES.size(); m++) {
                DrillSession.Run r = session.timed(sql);
                if (answer == null) {
                  answer = r.answer();
                } else if (!answer.equals(r.answer())) {
                  throw new IllegalStateException(table + ": " + formats.get(f) + " answered " + r.answer()
                      + ", not " + answer);
                }
                if (run < 0) {
                  continue;
                }
                JsonNode profile = new ObjectMapper().readTree(session.profile(r.queryId()));
                planning[f][m][run] = profile.path("planEnd").asLong() - profile.path("start").asLong();
                wall[f][m][run] = r.seconds() * 1000;
                json.printf(Locale.ROOT, "{\"table\":\"%s\",\"query\":\"%s\",\"format\":\"%s\",\"mode\":\"%s\","
                    + "\"run\":%d,\"planning_ms\":%.0f,\"wall_ms\":%.1f}%n", table.getFileName(), queryName,
                    formats.get(f), MODES.get(m), run, planning[f][m][run], wall[f][m][run]);
              }
            }
          }
          for (int m = 0; m < MODES.size(); m++) {
            for (int f = 0; f < formats.size(); f++) {
              log.printf(Locale.ROOT, "%-10s %-7s %-14s %-6s %12.0f %10.0f%n", table.getFileName(), queryName,
                  formats.get(f), MODES.get(m), DrillBench.median(planning[f][m]), DrillBench.median(wall[f][m]));
            }
            if (formats.size() == 2) {
              log.printf(Locale.ROOT, "%-10s %-7s %-14s %-6s %11.1fx %9.1fx%n", "", "", "ratio", MODES.get(m),
                  DrillBench.median(planning[0][m]) / DrillBench.median(planning[1][m]),
                  DrillBench.median(wall[0][m]) / DrillBench.median(wall[1][m]));
            }
          }
        }
      }
    } catch (IOException e) {
      System.err.println("PlanningBench: " + e.getMessage());
      System.exit(1);
    }
    System.exit(0);
  }

  /** A new modification time for every file of the table: a new version for turbo-parquet's footer cache. */
  private static void touch(Path table, int round) throws IOException {
    FileTime time = FileTime.fromMillis(System.currentTimeMillis() + 1000L * (round + 2));
    try (Stream<Path> files = Files.walk(table)) {
      for (Path file : files.filter(p -> p.toString().endsWith(".parquet")).toList()) {
        Files.setLastModifiedTime(file, time);
      }
    }
  }
}
