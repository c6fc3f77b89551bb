package io.turboparquet.drill.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The selective-scan benchmark of issue 16 (bin/drill selective, bench/selective.sh): in one
 * embedded drillbit, for each {@code planner.width.max_per_node}, range filters on the sort key of
 * TPC-H lineitem sorted by {@code l_shipdate} keeping about 0.1%, 1%, 10% and 100% of the rows, and
 * point lookups {@code l_partkey = X} (a value that exists, one that does not) on a copy sorted by
 * {@code l_orderkey} with bloom filters on {@code l_partkey}, through Drill's {@code parquet} format
 * and through {@code turbo-parquet}, interleaved; each also over a one-page file (the same query
 * text): Drill's floor for the query, the time no reader removes. Every query runs once before
 * anything is timed; then, per case and width, one warm-up round and N timed ones.
 *
 * <p>The query, {@link #QUERY}, projects {@code l_extendedprice} and {@code l_comment} besides the
 * filter column, so skipped pages save decoding of columns the filter does not name, and its sum and
 * minimum keep {@code count(*)} from being answered by metadata. The dates come from the data:
 * the rows per {@code l_shipdate} (a group-by through Drill's reader), a start at the first date
 * where 25% of the rows lie before it, and for each fraction the end date (exclusive) whose count
 * comes closest to it; 100% is the whole date range. X is the first value of {@code l_partkey} at
 * or after 100000 that occurs; "1 rg" looks up the first value at or after 100000 whose rows all lie in
 * one row group (Drill's implicit column {@code rgi}), so that the other row groups' statistics
 * cover it and their bloom filters do not; the missing value is the smallest one inside the
 * column's min/max that occurs nowhere, else max + 1 (then outside every row group's statistics).
 *
 * <p>Every answer is checked: both formats, on the table and on the floor file, give the same
 * count and minimum (the floating-point sum to 1e-12 relative: at width 2 partial sums merge in
 * either order), and the count is the one the distribution predicts; a difference ends the run
 * with an exception. One JSON line per run: wall time, planning ({@code planEnd - start} of the
 * profile), the scan operators' process and wait time, the process time of every operator type,
 * the scan's metrics (both readers' own names), bytes read (turbo-parquet: {@code TOTAL_READ_BYTES};
 * Drill's reader: the sum of its page byte metrics, see {@link #builtInBytes}) and the 1-minute
 * load average.
 *
 * <p>usage: SelectiveBench --out FILE.jsonl [--widths 1,2] [--repeat N] BY_SHIPDATE.parquet
 * BY_ORDERKEY_BLOOM.parquet FLOOR.parquet
 */
public final class SelectiveBench {
  static final String QUERY = "select count(*) as row_count, sum(l_extendedprice) as sum_price, "
      + "min(l_comment) as min_comment from %s where %s";
  private static final List<String> FORMATS = List.of("parquet", "turbo-parquet");
  private static final double[] FRACTIONS = {0.001, 0.01, 0.1, 1.0};
  private static final double START_QUANTILE = 0.25;
  private static final long LOOKUP_FROM = 100_000;
  /** Drill's reader: bytes of the pages it read, by the four metrics that count them. */
  private static final List<String> BUILT_IN_BYTE_METRICS = List.of("TOTAL_DATA_DECOMPRESSED_BYTES",
      "TOTAL_DICT_DECOMPRESSED_BYTES", "TOTAL_DATA_PAGE_READ_BYTES", "TOTAL_DICT_PAGE_READ_BYTES");

  /** One query shape: its filter, the table it runs on, and the rows it must count. */
  record Case(String name, Path file, String where, double fraction, long expectedRows) {}

  private final DrillSession session;
  private final ObjectMapper mapper = new ObjectMapper();

  private SelectiveBench(DrillSession session) {
    this.session = session;
  }

  public static void main(String[] args) throws Exception {
    List<Integer> widths = List.of(1, 2);
    int repeat = 5;
    Path out = null;
    List<Path> files = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--widths" -> widths = Arrays.stream(args[++i].split(",")).map(Integer::parseInt).toList();
        case "--repeat" -> repeat = Integer.parseInt(args[++i]);
        case "--out" -> out = Paths.get(args[++i]);
        default -> files.add(Paths.get(args[i]).toAbsolutePath());
      }
    }
    if (files.size() != 3 || out == null || repeat < 1) {
      System.err.println("usage: SelectiveBench --out FILE.jsonl [--widths 1,2] [--repeat N] BY_SHIPDATE.parquet "
          + "BY_ORDERKEY_BLOOM.parquet FLOOR.parquet");
      System.exit(2);
    }
    try (Connection connection = DriverManager.getConnection("jdbc:drill:zk=local");
        PrintStream json = new PrintStream(Files.newOutputStream(out))) {
      SelectiveBench bench = new SelectiveBench(new DrillSession(connection));
      bench.session.execute("alter session set `exec.query_profile.debug_mode` = true");
      List<Case> cases = new ArrayList<>(bench.ranges(files.get(0)));
      cases.addAll(bench.lookups(files.get(1)));
      for (Case c : cases) {
        System.out.printf(Locale.ROOT, "%-12s %-40s %9d rows (%.4f%%)  where %s%n", c.name(), c.file().getFileName(),
            c.expectedRows(), 100.0 * c.fraction(), c.where());
      }
      // JIT: every query shape through both formats once before any case is timed.
      for (Case c : cases) {
        for (Path file : List.of(c.file(), files.get(2))) {
          for (String format : FORMATS) {
            bench.session.timed(String.format(Locale.ROOT, QUERY, table(file, format), c.where()));
          }
        }
      }
      List<Map<String, Object>> summary = new ArrayList<>();
      for (int width : widths) {
        bench.session.execute("alter session set `planner.width.max_per_node` = " + width);
        for (Case c : cases) {
          summary.add(bench.run(c, files.get(2), width, repeat, json));
        }
      }
      printSummary(summary);
    } catch (IOException e) {
      System.err.println("SelectiveBench: " + e.getMessage());
      System.exit(1);
    }
    System.exit(0);
  }

  /** The range cases on the l_shipdate-sorted file, dates from its distribution (see the class comment). */
  private List<Case> ranges(Path file) throws Exception {
    List<List<String>> perDay = session.rows("select l_shipdate, count(*) from table(dfs.`" + file
        + "`(type => 'parquet')) group by l_shipdate order by l_shipdate");
    int days = perDay.size();
    LocalDate[] day = new LocalDate[days];
    long[] before = new long[days + 1]; // before[i]: rows on days earlier than day[i]
    for (int i = 0; i < days; i++) {
      day[i] = LocalDate.parse(perDay.get(i).get(0));
      before[i + 1] = before[i] + Long.parseLong(perDay.get(i).get(1));
    }
    long total = before[days];
    int start = 0;
    while (before[start] < START_QUANTILE * total) {
      start++;
    }
    List<Case> cases = new ArrayList<>();
    for (double fraction : FRACTIONS) {
      LocalDate a;
      LocalDate b;
      long rows;
      if (fraction >= 1.0) {
        a = day[0];
        b = day[days - 1].plusDays(1);
        rows = total;
      } else {
        int end = start + 1;
        for (int e = start + 1; e <= days; e++) {
          if (Math.abs(before[e] - before[start] - fraction * total)
              < Math.abs(before[end] - before[start] - fraction * total)) {
            end = e;
          }
        }
        a = day[start];
        b = end < days ? day[end] : day[days - 1].plusDays(1);
        rows = before[end] - before[start];
      }
      cases.add(new Case(String.format(Locale.ROOT, "range %s%%", new BigDecimal(100 * fraction,
          MathContext.DECIMAL32).stripTrailingZeros().toPlainString()), file,
          "l_shipdate >= DATE '" + a + "' and l_shipdate < DATE '" + b + "'", (double) rows / total, rows));
    }
    return cases;
  }

  /** The point lookups on the l_orderkey-sorted file with bloom filters (see the class comment). */
  private List<Case> lookups(Path file) throws Exception {
    TreeMap<Long, Long> counts = new TreeMap<>();
    for (List<String> row : session.rows("select l_partkey, count(*) from table(dfs.`" + file
        + "`(type => 'parquet')) group by l_partkey")) {
      counts.put(Long.parseLong(row.get(0)), Long.parseLong(row.get(1)));
    }
    long total = counts.values().stream().mapToLong(Long::longValue).sum();
    long hit = counts.ceilingKey(LOOKUP_FROM);
    long miss = counts.lastKey() + 1;
    String missNote = "absent, above max";
    for (long v = counts.firstKey(); v < counts.lastKey(); v++) {
      if (!counts.containsKey(v)) {
        miss = v;
        missNote = "absent, inside min/max";
        break;
      }
    }
    System.out.printf(Locale.ROOT, "l_partkey: %d distinct values in [%d, %d]; lookup %d (%d rows), %d (%s)%n",
        counts.size(), counts.firstKey(), counts.lastKey(), hit, counts.get(hit), miss, missNote);
    List<Case> cases = new ArrayList<>(List.of(new Case("lookup hit", file, "l_partkey = " + hit,
        (double) counts.get(hit) / total, counts.get(hit))));
    // A value that occurs in one row group only (Drill's implicit row-group index, rgi): the other row
    // groups' statistics hold it, their bloom filters do not.
    TreeMap<Long, Long> oneGroup = new TreeMap<>();
    for (List<String> row : session.rows("select l_partkey, count(*) from table(dfs.`" + file
        + "`(type => 'parquet')) group by l_partkey having min(rgi) = max(rgi)")) {
      oneGroup.put(Long.parseLong(row.get(0)), Long.parseLong(row.get(1)));
    }
    if (!oneGroup.isEmpty()) {
      Long near = oneGroup.ceilingKey(LOOKUP_FROM) != null ? oneGroup.ceilingKey(LOOKUP_FROM) : oneGroup.lastKey();
      System.out.printf(Locale.ROOT, "l_partkey: %d values occur in one row group only; lookup %d (%d rows)%n",
          oneGroup.size(), near, oneGroup.get(near));
      cases.add(new Case("lookup 1 rg", file, "l_partkey = " + near, (double) oneGroup.get(near) / total,
          oneGroup.get(near)));
    }
    cases.add(new Case("lookup miss", file, "l_partkey = " + miss, 0, 0));
    return cases;
  }

  private static String table(Path file, String format) {
    return "table(dfs.`" + file + "`(type => '" + format + "'))";
  }

  /** One case at one width: warm-up, then {@code repeat} interleaved rounds; returns the medians. */
  private Map<String, Object> run(Case c, Path floorFile, int width, int repeat, PrintStream json) throws Exception {
    Map<String, double[]> wall = new TreeMap<>();
    Map<String, double[]> scan = new TreeMap<>();
    Map<String, double[]> planning = new TreeMap<>();
    Map<String, double[]> bytes = new TreeMap<>();
    Map<String, ObjectNode> last = new TreeMap<>();
    List<String> answer = null;
    List<String> floorAnswer = null;
    for (int run = -1; run < repeat; run++) {
      for (String table : List.of("main", "floor")) {
        for (String format : FORMATS) {
          Path file = table.equals("main") ? c.file() : floorFile;
          double load = load1();
          DrillSession.Run r = session.timed(String.format(Locale.ROOT, QUERY, table(file, format), c.where()));
          if (table.equals("main")) {
            if (Long.parseLong(r.answer().get(0)) != c.expectedRows()) {
              throw new IllegalStateException(c.name() + ", " + format + ", width " + width + ": counted "
                  + r.answer().get(0) + " rows, the distribution says " + c.expectedRows());
            }
            answer = same(answer, r.answer(), c.name() + ", " + format + ", width " + width);
          } else {
            floorAnswer = same(floorAnswer, r.answer(), c.name() + " on the floor file, " + format + ", width "
                + width);
          }
          if (run < 0) {
            continue;
          }
          ObjectNode line = record(c, file, table, format, width, run, r, load);
          json.println(mapper.writeValueAsString(line));
          String key = table + "/" + format;
          wall.computeIfAbsent(key, k -> new double[repeat])[run] = line.get("wall_ms").asDouble();
          scan.computeIfAbsent(key, k -> new double[repeat])[run] = line.get("scan_max_ms").asDouble();
          planning.computeIfAbsent(key, k -> new double[repeat])[run] = line.get("planning_ms").asDouble();
          bytes.computeIfAbsent(key, k -> new double[repeat])[run] = line.get("bytes_read").asDouble();
          last.put(key, line);
        }
      }
    }
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("case", c.name());
    s.put("width", width);
    s.put("rows", c.expectedRows());
    for (String key : wall.keySet()) {
      s.put(key + " wall", DrillBench.median(wall.get(key)));
      s.put(key + " scan", DrillBench.median(scan.get(key)));
      s.put(key + " planning", DrillBench.median(planning.get(key)));
      s.put(key + " bytes", DrillBench.median(bytes.get(key)));
    }
    JsonNode turbo = last.get("main/turbo-parquet").get("scan_metrics");
    s.put("pages skipped", turbo.path("NUM_PAGES_SKIPPED").asLong());
    s.put("row groups pruned", turbo.path("NUM_ROWGROUPS_PRUNED_BY_DICTIONARY").asLong() + "+"
        + turbo.path("NUM_ROWGROUPS_PRUNED_BY_BLOOM_FILTER").asLong());
    return s;
  }

  /** The first answer, after checking that {@code next} equals it (the sum to 1e-12 relative). */
  private static List<String> same(List<String> first, List<String> next, String what) {
    if (first == null) {
      return next;
    }
    boolean equal = first.get(0).equals(next.get(0)) && String.valueOf(first.get(2)).equals(String.valueOf(next.get(2)));
    if (equal && (first.get(1) == null || next.get(1) == null)) {
      equal = first.get(1) == next.get(1);
    } else if (equal) {
      double a = Double.parseDouble(first.get(1));
      double b = Double.parseDouble(next.get(1));
      equal = Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b));
    }
    if (!equal) {
      throw new IllegalStateException(what + ": answered " + next + ", not " + first);
    }
    return first;
  }

  /** One run's JSON line, from its wall time and its query profile. */
  private ObjectNode record(Case c, Path file, String table, String format, int width, int run, DrillSession.Run r,
      double load) throws Exception {
    String profileJson = session.profile(r.queryId());
    JsonNode profile = mapper.readTree(profileJson);
    String scanType = format.equals("parquet") ? DrillDemo.DRILL_SCAN : DrillDemo.TURBO_SCAN;
    ScanProfile scan = ScanProfile.of(profileJson, scanType);
    ObjectNode line = mapper.createObjectNode();
    line.put("case", c.name());
    line.put("table", table);
    line.put("file", file.getFileName().toString());
    line.put("where", c.where());
    line.put("fraction", c.fraction());
    line.put("width", width);
    line.put("format", format);
    line.put("run", run);
    line.put("utc", Instant.now().toString());
    line.put("load1", load);
    line.put("query_id", r.queryId());
    line.put("wall_ms", round(r.seconds() * 1000));
    line.put("planning_ms", profile.path("planEnd").asLong() - profile.path("start").asLong());
    line.put("profile_ms", profile.path("end").asLong() - profile.path("start").asLong());
    line.put("scan_operators", scan.operators());
    line.put("scan_max_ms", round(scan.maxProcessNanos() / 1e6));
    line.put("scan_sum_ms", round(scan.processNanos() / 1e6));
    line.put("scan_with_wait_max_ms", round(scan.maxElapsedNanos() / 1e6));
    line.put("scan_rows", scanRows(profile, scanType));
    line.put("bytes_read", format.equals("parquet") ? builtInBytes(scan.metrics())
        : scan.metrics().getOrDefault("TOTAL_READ_BYTES", 0L));
    ObjectNode ops = line.putObject("operators_ms");
    operatorTimes(profile).forEach((type, t) -> ops.putArray(type).add(round(t[0] / 1e6)).add(round(t[1] / 1e6))
        .add(round(t[2] / 1e6)));
    ObjectNode metrics = line.putObject("scan_metrics");
    scan.metrics().forEach(metrics::put);
    ArrayNode answer = line.putArray("answer");
    r.answer().forEach(answer::add);
    return line;
  }

  /**
   * What Drill's reader reports it read: page bytes (headers excluded) by its four byte metrics. With
   * its default async page reader a compressed page counts its compressed size under
   * {@code TOTAL_*_DECOMPRESSED_BYTES} (the decompressor's input) and nothing under
   * {@code TOTAL_*_PAGE_READ_BYTES}; the synchronous reader counts uncompressed pages there. Its
   * buffered streams may read somewhat more from the file than these pages; the fragment's
   * footer read is not counted.
   */
  static long builtInBytes(Map<String, Long> metrics) {
    return BUILT_IN_BYTE_METRICS.stream().mapToLong(m -> metrics.getOrDefault(m, 0L)).sum();
  }

  /** Rows the scan operators returned: their input profile counts the batches they produced. */
  private static long scanRows(JsonNode profile, String scanType) {
    long rows = 0;
    for (JsonNode major : profile.path("fragmentProfile")) {
      for (JsonNode minor : major.path("minorFragmentProfile")) {
        for (JsonNode op : minor.path("operatorProfile")) {
          if (scanType.equals(op.path("operatorTypeName").asText())) {
            for (JsonNode in : op.path("inputProfile")) {
              rows += in.path("records").asLong();
            }
          }
        }
      }
    }
    return rows;
  }

  /** Setup, process and wait nanoseconds of each operator type, summed over the minor fragments. */
  private static Map<String, long[]> operatorTimes(JsonNode profile) {
    Map<String, long[]> times = new TreeMap<>();
    for (JsonNode major : profile.path("fragmentProfile")) {
      for (JsonNode minor : major.path("minorFragmentProfile")) {
        for (JsonNode op : minor.path("operatorProfile")) {
          long[] t = times.computeIfAbsent(op.path("operatorTypeName").asText(), k -> new long[3]);
          t[0] += op.path("setupNanos").asLong();
          t[1] += op.path("processNanos").asLong();
          t[2] += op.path("waitNanos").asLong();
        }
      }
    }
    return times;
  }

  private static double round(double v) {
    return Math.round(v * 10) / 10.0;
  }

  /** The 1-minute load average (Linux), or -1. */
  private static double load1() {
    try {
      return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  private static void printSummary(List<Map<String, Object>> summary) {
    System.out.println();
    System.out.printf("%-12s %5s %9s %10s %10s %7s %10s %10s %8s %9s %9s %12s %12s %7s %6s%n", "case", "width", "rows",
        "drill ms", "turbo ms", "ratio", "floor d", "floor t", "t/floor", "d scan", "t scan", "drill bytes",
        "turbo bytes", "pages", "rg");
    for (Map<String, Object> s : summary) {
      double drill = (double) s.get("main/parquet wall");
      double turbo = (double) s.get("main/turbo-parquet wall");
      System.out.printf(Locale.ROOT, "%-12s %5d %9d %10.0f %10.0f %6.1fx %10.0f %10.0f %7.2fx %9.0f %9.0f %12.0f %12.0f "
          + "%7s %6s%n", s.get("case"), s.get("width"), s.get("rows"), drill, turbo, drill / turbo,
          s.get("floor/parquet wall"), s.get("floor/turbo-parquet wall"),
          turbo / (double) s.get("floor/turbo-parquet wall"), s.get("main/parquet scan"),
          s.get("main/turbo-parquet scan"), s.get("main/parquet bytes"), s.get("main/turbo-parquet bytes"),
          s.get("pages skipped"), s.get("row groups pruned"));
    }
  }
}
