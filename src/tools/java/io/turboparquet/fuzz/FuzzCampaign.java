package io.turboparquet.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Runs fuzz cases in this JVM: case {@code i} of campaign seed {@code S} is {@link FuzzCase#draw},
 * every outcome is counted, and each failing case is minimized and written as a {@link Reproducer}.
 */
public final class FuzzCampaign implements AutoCloseable {
  /** Most runs the minimizer spends on one failing case. */
  static final int MINIMIZE_RUNS = 300;
  /**
   * Most time the minimizer spends on one failing case: a case whose every run is slow (a page
   * that really decompresses to a GiB) is written as it is once this is spent, so that the
   * campaign goes on (a worker JVM silent longer than the case timeout and 30 s is killed).
   */
  static final long MINIMIZE_NANOS = 10_000_000_000L;

  /** What to report as cases go by. */
  public interface Listener {
    default void begin(long index, FuzzCase c) {}

    default void result(long index, FuzzCase c, CaseResult r) {}

    default void reproducer(long index, Path file) {}
  }

  private final List<SeedFile> seeds;
  private final Map<String, SeedFile> byName = new LinkedHashMap<>();
  private final FuzzRunner runner;
  private final Path out;
  private final Map<Outcome, Long> counts = new EnumMap<>(Outcome.class);
  /** Failures already written as reproducers: one reproducer per kind of failure is enough. */
  private final Set<String> signatures = new HashSet<>();

  /** A campaign over {@code seeds}, writing reproducers to {@code out}, each case under {@code timeoutMillis}. */
  public FuzzCampaign(List<SeedFile> seeds, Path out, long timeoutMillis) {
    if (seeds.isEmpty()) {
      throw new IllegalArgumentException("no seed files");
    }
    this.seeds = List.copyOf(seeds);
    seeds.forEach(s -> byName.put(s.name(), s));
    this.out = out;
    this.runner = new FuzzRunner(out.resolve("work"), timeoutMillis);
  }

  public List<SeedFile> seeds() {
    return seeds;
  }

  public SeedFile seed(String name) {
    SeedFile s = byName.get(name);
    if (s == null) {
      throw new IllegalArgumentException("no seed file " + name);
    }
    return s;
  }

  /**
   * Runs cases {@code from, from + 1, ...} until {@code to} (exclusive), {@code deadlineNanos}
   * ({@link System#nanoTime}) or, with {@code stopOnFatal}, a hang (its threads may still be
   * running) or an OOM (after which the JVM may not be sound). Returns the next case index.
   */
  public long run(long campaignSeed, long from, long to, long deadlineNanos, boolean stopOnFatal, Listener listener) {
    long i = from;
    while (i < to && System.nanoTime() < deadlineNanos) {
      FuzzCase c = FuzzCase.draw(campaignSeed, i, seeds);
      listener.begin(i, c);
      byte[] bytes = c.mutate(seed(c.seedFile()));
      CaseResult r = runner.run(c.fileName(), bytes, c.readMode(), seed(c.seedFile()).bytes());
      record(r.outcome());
      listener.result(i, c, r);
      if (r.outcome().isFailure() && signatures.add(signature(c, r))) {
        listener.reproducer(i, writeReproducer(c, bytes, r, r.outcome() != Outcome.HANG));
      }
      i++;
      if (stopOnFatal && (r.outcome() == Outcome.HANG || r.outcome() == Outcome.OOM)) {
        break;
      }
    }
    return i;
  }

  /** Runs one case's bytes (a reproducer's, say) in a read mode. */
  public CaseResult run(String fileName, byte[] bytes, ReadMode mode) {
    return runner.run(fileName, bytes, mode);
  }

  /**
   * Writes a failing case as a reproducer, minimized first (not for hangs: every run would take the
   * timeout) while the same failure persists.
   */
  public Path writeReproducer(FuzzCase c, byte[] bytes, CaseResult r, boolean minimize) {
    byte[] minimal = bytes;
    if (minimize) {
      String key = failureKey(r);
      long stop = System.nanoTime() + MINIMIZE_NANOS;
      minimal = Minimizer.minimize(seed(c.seedFile()).bytes(), bytes,
          candidate -> System.nanoTime() < stop && failureKey(runner.run(c.fileName(), candidate, c.readMode(),
              seed(c.seedFile()).bytes())).equals(key), MINIMIZE_RUNS);
      if (!Arrays.equals(minimal, bytes)) {
        CaseResult again = runner.run(c.fileName(), minimal, c.readMode(), seed(c.seedFile()).bytes());
        r = failureKey(again).equals(key) ? again : r;
      }
    }
    String name = c.fileName().replace(".parquet", "") + "-" + r.outcome();
    try {
      return new Reproducer(name, c, c.readMode(), r, minimal).write(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** What "the same failure" means while minimizing: the outcome and, for exceptions, the exception type. */
  static String failureKey(CaseResult r) {
    if (r.outcome() == Outcome.RAW_EXCEPTION || r.outcome() == Outcome.OOM) {
      String h = r.headline();
      int colon = h.indexOf(':');
      return r.outcome() + " " + (colon < 0 ? h : h.substring(0, colon));
    }
    return r.outcome().name();
  }

  /**
   * A failure's kind, so that one reproducer per kind is written: for exceptions the type and the
   * first two frames {@link CaseResult#describe} lists (the core's own, without line numbers); for a broken batch the broken rule with numbers blotted
   * out; for wrong values the strategy and whether the value counts differ too; else the outcome
   * and the strategy.
   */
  static String signature(FuzzCase c, CaseResult r) {
    String[] lines = r.detail().split("\n");
    return switch (r.outcome()) {
      case RAW_EXCEPTION, OOM -> {
        StringBuilder b = new StringBuilder(failureKey(r));
        for (int i = 1; i < Math.min(3, lines.length); i++) {
          b.append(' ').append(lines[i].trim().replaceAll("\\(.*\\)", "")); // frames without line numbers
        }
        yield b.toString();
      }
      case BROKEN_BATCH -> {
        String rule = lines[0].replaceAll(" \\(ReadMode\\[.*\\]\\)$", "");
        yield r.outcome() + " " + rule.substring(rule.indexOf(": ") + 2).replaceAll("\\d+", "#");
      }
      case WRONG_VALUES -> {
        String[] w = lines[0].split("\t|parquet-java ");
        boolean sameCounts = w.length >= 10 && w[2].equals(w[7]) && w[3].equals(w[8]);
        yield r.outcome() + " " + c.strategy() + (sameCounts ? " same counts" : " other counts");
      }
      default -> r.outcome() + " " + c.strategy();
    };
  }

  void record(Outcome o) {
    counts.merge(o, 1L, Long::sum);
  }

  public Map<Outcome, Long> counts() {
    return new EnumMap<>(counts);
  }

  /** {@code cases N: ACCEPTED a, CORRUPTION b, ...} over the outcomes seen. */
  public static String summary(Map<Outcome, Long> counts) {
    long total = counts.values().stream().mapToLong(Long::longValue).sum();
    StringBuilder b = new StringBuilder("cases ").append(total).append(':');
    counts.forEach((o, n) -> b.append(' ').append(o).append(' ').append(n));
    return b.toString();
  }

  public static long failures(Map<Outcome, Long> counts) {
    return counts.entrySet().stream().filter(e -> e.getKey().isFailure()).mapToLong(Map.Entry::getValue).sum();
  }

  /** Seeds of every corpus directory (named by the directory) plus the generated ones under {@code generated}. */
  public static List<SeedFile> seeds(List<Path> corpora, Path generated, Function<Path, String> prefix) {
    List<SeedFile> all = new java.util.ArrayList<>();
    for (Path dir : corpora) {
      all.addAll(SeedFiles.load(dir, prefix.apply(dir)));
    }
    if (generated != null) {
      all.addAll(SeedFiles.load(generated, "generated"));
    }
    return all;
  }

  @Override
  public void close() {
    runner.close();
  }
}
