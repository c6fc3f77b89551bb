package io.turboparquet.fuzz;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * A campaign whose cases run in a child JVM ({@link FuzzWorker}) with small heap and direct-memory
 * caps, so that a case that crashes the JVM (SIGSEGV), exhausts memory or hangs is recorded and the
 * campaign goes on in a new child from the next case. A crashing case's reproducer is written
 * unminimized (each minimization run could crash too).
 */
public final class ChildProcessCampaign {
  /**
   * The child's caps: hostile sizes must fail cleanly within them. No -XX:+ExitOnOutOfMemoryError:
   * parquet-java, the oracle, allocates from hostile headers too, and its OOM must not be blamed on
   * the core; every OOM is caught per case instead, with the stack that says whose it is.
   */
  static final List<String> CHILD_JVM_FLAGS = List.of("-Xmx512m", "-XX:MaxDirectMemorySize=512m",
      "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/java.lang=ALL-UNNAMED",
      "-Dio.netty.tryReflectionSetAccessible=true");
  private static final long PROGRESS_NANOS = 10_000_000_000L;

  private final long seed;
  private final long cases;
  private final long seconds;
  private final Path out;
  private final long timeoutMillis;
  private final Path generated;
  private final List<Path> corpora;
  private final Map<Outcome, Long> counts = new EnumMap<>(Outcome.class);
  private final List<String> failures = new ArrayList<>();

  public ChildProcessCampaign(long seed, long cases, long seconds, Path out, long timeoutMillis, Path generated,
      List<Path> corpora) {
    this.seed = seed;
    this.cases = cases;
    this.seconds = seconds;
    this.out = out;
    this.timeoutMillis = timeoutMillis;
    this.generated = generated;
    this.corpora = List.copyOf(corpora);
  }

  /** A seed file's name prefix: its corpus directory's name. */
  static String prefix(Path corpus) {
    return corpus.toAbsolutePath().normalize().getFileName().toString();
  }

  /** Runs the campaign, logging progress to {@code log}; returns the per-outcome counts. */
  public Map<Outcome, Long> run(PrintStream log) throws IOException, InterruptedException {
    long start = System.nanoTime();
    long deadline = start + seconds * 1_000_000_000L;
    long next = 0;
    long lastProgress = start;
    try (FuzzCampaign local = new FuzzCampaign(FuzzCampaign.seeds(corpora, generated, ChildProcessCampaign::prefix),
        out, timeoutMillis)) {
      log.println("fuzz: " + local.seeds().size() + " seed files, seed " + seed + ", reproducers in " + out);
      while (next < cases && System.nanoTime() < deadline) {
        long remainingMillis = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
        Process child = start(next, remainingMillis);
        // A child outliving this JVM (killed, interrupted) would go on fuzzing unseen.
        Thread reaper = new Thread(child::destroyForcibly, "fuzz-child-reaper");
        Runtime.getRuntime().addShutdownHook(reaper);
        Watchdog watchdog = new Watchdog(child, timeoutMillis + 30_000);
        watchdog.start();
        long begun = -1;
        long done = -1;
        CaseResult lastResult = null; // of case `done`
        Deque<String> other = new ArrayDeque<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(),
            StandardCharsets.UTF_8))) {
          String line;
          while ((line = in.readLine()) != null) {
            watchdog.alive();
            String[] w = line.split(" ", 4);
            switch (w[0]) {
              case "BEGIN" -> begun = Long.parseLong(w[1]);
              case "RESULT" -> {
                done = Long.parseLong(w[1]);
                Outcome o = Outcome.valueOf(w[2]);
                lastResult = new CaseResult(o, w.length > 3 ? w[3] : "");
                counts.merge(o, 1L, Long::sum);
                if (o.isFailure()) {
                  String f = "case " + done + " " + FuzzCase.draw(seed, done, local.seeds()) + ": " + o + " "
                      + (w.length > 3 ? w[3] : "");
                  failures.add(f);
                  log.println("fuzz: " + f);
                }
              }
              case "REPRO" -> log.println("fuzz: reproducer " + w[2]);
              case "END" -> { }
              default -> {
                other.addLast(line); // e.g. HotSpot's crash report
                if (other.size() > 12) {
                  other.removeFirst();
                }
              }
            }
            if (System.nanoTime() - lastProgress > PROGRESS_NANOS) {
              lastProgress = System.nanoTime();
              log.println("fuzz: " + (lastProgress - start) / 1_000_000_000 + " s " + FuzzCampaign.summary(counts));
            }
          }
        }
        int status = child.waitFor();
        watchdog.interrupt();
        Runtime.getRuntime().removeShutdownHook(reaper);
        if (begun > done) {
          // The child died (or was killed) inside case `begun`.
          Outcome o = watchdog.killed ? Outcome.HANG : Outcome.CRASH;
          CaseResult r = new CaseResult(o, "child JVM " + (watchdog.killed ? "killed after no output for "
              + watchdog.limitMillis + " ms" : "exited with status " + status) + ": " + String.join(" | ", other));
          FuzzCase c = FuzzCase.draw(seed, begun, local.seeds());
          counts.merge(o, 1L, Long::sum);
          String f = "case " + begun + " " + c + ": " + o + " " + r.headline();
          failures.add(f);
          log.println("fuzz: " + f);
          writeUnminimized(local, begun, r, "", log);
          next = begun + 1;
        } else if (status != 0 && watchdog.killed && done >= 0 && done == begun && lastResult.outcome().isFailure()) {
          // Killed after a failing case's result, while minimizing it: the failure is counted; its
          // reproducer is written here, unminimized, and the campaign goes on with the next case.
          writeUnminimized(local, done, lastResult, " (not minimized: the worker went silent minimizing it)", log);
          next = done + 1;
        } else if (status != 0) {
          throw new IOException("fuzz worker exited with status " + status + " outside any case: "
              + String.join(" | ", other));
        } else {
          next = done + 1;
        }
      }
    }
    log.println("fuzz: done in " + (System.nanoTime() - start) / 1_000_000_000 + " s, " + FuzzCampaign.summary(counts));
    return new EnumMap<>(counts);
  }

  /** Writes case {@code index}'s reproducer as the case made it, without minimizing it here. */
  private void writeUnminimized(FuzzCampaign local, long index, CaseResult r, String note, PrintStream log) {
    FuzzCase c = FuzzCase.draw(seed, index, local.seeds());
    log.println("fuzz: reproducer " + local.writeReproducer(c, c.mutate(local.seed(c.seedFile())), r, false) + note);
  }

  public List<String> failures() {
    return failures;
  }

  private Process start(long from, long remainingMillis) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(CHILD_JVM_FLAGS);
    cmd.add("-XX:ErrorFile=" + out.toAbsolutePath().resolve("hs_err_pid%p.log"));
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(FuzzWorker.class.getName());
    cmd.add(Long.toString(seed));
    cmd.add(Long.toString(from));
    cmd.add(Long.toString(cases));
    cmd.add(Long.toString(remainingMillis));
    cmd.add(out.toString());
    cmd.add(Long.toString(timeoutMillis));
    cmd.add(generated.toString());
    corpora.forEach(c -> cmd.add(c.toString()));
    Files.createDirectories(out);
    return new ProcessBuilder(cmd)
        .redirectError(ProcessBuilder.Redirect.appendTo(out.resolve("worker-stderr.log").toFile()))
        .start();
  }

  /** Kills the child when it has printed nothing for longer than a case may take (a hang its own timeout missed). */
  private static final class Watchdog extends Thread {
    private final Process child;
    private final long limitMillis;
    private volatile long last = System.nanoTime();
    private volatile boolean killed;

    Watchdog(Process child, long limitMillis) {
      super("fuzz-watchdog");
      setDaemon(true);
      this.child = child;
      this.limitMillis = limitMillis;
    }

    void alive() {
      last = System.nanoTime();
    }

    @Override
    public void run() {
      try {
        while (child.isAlive()) {
          Thread.sleep(1000);
          if ((System.nanoTime() - last) / 1_000_000 > limitMillis) {
            killed = true;
            child.destroyForcibly();
            return;
          }
        }
      } catch (InterruptedException e) {
        // the child ended
      }
    }
  }
}
