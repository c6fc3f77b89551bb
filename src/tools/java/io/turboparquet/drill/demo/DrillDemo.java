package io.turboparquet.drill.demo;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The Drill demo (bin/drill demo): in an embedded drillbit ({@code jdbc:drill:zk=local}, the plugin
 * jar on the classpath, the format registered by conf/storage-plugins-override.conf), one query that
 * reads all 16 columns of a TPC-H lineitem file and that no statistics can answer, through Drill's
 * {@code parquet} format and through {@code turbo-parquet}; prints both answers (and whether they
 * are equal), the times, and the scan operators' time and metrics from the query profiles side by side.
 *
 * <p>usage: DrillDemo FILE.parquet [--repeat N]  (N runs per format, the last one is reported)
 */
public final class DrillDemo {
  static final String DRILL_SCAN = "PARQUET_ROW_GROUP_SCAN";
  static final String TURBO_SCAN = "TURBO_PARQUET_ROW_GROUP_SCAN";

  /** Every column is read; doubles are summed in cents (exact), so the answers compare exactly. */
  static final String QUERY = """
      select count(*) as row_count, sum(l_orderkey) as sum_orderkey, sum(l_partkey) as sum_partkey,
        sum(l_suppkey) as sum_suppkey, sum(l_linenumber) as sum_linenumber,
        sum(round(l_quantity * 100)) as quantity_cents, sum(round(l_extendedprice * 100)) as price_cents,
        sum(round(l_discount * 100)) as discount_cents, sum(round(l_tax * 100)) as tax_cents,
        min(l_returnflag) || max(l_returnflag) as returnflags, min(l_linestatus) || max(l_linestatus) as linestatuses,
        max(l_shipdate) as max_shipdate, max(l_commitdate) as max_commitdate, min(l_receiptdate) as min_receiptdate,
        max(l_shipinstruct) as max_shipinstruct, min(l_shipmode) as min_shipmode,
        sum(char_length(l_comment)) as comment_chars
      from %s""";

  private final DrillSession session;
  private final PrintStream out;

  private DrillDemo(Connection connection, PrintStream out) {
    this.session = new DrillSession(connection);
    this.out = out;
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: DrillDemo FILE.parquet [--repeat N]");
      System.exit(2);
    }
    Path file = Paths.get(args[0]).toAbsolutePath();
    int repeat = args.length >= 3 && args[1].equals("--repeat") ? Integer.parseInt(args[2]) : 2;
    if (!Files.isRegularFile(file)) {
      System.err.println("DrillDemo: no such file " + file);
      System.exit(2);
    }
    System.out.println("== starting an embedded drillbit (jdbc:drill:zk=local)");
    try (Connection connection = DriverManager.getConnection("jdbc:drill:zk=local")) {
      boolean same = new DrillDemo(connection, System.out).run(file, repeat);
      System.exit(same ? 0 : 1);
    }
  }

  /** Runs the query through both formats; true when the answers are equal. */
  private boolean run(Path file, int repeat) throws Exception {
    session.execute("alter session set `exec.query_profile.debug_mode` = true"); // profiles written before the answer
    out.println("== planner.width.max_per_node = " + session.single("select val from sys.options where name = "
        + "'planner.width.max_per_node'") + " (0: Drill's default, 70% of the cores)"
        + ", drill.exec.scan.decode_threadpool_size = "
        + session.single("select num_val from sys.boot where name = 'drill.exec.scan.decode_threadpool_size'"));
    // conf/storage-plugins-override.conf turns the switch on: a plain dfs query reads through ours.
    String parquetTable = "table(dfs.`" + file + "`(type => 'parquet'))";
    String turboTable = "dfs.`" + file + "`";
    out.println("== the query (%s is " + parquetTable + " for Drill's reader, " + turboTable + " for ours)");
    out.println(QUERY);
    DrillSession.Run drill = null;
    DrillSession.Run turbo = null;
    for (int i = 1; i <= repeat; i++) {
      drill = session.timed(String.format(Locale.ROOT, QUERY, parquetTable));
      out.printf(Locale.ROOT, "   run %d  parquet       %8.3f s%n", i, drill.seconds());
      turbo = session.timed(String.format(Locale.ROOT, QUERY, turboTable));
      out.printf(Locale.ROOT, "   run %d  turbo-parquet %8.3f s%n", i, turbo.seconds());
    }
    printAnswers(drill, turbo);
    boolean same = drill.answer().equals(turbo.answer());
    out.println(same ? "== the answers are EQUAL" : "== the answers DIFFER");
    printScans(ScanProfile.of(session.profile(drill.queryId()), DRILL_SCAN),
        ScanProfile.of(session.profile(turbo.queryId()), TURBO_SCAN));
    return same;
  }

  private void printAnswers(DrillSession.Run drill, DrillSession.Run turbo) {
    out.println("== answers (last run)");
    out.printf("   %-18s %-28s %-28s%n", "column", "parquet", "turbo-parquet");
    for (int c = 0; c < drill.columns().size(); c++) {
      String a = drill.answer().get(c);
      String b = turbo.answer().get(c);
      out.printf("   %-18s %-28s %-28s%s%n", drill.columns().get(c), a, b, a == null ? b == null ? "" : "  <>"
          : a.equals(b) ? "" : "  <>");
    }
  }

  private void printScans(ScanProfile drill, ScanProfile turbo) {
    out.println("== scan operators from the query profiles (summed over " + drill.operators() + " / "
        + turbo.operators() + " scan operators)");
    out.printf("   %-32s %16s %16s%n", "", drill.operatorType(), turbo.operatorType());
    out.printf(Locale.ROOT, "   %-32s %16.1f %16.1f%n", "operator process time (ms)", drill.processNanos() / 1e6,
        turbo.processNanos() / 1e6);
    out.printf(Locale.ROOT, "   %-32s %16.1f %16.1f%n", "operator wait time (ms)", drill.waitNanos() / 1e6,
        turbo.waitNanos() / 1e6);
    if (turbo.processNanos() > 0) {
      out.printf(Locale.ROOT, "   %-32s %16s %15.2fx%n", "process time ratio", "", (double) drill.processNanos()
          / turbo.processNanos());
    }
    Set<String> names = new TreeSet<>(drill.metrics().keySet());
    names.addAll(turbo.metrics().keySet());
    for (String name : names) {
      out.printf("   %-32s %16s %16s%n", name, value(drill, name), value(turbo, name));
    }
  }

  /** Drill records times (TIME_*) in nanoseconds: shown in milliseconds. */
  private static String value(ScanProfile scan, String name) {
    Long v = scan.metrics().get(name);
    if (v == null) {
      return "-";
    }
    return name.startsWith("TIME_") ? String.format(Locale.ROOT, "%.1f ms", v / 1e6) : v.toString();
  }
}
