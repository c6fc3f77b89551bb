package io.turboparquet.drill.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.turboparquet.storage.SlowFileSystem;
import io.turboparquet.storage.StorageCounters;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/**
 * The Drill benchmark (bin/drill bench): for each file and each {@code planner.width.max_per_node},
 * the demo's all-column query through Drill's {@code parquet} format and through
 * {@code turbo-parquet}, one warm-up each, then N runs interleaved. Reports medians of the query's
 * wall time and of the scan operators' process time from the profiles (the longest single scan
 * operator: the scan's critical path; and the sum over the fragments), and writes one JSON line per
 * run for docs/benchmarks.md and its plot, with the CPU time the whole drillbit spent on each run
 * (every thread: fragments, scan and decode pools, JIT and GC). Fails if the formats' answers
 * differ. {@code --no-ahead} adds a third variant: {@code turbo-parquet} with {@code decodeAhead}
 * off; {@code --no-builtin} leaves Drill's reader out (the ratios are then to the first format left).
 *
 * <p>On the slow:// harness ({@code --slow LATENCY,STREAM,TOTAL}, the settings bin/drill gave the
 * storage plugin) each run also records what the harness served during the query (read calls and
 * bytes, from the drillbit's {@link SlowFileSystem}), and the scan operators' storage metrics;
 * {@code --cli BIN} adds the standalone scan to every round, interleaved with the formats:
 * {@code BIN scan slow://FILE --json --repeat 2 --threads 2 --scan-threads P} (P: the drillbit's
 * scan pool, {@code drill.exec.scan.threadpool_size}) with the same settings, its second
 * repetition recorded (the first warms the JIT) as format {@code cli}.
 *
 * <p>usage: DrillBench --out FILE.jsonl [--widths 1,2] [--repeat N] [--plugin dfs] [--no-ahead]
 * [--no-builtin] [--slow L,S,T [--cli BIN]] FILE.parquet... (the storage plugin must carry both formats; bin/drill
 * bench --slow defines one on the slow:// harness)
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
    boolean noBuiltin = false;
    String slow = null;
    String cli = null;
    List<Path> files = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--widths" -> widths = Arrays.stream(args[++i].split(",")).map(Integer::parseInt).toList();
        case "--repeat" -> repeat = Integer.parseInt(args[++i]);
        case "--out" -> out = Paths.get(args[++i]);
        case "--plugin" -> plugin = args[++i];
        case "--no-ahead" -> noAhead = true;
        case "--no-builtin" -> noBuiltin = true;
        case "--slow" -> slow = args[++i];
        case "--cli" -> cli = args[++i];
        default -> files.add(Paths.get(args[i]).toAbsolutePath());
      }
    }
    if (files.isEmpty() || out == null || repeat < 1 || cli != null && slow == null) {
      System.err.println("usage: DrillBench --out FILE.jsonl [--widths 1,2] [--repeat N] [--plugin P] "
          + "[--no-ahead] [--no-builtin] [--slow L,S,T [--cli BIN]] FILE.parquet...");
      System.exit(2);
    }
    try (Connection connection = DriverManager.getConnection("jdbc:drill:zk=local");
        PrintStream json = new PrintStream(Files.newOutputStream(out))) {
      DrillSession session = new DrillSession(connection);
      session.execute("alter session set `exec.query_profile.debug_mode` = true");
      int scanPool = Integer.parseInt(session.single(
          "select num_val from sys.boot where name = 'drill.exec.scan.threadpool_size'"));
      PrintStream log = System.out;
      StorageCounters storage = null; // the harness's, once Drill has made its file system
      log.println("scan pool " + scanPool + ", scan-decode pool " + session.single(
          "select num_val from sys.boot where name = 'drill.exec.scan.decode_threadpool_size'")
          + (slow == null ? "" : ", storage slow:// " + slow));
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
          if (noBuiltin) {
            tables.remove(0);
            types.remove(0);
            names.remove(0);
          }
          int queries = tables.size();
          if (cli != null) {
            names.add("cli");
          }
          int formats = names.size();
          List<String> answer = null;
          double[][] wall = new double[formats][repeat];
          double[][] scanMax = new double[formats][repeat];
          double[][] scanSum = new double[formats][repeat];
          double[][] scanElapsed = new double[formats][repeat];
          double[][] cpu = new double[formats][repeat];
          for (int run = -1; run < repeat; run++) {
            for (int f = 0; f < formats; f++) {
              String load = loadAverage();
              if (f == queries) {
                JsonNode scan = cliScan(cli, file, slow, scanPool);
                if (run < 0) {
                  continue;
                }
                double seconds = scan.path("wall_ms").asDouble() / 1e3;
                wall[f][run] = seconds;
                scanMax[f][run] = seconds;
                scanSum[f][run] = seconds;
                scanElapsed[f][run] = seconds;
                cpu[f][run] = scan.path("cpu_ms").asDouble() / 1e3;
                Map<String, Object> metrics = new LinkedHashMap<>();
                for (String name : CLI_METRICS) {
                  if (scan.has(name)) {
                    metrics.put(name, scan.path(name).numberValue());
                  }
                }
                json.printf(Locale.ROOT, "{\"plugin\":\"%s\",\"slow\":\"%s\",\"scan_pool\":%d,\"file\":\"%s\",\"width\":%d,"
                    + "\"format\":\"cli\",\"run\":%d,\"wall_s\":%.4f,\"scan_max_s\":%.4f,\"scan_sum_s\":%.4f,"
                    + "\"scan_with_wait_s\":%.4f,\"scan_operators\":0,\"cpu_s\":%.4f,\"storage_calls\":%d,"
                    + "\"storage_bytes\":%d,\"load\":\"%s\",\"metrics\":%s}%n", plugin, slow, scanPool, file.getFileName(), width,
                    run, seconds, seconds, seconds, seconds, cpu[f][run], scan.path("storage_read_calls").asLong(),
                    scan.path("storage_bytes").asLong(), load, MAPPER.writeValueAsString(metrics));
                continue;
              }
              StorageCounters before = storage;
              long calls0 = before == null ? 0 : before.calls();
              long bytes0 = before == null ? 0 : before.bytes();
              long cpu0 = processCpuNanos();
              DrillSession.Run r = session.timed(String.format(Locale.ROOT, DrillDemo.QUERY, tables.get(f)));
              double cpuSeconds = (processCpuNanos() - cpu0) / 1e9;
              if (slow != null && storage == null) {
                storage = slowCounters(); // Drill has made it now (the first query, a warm-up)
              }
              long storageCalls = before == null ? -1 : before.calls() - calls0;
              long storageBytes = before == null ? -1 : before.bytes() - bytes0;
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
              if (slow == null) {
                json.printf(Locale.ROOT, "{\"plugin\":\"%s\",\"file\":\"%s\",\"width\":%d,\"format\":\"%s\","
                    + "\"run\":%d,\"wall_s\":%.4f,\"scan_max_s\":%.4f,\"scan_sum_s\":%.4f,\"scan_with_wait_s\":%.4f,"
                    + "\"scan_operators\":%d,\"cpu_s\":%.4f}%n", plugin, file.getFileName(), width,
                    names.get(f), run, wall[f][run], scanMax[f][run], scanSum[f][run], scanElapsed[f][run],
                    scan.operators(), cpu[f][run]);
                continue;
              }
              Map<String, Object> metrics = new LinkedHashMap<>();
              for (String name : SCAN_METRICS) {
                Long v = scan.metrics().get(name);
                if (v != null) {
                  metrics.put(name, v);
                }
              }
              json.printf(Locale.ROOT, "{\"plugin\":\"%s\",\"slow\":\"%s\",\"scan_pool\":%d,\"file\":\"%s\",\"width\":%d,"
                  + "\"format\":\"%s\",\"run\":%d,\"wall_s\":%.4f,\"scan_max_s\":%.4f,\"scan_sum_s\":%.4f,"
                  + "\"scan_with_wait_s\":%.4f,\"scan_operators\":%d,\"cpu_s\":%.4f,\"storage_calls\":%d,"
                  + "\"storage_bytes\":%d,\"load\":\"%s\",\"metrics\":%s}%n", plugin, slow, scanPool, file.getFileName(),
                  width, names.get(f), run, wall[f][run], scanMax[f][run], scanSum[f][run], scanElapsed[f][run],
                  scan.operators(), cpu[f][run], storageCalls, storageBytes, load, MAPPER.writeValueAsString(metrics));
            }
          }
          for (int f = 0; f < formats; f++) {
            log.printf(Locale.ROOT, "%-40s %5d %-16s %10.3f %14.3f %14.3f %16.3f %10.3f%n", file.getFileName(),
                width, names.get(f), median(wall[f]), median(scanMax[f]), median(scanSum[f]),
                median(scanElapsed[f]), median(cpu[f]));
          }
          for (int f = 1; f < formats; f++) {
            log.printf(Locale.ROOT, "%-40s %5d %-16s %10.2fx %13.2fx %13.2fx %15.2fx %9.2fx%n", "", width,
                "ratio to " + names.get(f), median(wall[0]) / median(wall[f]),
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

  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** Scan-operator metrics recorded per run on the harness (those a format sets). */
  private static final List<String> SCAN_METRICS = List.of("NUM_ROWGROUPS", "TIME_DISK_SCAN_WAIT", "TIME_DISK_SCAN",
      "NUM_READ_CALLS", "TOTAL_READ_BYTES", "NUM_COALESCED_RANGES", "NUM_PREFETCHED_ROWGROUPS",
      "TIME_DATA_PAGE_DECODE", "TIME_DATA_PAGES_DECOMPRESSED", "TIME_PROCESS", "TOTAL_DATA_PAGE_READ_BYTES",
      "TOTAL_DICT_PAGE_READ_BYTES", "TIME_DATA_PAGE_LOADS", "TIME_DICT_PAGE_LOADS");

  /** The standalone scan's fields recorded per run. */
  private static final List<String> CLI_METRICS = List.of("row_groups", "page_reader_wait_ms", "fetch_wait_ms",
      "disk_read_ms", "decode_ms", "decompress_ms", "read_calls", "bytes_read", "coalesced_ranges",
      "prefetched_row_groups", "storage_wait_share", "peak_direct_bytes");

  /**
   * The counters of the drillbit's slow:// file system: Drill opens its file systems through
   * Hadoop's cache as the process user, as this does, so this is the same instance, configured by
   * the storage plugin. Never asked before Drill has made it (asking first would make one without the
   * plugin's settings: checked by its latency setting).
   */
  private static StorageCounters slowCounters() throws IOException {
    FileSystem fs = FileSystem.get(URI.create(SlowFileSystem.SCHEME + ":///"), new Configuration());
    if (!(fs instanceof SlowFileSystem slowFs) || slowFs.getConf().get(SlowFileSystem.LATENCY) == null) {
      return null;
    }
    return slowFs.counters();
  }

  /** One standalone scan JVM: two repetitions on the harness with the same settings; the second one's JSON. */
  private static JsonNode cliScan(String cli, Path file, String slow, int scanThreads) throws Exception {
    String[] s = slow.split(",");
    List<String> command = List.of(cli, "scan", SlowFileSystem.SCHEME + "://" + file, "--json", "--repeat", "2",
        "--threads", "2", "--scan-threads", Integer.toString(scanThreads),
        "-D", SlowFileSystem.LATENCY + "=" + s[0], "-D", SlowFileSystem.STREAM_BANDWIDTH + "=" + s[1],
        "-D", SlowFileSystem.TOTAL_BANDWIDTH + "=" + s[2]);
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String output = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IOException(String.join(" ", command) + " failed: " + output);
    }
    String[] lines = output.strip().split("\n");
    return MAPPER.readTree(lines[lines.length - 1]);
  }

  /** The 1-minute load average, as /proc/loadavg says (empty where there is none). */
  private static String loadAverage() {
    try {
      return Files.readString(Paths.get("/proc/loadavg")).split(" ")[0];
    } catch (IOException e) {
      return "";
    }
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
