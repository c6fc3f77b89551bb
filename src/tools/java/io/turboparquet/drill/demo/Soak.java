package io.turboparquet.drill.demo;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * The soak: N JDBC clients against one drillbit in its own JVM ({@link SoakDrillbit}), each
 * running a seeded mix of queries over {@link SoakFiles} through one reader (turbo-parquet or
 * Drill's built-in {@code parquet}) for a while, about one query in {@code cancelOneIn} cancelled
 * mid-flight with {@link Statement#cancel()}. Used by SoakDrillTest (short, asserts the
 * {@link Report}) and by {@code bin/drill soak} ({@link #main}: both readers, minutes, figures).
 *
 * <p>Memory: Drill's root allocator gauges over JMX, {@code drill.allocator.root.peak} (exact,
 * every buffer a reader or an operator takes from Drill's allocators, since the drillbit started)
 * and {@code drill.allocator.root.used} (sampled every 50 ms: the baseline before the load and
 * after it), and the JVM's direct buffer pool (sampled).
 */
public final class Soak {
  /** The query kinds of the mix. */
  public enum Kind { AGGREGATE, FILTER, LIMIT, WIDE, NESTED, CORRUPT }

  /**
   * What to run. {@code variants}: at most this many queries of each kind (the mix has 2-8; fewer
   * make a shorter warm-up). {@code load}: the clients run queries at least this long, and on past it
   * (up to 4 times as long) until every kind has ended once and one query was cancelled.
   * {@code loadThreads} busy threads in this JVM compete with the drillbit for CPU. {@code pinned}:
   * each client runs only the kind it starts with (client i the i-th kind, round the kinds), so
   * the same kinds run side by side through either reader; otherwise each query's kind is random,
   * and a reader faster at some kinds spends more of the clients' time in the others. {@code kinds}:
   * the kinds of the mix (all, or a few to see what one kind holds).
   */
  public record Settings(String reader, int clients, Duration load, long seed, int cancelOneIn, int variants,
      int loadThreads, boolean pinned, List<Kind> kinds) {
    public Settings(String reader, int clients, Duration load, long seed, int cancelOneIn, int variants,
        int loadThreads, boolean pinned) {
      this(reader, clients, load, seed, cancelOneIn, variants, loadThreads, pinned, List.of(Kind.values()));
    }
  }

  /** One query of the mix; a corrupt one must fail, naming its file. */
  record Query(Kind kind, String sql, String mustFailNaming) {
  }

  /** Per kind: latencies (ms) of queries that ran to their end, and how the others ended. */
  public static final class KindStats {
    final List<Double> millis = new ArrayList<>();
    public int answered;
    public int failedAsExpected;
    public int cancelled;

    public int completed() {
      return answered + failedAsExpected;
    }

    public double percentile(double p) {
      if (millis.isEmpty()) {
        return Double.NaN;
      }
      List<Double> sorted = new ArrayList<>(millis);
      sorted.sort(null);
      return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100 * sorted.size()) - 1));
    }
  }

  /**
   * The outcome. {@code unexpected}: errors of queries that should have answered, answers that differ
   * from the first answer of the same query, corrupt files read without an error, errors of corrupt
   * files that are not DATA_READ errors naming the file ({@code uncleanCorrupt}, kept apart as Drill's
   * built-in reader has some). Memory in bytes.
   */
  public record Report(String reader, Settings settings, double loadSeconds, Map<Kind, KindStats> kinds,
      List<String> unexpected, List<String> uncleanCorrupt, int distinctQueries, long baseline, long after,
      long rootPeak, long sampledRootPeak, long rootUsedP50, long rootUsedP95, long jvmDirectPeak,
      String otherAllocatorPeaks, boolean answersAfterwards) {
    public int completed() {
      return kinds.values().stream().mapToInt(KindStats::completed).sum();
    }

    public int cancelled() {
      return kinds.values().stream().mapToInt(k -> k.cancelled).sum();
    }

    public double perMinute() {
      return completed() * 60 / loadSeconds;
    }

    public String summary() {
      StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
          "%s: %d clients, %.0f s: %d queries completed (%.0f/min), %d cancelled mid-flight, %d distinct queries%n",
          reader, settings.clients(), loadSeconds, completed(), perMinute(), cancelled(), distinctQueries));
      kinds.forEach((kind, s) -> b.append(String.format(Locale.ROOT,
          "  %-9s answered %5d  failed as expected %4d  cancelled %4d  p50 %7.0f ms  p95 %7.0f ms%n",
          kind, s.answered, s.failedAsExpected, s.cancelled, s.percentile(50), s.percentile(95))));
      b.append(String.format(Locale.ROOT,
          "  root allocator: baseline %d B, after %d B, peak %.0f MiB (sampled %.0f MiB; p50 %.0f, p95 %.0f MiB);"
              + " JVM direct pool peak %.0f MiB%n",
          baseline, after, rootPeak / 1048576.0, sampledRootPeak / 1048576.0, rootUsedP50 / 1048576.0,
          rootUsedP95 / 1048576.0, jvmDirectPeak / 1048576.0));
      b.append("  other allocators' sampled peaks: ").append(otherAllocatorPeaks).append('\n');
      b.append("  answers afterwards: ").append(answersAfterwards).append('\n');
      b.append("  unexpected: ").append(unexpected.size()).append(unexpected.isEmpty() ? "" : " " + unexpected.subList(0,
          Math.min(5, unexpected.size()))).append('\n');
      b.append("  corrupt files failing without a clean error: ").append(uncleanCorrupt.size())
          .append(uncleanCorrupt.isEmpty() ? "" : " " + uncleanCorrupt.subList(0, Math.min(3, uncleanCorrupt.size())));
      return b.toString();
    }
  }

  private Soak() {
  }

  /** The mix over {@code files} through {@code reader}: a few variants of each kind, so queries repeat. */
  static List<Query> mix(SoakFiles files, String reader) {
    String facts = table(files.facts(), reader);
    long rows = files.factRows;
    List<Query> mix = new ArrayList<>();
    for (int v = 0; v < 4; v++) {
      mix.add(new Query(Kind.AGGREGATE, "select mod(k, " + (5 + v) + ") as g, count(*) as n, count(q) as nq, sum(q) as sq, "
          + "min(price) as lo, max(price) as hi, min(s) as smin, max(s) as smax, max(dt) as dmax from " + facts
          + " group by mod(k, " + (5 + v) + ") order by g", null));
    }
    for (int v = 0; v < 8; v++) {
      long from = rows * v / 8 + v * 977L;
      mix.add(new Query(Kind.FILTER, "select count(*) as n, sum(q) as sq, min(s) as smin, max(price) as hi from " + facts
          + " where id between " + from + " and " + (from + rows / 200), null));
    }
    for (int v = 0; v < 4; v++) {
      mix.add(new Query(Kind.LIMIT, v % 2 == 0 ? "select * from " + facts + " limit " + (50 + v * 100)
          : "select id, s, price from " + facts + " where s = '" + SoakFiles.WORDS[v] + "' limit 100", null));
    }
    StringBuilder wideSums = new StringBuilder("count(*) as n");
    for (int c = 0; c < SoakFiles.WIDE_COLUMNS; c++) {
      wideSums.append(", sum(c").append(c).append(')');
    }
    for (int v = 0; v < 3; v++) {
      mix.add(new Query(Kind.WIDE, "select " + wideSums + " from " + table(files.wide(), reader) + " where mod(id, 3) <> "
          + v, null));
    }
    for (int v = 0; v < 4; v++) {
      mix.add(new Query(Kind.NESTED, "select count(*) as n, sum(t.point.x) as sx, max(t.point.y) as my, "
          + "sum(repeated_count(t.vals)) as nv from " + table(files.nested(), reader) + " t where mod(t.id, 4) = " + v,
          null));
    }
    mix.add(new Query(Kind.CORRUPT, "select * from " + table(files.truncated(), reader),
        files.truncated().getFileName().toString()));
    mix.add(new Query(Kind.CORRUPT, "select count(*), sum(q), max(s) from " + table(files.badPageHeader(), reader),
        files.badPageHeader().getFileName().toString()));
    return mix;
  }

  /** {@code reader} is a format type, optionally with format properties: {@code turbo-parquet:memoryBudget=N}. */
  private static String table(Path file, String reader) {
    String[] parts = reader.split(":", 2);
    String properties = parts.length == 1 ? "" : ", " + parts[1].replace("=", " => ");
    return "table(dfs.`" + file.toAbsolutePath() + "`(type => '" + parts[0] + "'" + properties + "))";
  }

  /** Picks one of {@code kinds} uniformly (corrupt files a little less often), then one of its variants. */
  private static Query pick(List<Query> mix, List<Kind> kinds, Random random) {
    List<Kind> others = kinds.stream().filter(k -> k != Kind.CORRUPT).toList();
    Kind kind = others.isEmpty() || (kinds.contains(Kind.CORRUPT) && random.nextInt(20) == 0) ? Kind.CORRUPT
        : others.get(random.nextInt(others.size()));
    return pick(mix, kind, random);
  }

  /** One of the mix's queries of {@code kind}. */
  private static Query pick(List<Query> mix, Kind kind, Random random) {
    List<Query> of = mix.stream().filter(q -> q.kind() == kind).toList();
    return of.get(random.nextInt(of.size()));
  }

  /** Runs the soak against a started drillbit. */
  public static Report run(Settings settings, SoakFiles files, SoakDrillbit drillbit) throws Exception {
    String url = "jdbc:drill:drillbit=127.0.0.1:" + drillbit.userPort;
    Map<Kind, Integer> taken = new EnumMap<>(Kind.class);
    List<Query> mix = mix(files, settings.reader()).stream().filter(q -> settings.kinds().contains(q.kind()))
        .filter(q -> taken.merge(q.kind(), 1, Integer::sum) <= settings.variants()).toList();
    Map<String, String> firstAnswers = new ConcurrentHashMap<>();
    ConcurrentLinkedQueue<String> unexpected = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<String> uncleanCorrupt = new ConcurrentLinkedQueue<>();
    Map<Kind, KindStats> kinds = new EnumMap<>(Kind.class);
    for (Kind kind : settings.kinds()) {
      kinds.put(kind, new KindStats());
    }
    try (JMXConnector jmx = JMXConnectorFactory.connect(new JMXServiceURL(
        "service:jmx:rmi:///jndi/rmi://127.0.0.1:" + drillbit.jmxPort + "/jmxrmi"))) {
      Memory memory = new Memory(jmx.getMBeanServerConnection());
      // One run of every query, one at a time, before the clock starts: each query's first answer
      // comes from a drillbit without concurrent load, and Drill compiles each query's code now. It
      // must: in Drill 1.22 a cancel that interrupts a fragment while javac reads Drill's jar closes
      // the compiler's shared channel to it, and queries compiling beside it fail ("Code generation
      // error", ClosedByInterruptException), whichever the reader.
      try (Connection first = DriverManager.getConnection(url)) {
        for (Query query : mix) {
          Outcome o = execute(first, query, null);
          check(query, o, firstAnswers, unexpected, uncleanCorrupt);
        }
      }
      long baseline = memory.settledRootUsed(-1);
      AtomicBoolean stop = new AtomicBoolean();
      List<Thread> busy = new ArrayList<>();
      for (int i = 0; i < settings.loadThreads(); i++) {
        Thread t = new Thread(() -> {
          long x = 1;
          while (!stop.get()) {
            x = x * 6364136223846793005L + 1442695040888963407L;
          }
          if (x == 42) {
            System.out.print("");
          }
        }, "soak-cpu-load-" + i);
        t.setDaemon(true);
        t.start();
        busy.add(t);
      }
      ScheduledExecutorService cancels = Executors.newScheduledThreadPool(1);
      ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
      sampler.scheduleAtFixedRate(memory::sample, 0, 50, TimeUnit.MILLISECONDS);
      long start = System.nanoTime();
      long end = start + settings.load().toNanos();
      // Past the load's duration, until the mix has been seen whole (a slow or busy machine runs fewer queries).
      long limit = start + 4 * settings.load().toNanos();
      List<Thread> clients = new ArrayList<>();
      for (int c = 0; c < settings.clients(); c++) {
        int client = c;
        Random random = new Random(settings.seed() * 1_000_003L + c);
        Thread t = new Thread(() -> {
          try (Connection connection = DriverManager.getConnection(url)) {
            // Each client's first query is of kind (client mod kinds), not cancelled: with as many
            // clients as kinds, every kind starts under the load however few queries it leaves time for.
            Kind firstKind = settings.kinds().get(client % settings.kinds().size());
            Query query = mix.stream().filter(q -> q.kind() == firstKind).findFirst().orElseThrow();
            long cancelAfter = -1;
            while (System.nanoTime() < end || (System.nanoTime() < limit && !seenWhole(kinds))) {
              Outcome o = execute(connection, query, cancelAfter < 0 ? null : new Canceller(cancels, cancelAfter));
              KindStats stats = kinds.get(query.kind());
              synchronized (stats) {
                if (o.cancelled()) {
                  stats.cancelled++;
                } else {
                  stats.millis.add(o.millis());
                  if (o.error() == null) {
                    stats.answered++;
                  } else if (query.mustFailNaming() != null) {
                    stats.failedAsExpected++;
                  }
                }
              }
              if (!o.cancelled()) {
                check(query, o, firstAnswers, unexpected, uncleanCorrupt);
              }
              query = settings.pinned() ? pick(mix, firstKind, random) : pick(mix, settings.kinds(), random);
              cancelAfter = random.nextInt(settings.cancelOneIn()) == 0 ? 5 + random.nextInt(400) : -1;
            }
          } catch (Exception e) {
            unexpected.add("client: " + e);
          }
        }, "soak-client-" + c);
        t.start();
        clients.add(t);
      }
      for (Thread t : clients) {
        t.join();
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      memory.recording = false;
      stop.set(true);
      for (Thread t : busy) {
        t.join();
      }
      cancels.shutdownNow();
      long after = memory.settledRootUsed(baseline);
      sampler.shutdownNow();
      sampler.awaitTermination(10, TimeUnit.SECONDS);
      memory.sample();
      boolean answers = drillbit.isAlive();
      if (answers) {
        try (Connection last = DriverManager.getConnection(url)) {
          Query again = mix.stream().filter(q -> firstAnswers.containsKey(q.sql())).findFirst().orElse(mix.get(0));
          Outcome o = execute(last, again, null);
          answers = o.error() == null && o.answer().equals(firstAnswers.get(again.sql()));
        }
      }
      return new Report(settings.reader(), settings, seconds, kinds, List.copyOf(unexpected), List.copyOf(uncleanCorrupt),
          firstAnswers.size(), baseline, after, memory.rootPeak(), memory.sampledRootPeak.get(),
          memory.usedPercentile(50), memory.usedPercentile(95),
          memory.jvmDirectPeak.get(), memory.otherPeaks(), answers);
    }
  }

  /** Whether every kind has ended once under load (answered; a corrupt one failed) and one query was cancelled. */
  private static boolean seenWhole(Map<Kind, KindStats> kinds) {
    boolean cancelled = false;
    for (Map.Entry<Kind, KindStats> e : kinds.entrySet()) {
      KindStats stats = e.getValue();
      synchronized (stats) {
        if ((e.getKey() == Kind.CORRUPT ? stats.failedAsExpected : stats.answered) == 0) {
          return false;
        }
        cancelled |= stats.cancelled > 0;
      }
    }
    return cancelled;
  }

  /** Checks an ended query against the first answer of the same query, or against its expected error. */
  private static void check(Query query, Outcome o, Map<String, String> firstAnswers,
      ConcurrentLinkedQueue<String> unexpected, ConcurrentLinkedQueue<String> uncleanCorrupt) {
    if (query.mustFailNaming() != null) {
      if (o.error() == null) {
        unexpected.add("read without an error: " + query.sql());
      } else if (!o.error().contains("DATA_READ ERROR") || !o.error().contains(query.mustFailNaming())) {
        uncleanCorrupt.add(firstLine(o.error()));
      }
      return;
    }
    if (o.error() != null) {
      unexpected.add(query.kind() + ": " + firstLine(o.error()) + " <- " + query.sql());
      return;
    }
    String first = firstAnswers.putIfAbsent(query.sql(), o.answer());
    if (first != null && !first.equals(o.answer())) {
      unexpected.add(query.kind() + ": answer " + abbreviate(o.answer()) + " differs from the first "
          + abbreviate(first) + " <- " + query.sql());
    }
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  private static String abbreviate(String s) {
    return s.length() <= 300 ? s : s.substring(0, 300) + "...";
  }

  /** How a query ended: its answer, or its error, or cancelled; and its wall time. */
  private record Outcome(String answer, String error, boolean cancelled, double millis) {
  }

  /** Cancels a statement a while after it starts, unless it ended first. */
  private static final class Canceller {
    private final ScheduledExecutorService scheduler;
    private final long afterMillis;
    private final AtomicBoolean fired = new AtomicBoolean();
    private ScheduledFuture<?> task;

    Canceller(ScheduledExecutorService scheduler, long afterMillis) {
      this.scheduler = scheduler;
      this.afterMillis = afterMillis;
    }

    void arm(Statement statement) {
      task = scheduler.schedule(() -> {
        fired.set(true);
        try {
          statement.cancel();
        } catch (SQLException e) {
          // the statement ended and closed meanwhile: nothing to cancel
        }
      }, afterMillis, TimeUnit.MILLISECONDS);
    }

    /** Whether the cancel was sent; after this no cancel is sent. */
    boolean disarm() {
      task.cancel(false);
      return fired.get();
    }
  }

  /**
   * Runs a query to its end and renders its answer: every row for most kinds; for LIMIT the column
   * names and the row count, as which rows a LIMIT returns is Drill's choice.
   */
  private static Outcome execute(Connection connection, Query query, Canceller canceller) {
    long start = System.nanoTime();
    String answer = null;
    String error = null;
    try (Statement statement = connection.createStatement()) {
      if (canceller != null) {
        canceller.arm(statement);
      }
      answer = read(statement, query);
    } catch (SQLException e) {
      error = String.valueOf(e.getMessage());
    }
    // A cancel sent counts as a cancel even if the answer was complete: it may have cut it short.
    if (canceller != null && canceller.disarm()) {
      return new Outcome(null, null, true, millisSince(start));
    }
    return new Outcome(answer, error, false, millisSince(start));
  }

  private static String read(Statement statement, Query query) throws SQLException {
    StringBuilder answer = new StringBuilder();
    try (ResultSet rs = statement.executeQuery(query.sql())) {
      ResultSetMetaData meta = rs.getMetaData();
      int columns = meta.getColumnCount();
      for (int c = 1; c <= columns; c++) {
        answer.append(meta.getColumnLabel(c)).append(c == columns ? "\n" : "\t");
      }
      long rows = 0;
      while (rs.next()) {
        rows++;
        if (query.kind() != Kind.LIMIT) {
          for (int c = 1; c <= columns; c++) {
            answer.append(rs.getString(c)).append(c == columns ? "\n" : "\t");
          }
        }
      }
      return answer.append(rows).append(" rows").toString();
    }
  }

  private static double millisSince(long start) {
    return (System.nanoTime() - start) / 1e6;
  }

  /** Drill's root allocator gauges and the JVM's direct buffer pool, over JMX. */
  private static final class Memory {
    private final MBeanServerConnection server;
    private final ObjectName used;
    private final ObjectName peak;
    private final ObjectName directPool;
    final AtomicLong sampledRootPeak = new AtomicLong();
    final AtomicLong jvmDirectPeak = new AtomicLong();
    /** The root allocator's memory every 50 ms while the clients run: the peak is one moment, these are all. */
    private final List<Long> usedSamples = java.util.Collections.synchronizedList(new ArrayList<>());
    volatile boolean recording = true;

    /** Drill's other allocator gauges ({@code drill.allocator.rpc.bit.data.used}, ...) and their sampled peaks. */
    private final Map<ObjectName, AtomicLong> others = new java.util.LinkedHashMap<>();

    Memory(MBeanServerConnection server) throws Exception {
      this.server = server;
      this.used = gauge(server, "drill.allocator.root.used");
      this.peak = gauge(server, "drill.allocator.root.peak");
      this.directPool = new ObjectName("java.nio:type=BufferPool,name=direct");
      for (ObjectName n : server.queryNames(new ObjectName("metrics:name=drill.allocator.*,*"), null)) {
        String name = n.getKeyProperty("name");
        if (name.endsWith(".used") && !n.equals(used)) {
          others.put(n, new AtomicLong());
        }
      }
    }

    /** The sampled peaks of Drill's other allocators, largest first. */
    String otherPeaks() {
      return others.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue().get(), a.getValue().get()))
          .map(e -> String.format(Locale.ROOT, "%s %.1f MiB", e.getKey().getKeyProperty("name"),
              e.getValue().get() / 1048576.0))
          .collect(java.util.stream.Collectors.joining(", "));
    }

    private static ObjectName gauge(MBeanServerConnection server, String name) throws Exception {
      var names = server.queryNames(new ObjectName("metrics:name=" + name + ",*"), null);
      if (names.size() != 1) {
        throw new IllegalStateException("JMX gauge " + name + ": " + names);
      }
      return names.iterator().next();
    }

    long rootUsed() throws Exception {
      return ((Number) server.getAttribute(used, "Value")).longValue();
    }

    long rootPeak() throws Exception {
      return ((Number) server.getAttribute(peak, "Value")).longValue();
    }

    /** The {@code p}-th percentile of the samples (nearest rank), 0 without any. */
    long usedPercentile(int p) {
      List<Long> sorted;
      synchronized (usedSamples) {
        sorted = usedSamples.stream().sorted().toList();
      }
      return sorted.isEmpty() ? 0 : sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
    }

    void sample() {
      try {
        for (Map.Entry<ObjectName, AtomicLong> e : others.entrySet()) {
          e.getValue().accumulateAndGet(((Number) server.getAttribute(e.getKey(), "Value")).longValue(), Math::max);
        }
        long now = rootUsed();
        if (recording) {
          usedSamples.add(now);
        }
        sampledRootPeak.accumulateAndGet(now, Math::max);
        jvmDirectPeak.accumulateAndGet(((Number) server.getAttribute(directPool, "MemoryUsed")).longValue(), Math::max);
      } catch (Exception e) {
        // the drillbit went away: the report's liveness check says so
      }
    }

    /**
     * The root allocator's memory once it holds still (the same for 1 s) or, given a baseline, once
     * it is back there; at most 30 s. Fragments close after their query's answer or error is sent.
     */
    long settledRootUsed(long baseline) throws Exception {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      long last = rootUsed();
      long stableSince = System.nanoTime();
      while (System.nanoTime() < deadline) {
        Thread.sleep(100); // polls the gauge: Drill signals nothing when its fragments have released
        long now = rootUsed();
        if (now == baseline) {
          return now;
        }
        if (now != last) {
          last = now;
          stableSince = System.nanoTime();
        } else if (baseline < 0 && System.nanoTime() - stableSince > TimeUnit.SECONDS.toNanos(1)) {
          return now;
        }
      }
      return last;
    }
  }

  /**
   * {@code bin/drill soak}: both readers on the same seeded mix, each in a drillbit of its own
   * (started from this JVM's classpath), one after the other; prints each report and a table.
   */
  public static void main(String[] args) throws Exception {
    int clients = 8;
    int seconds = 150;
    long seed = 37;
    int load = 0;
    int direct = 1024;
    boolean pinned = false;
    List<Kind> kinds = List.of(Kind.values());
    long rows = 2_000_000;
    Path data = Path.of("bench-data");
    List<String> readers = new ArrayList<>(List.of("parquet", "turbo-parquet"));
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--clients" -> clients = Integer.parseInt(args[++i]);
        case "--seconds" -> seconds = Integer.parseInt(args[++i]);
        case "--seed" -> seed = Long.parseLong(args[++i]);
        case "--load" -> load = Integer.parseInt(args[++i]);
        case "--direct-mib" -> direct = Integer.parseInt(args[++i]);
        case "--rows" -> rows = Long.parseLong(args[++i]);
        case "--data" -> data = Path.of(args[++i]);
        case "--readers" -> readers = List.of(args[++i].split(","));
        case "--pinned" -> pinned = true;
        case "--kinds" -> kinds = Arrays.stream(args[++i].split(","))
            .map(k -> Kind.valueOf(k.toUpperCase(Locale.ROOT))).toList();
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    SoakFiles files = SoakFiles.write(data, rows);
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> inherited = ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("--add-opens") || a.startsWith("-Dio.netty")).toList();
    String classpath = System.getProperty("java.class.path");
    List<Report> reports = new ArrayList<>();
    for (String reader : readers) {
      Settings settings = new Settings(reader, clients, Duration.ofSeconds(seconds), seed, 10, 8, load, pinned, kinds);
      System.err.printf("== %s %s: %s%n", Instant.now(), reader, settings);
      final int directMiB = direct;
      try (SoakDrillbit drillbit = SoakDrillbit.start((options, main) -> {
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(inherited);
        command.addAll(options);
        command.addAll(List.of("-cp", classpath, main));
        return command;
      }, directMiB, data.resolve("soak-" + reader + ".log"))) {
        Report report = run(settings, files, drillbit);
        System.out.println(report.summary());
        reports.add(report);
      }
    }
    System.out.println("| reader | queries/min | " + String.join(" | ",
        Arrays.stream(Kind.values()).map(k -> k.name().toLowerCase(Locale.ROOT) + " p50 / p95 ms").toList())
        + " | root allocator peak | root used p50 / p95 | JVM direct pool peak | unexpected |");
    for (Report r : reports) {
      StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "| %s | %.0f |", r.reader(), r.perMinute()));
      for (Kind k : Kind.values()) {
        KindStats s = r.kinds().get(k);
        row.append(s == null ? " - |" : String.format(Locale.ROOT, " %.0f / %.0f |", s.percentile(50), s.percentile(95)));
      }
      row.append(String.format(Locale.ROOT, " %.0f MiB | %.0f / %.0f MiB | %.0f MiB | %d |", r.rootPeak() / 1048576.0,
          r.rootUsedP50() / 1048576.0, r.rootUsedP95() / 1048576.0, r.jvmDirectPeak() / 1048576.0,
          r.unexpected().size()));
      System.out.println(row);
    }
    System.out.println("load average: " + String.format(Locale.ROOT, "%.2f",
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()));
  }
}
