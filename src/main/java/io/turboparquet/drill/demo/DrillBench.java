package io.turboparquet.drill.demo;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The Drill benchmark (bin/drill bench): for each file and each {@code planner.width.max_per_node},
 * the demo's all-column query through Drill's {@code parquet} format and through
 * {@code turbo-parquet}, one warm-up each, then N runs interleaved. Reports medians of the query's
 * wall time and of the scan operators' process time from the profiles (the longest single scan
 * operator: the scan's critical path; and the sum over the fragments), and writes one JSON line per
 * run for docs/benchmarks.md and its plot, with the CPU time the whole drillbit spent on each run
 * (every thread: fragments, scan and decode pools, JIT and GC). Fails if the formats' answers
 * differ. {@code --no-ahead} adds a third variant: {@code turbo-parquet} with {@code decodeAhead}
 * off.
 *
 * <p>usage: DrillBench --out FILE.jsonl [--widths 1,2] [--repeat N] [--plugin dfs] [--no-ahead] FILE.parquet...
 * (the storage plugin must carry both formats; bin/drill bench --slow defines one on the slow://
 * harness)
 */
public final class DrillBench {
  private DrillBench() {
  }

  public static void main(String[] args) throws Exception {
    List<Integer> widths = List.of(1, 2);
    int repeat = 5;
    Path out = null;
    String plugin = "dfs";
    boolean noAhead = false;
    List<Path> files = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--widths" -> widths = Arrays.stream(args[++i].split(",")).map(Integer::parseInt).toList();
        case "--repeat" -> repeat = Integer.parseInt(args[++i]);
        case "--out" -> out = Paths.get(args[++i]);
        case "--plugin" -> plugin = args[++i];
        case "--no-ahead" -> noAhead = true;
        default -> files.add(Paths.get(args[i]).toAbsolutePath());
      }
    }
    if (files.isEmpty() || out == null || repeat < 1) {
      System.err.println("usage: DrillBench --out FILE.jsonl [--widths 1,2] [--repeat N] [--plugin P] "
          + "[--no-ahead] FILE.parquet...");
      System.exit(2);
    }
    try (Connection connection = DriverManager.getConnection("jdbc:drill:zk=local");
        PrintStream json = new PrintStream(Files.newOutputStream(out))) {
      DrillSession session = new DrillSession(connection);
      session.execute("alter session set `exec.query_profile.debug_mode` = true");
      PrintStream log = System.out;
      log.printf("%-40s %5s %-16s %10s %14s %14s %16s %10s%n", "file", "width", "format", "wall s", "scan max s",
          "scan sum s", "scan+wait max s", "cpu s");
      for (int width : widths) {
        session.execute("alter session set `planner.width.max_per_node` = " + width);
        for (Path file : files) {
          String table = "table(" + plugin + ".`" + file + "`";
          List<String> tables = new ArrayList<>(List.of(table + "(type => 'parquet'))",
              table + "(type => 'turbo-parquet'))"));
          List<String> types = new ArrayList<>(List.of(DrillDemo.DRILL_SCAN, DrillDemo.TURBO_SCAN));
          List<String> names = new ArrayList<>(List.of("parquet", "turbo-parquet"));
          if (noAhead) {
            tables.add(table + "(type => 'turbo-parquet', decodeAhead => false))");
            types.add(DrillDemo.TURBO_SCAN);
            names.add("turbo-no-ahead");
          }
          int formats = tables.size();
          List<String> answer = null;
          double[][] wall = new double[formats][repeat];
          double[][] scanMax = new double[formats][repeat];
          double[][] scanSum = new double[formats][repeat];
          double[][] scanElapsed = new double[formats][repeat];
          double[][] cpu = new double[formats][repeat];
          for (int run = -1; run < repeat; run++) {
            for (int f = 0; f < formats; f++) {
              long cpu0 = processCpuNanos();
              DrillSession.Run r = session.timed(String.format(Locale.ROOT, DrillDemo.QUERY, tables.get(f)));
              double cpuSeconds = (processCpuNanos() - cpu0) / 1e9;
              if (answer == null) {
                answer = r.answer();
              } else if (!answer.equals(r.answer())) {
                throw new IllegalStateException(file + ": " + names.get(f) + " answered " + r.answer() + ", not "
                    + answer);
              }
              if (run < 0) {
                continue; // warm-up
              }
              ScanProfile scan = ScanProfile.of(session.profile(r.queryId()), types.get(f));
              wall[f][run] = r.seconds();
              cpu[f][run] = cpuSeconds;
              scanMax[f][run] = scan.maxProcessNanos() / 1e9;
              scanSum[f][run] = scan.processNanos() / 1e9;
              scanElapsed[f][run] = scan.maxElapsedNanos() / 1e9;
              json.printf(Locale.ROOT, "{\"plugin\":\"%s\",\"file\":\"%s\",\"width\":%d,\"format\":\"%s\","
                  + "\"run\":%d,\"wall_s\":%.4f,\"scan_max_s\":%.4f,\"scan_sum_s\":%.4f,\"scan_with_wait_s\":%.4f,"
                  + "\"scan_operators\":%d,\"cpu_s\":%.4f}%n", plugin, file.getFileName(), width,
                  names.get(f), run, wall[f][run], scanMax[f][run], scanSum[f][run], scanElapsed[f][run],
                  scan.operators(), cpu[f][run]);
            }
          }
          for (int f = 0; f < formats; f++) {
            log.printf(Locale.ROOT, "%-40s %5d %-16s %10.3f %14.3f %14.3f %16.3f %10.3f%n", file.getFileName(),
                width, names.get(f), median(wall[f]), median(scanMax[f]), median(scanSum[f]),
                median(scanElapsed[f]), median(cpu[f]));
          }
          for (int f = 1; f < formats; f++) {
            log.printf(Locale.ROOT, "%-40s %5d %-16s %10.2fx %13.2fx %13.2fx %15.2fx %9.2fx%n", "", width,
                "ratio to " + (f == 1 ? "turbo" : "no-ahead"), median(wall[0]) / median(wall[f]),
                median(scanMax[0]) / median(scanMax[f]), median(scanSum[0]) / median(scanSum[f]),
                median(scanElapsed[0]) / median(scanElapsed[f]), median(cpu[0]) / median(cpu[f]));
          }
        }
      }
    } catch (IOException e) {
      System.err.println("DrillBench: " + e.getMessage());
      System.exit(1);
    }
    System.exit(0);
  }

  /** CPU time of every thread of this JVM (the embedded drillbit runs here). */
  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime();
  }

  /** The median of the runs (the mean of the middle two for an even count). */
  static double median(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }
}
