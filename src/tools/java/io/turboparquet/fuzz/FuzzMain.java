package io.turboparquet.fuzz;

import io.turboparquet.cli.Args;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * {@code turbo-parquet fuzz}: the mutation fuzzer's command line ({@code bin/turbo-parquet} hands
 * the {@code fuzz} command here; the CLI itself knows nothing of the fuzzer). A campaign of
 * {@code --seconds} (and at most {@code --cases}) from {@code --seed}, each case in a child JVM
 * unless {@code --in-process}, reproducers of failing cases in {@code --out}; or {@code --replay}
 * of reproducers. Exit status 1 when a case fails, 2 on a usage error.
 */
public final class FuzzMain {
  private static final String USAGE = String.join("\n",
      "usage: turbo-parquet fuzz [--seconds N] [--seed S] [--cases N] [--out DIR] [--corpus DIR,DIR] [--timeout MS]",
      "                          [--in-process]",
      "       turbo-parquet fuzz --replay FILE.properties|DIR [--timeout MS]");

  private FuzzMain() {}

  public static void main(String[] argv) {
    int status;
    try {
      status = run(argv, System.out);
    } catch (Args.UsageException e) {
      System.err.println("turbo-parquet fuzz: " + e.getMessage());
      System.err.println(USAGE);
      status = 2;
    } catch (IOException | RuntimeException e) {
      System.err.println("turbo-parquet fuzz: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
      status = 1;
    }
    System.out.flush();
    System.exit(status);
  }

  /** Runs {@code fuzz [flags]} (the word {@code fuzz} first, as typed). */
  public static int run(String[] argv, PrintStream out) throws IOException {
    Args args = new Args(argv, Set.of("in-process"));
    if (!args.positional().equals(List.of("fuzz"))) {
      throw new Args.UsageException("want: fuzz [flags]");
    }
    long timeout = args.longValue("timeout", 10_000);
    String replay = args.string("replay", null);
    String home = System.getProperty("turbo.parquet.home", ".");
    String corpus = args.string("corpus", home + "/../shared/data/parquet-testing,"
        + home + "/../shared/data/parquet-testing/shredded_variant");
    List<Path> corpora = Arrays.stream(corpus.split(",")).filter(c -> !c.isBlank())
        .map(c -> Paths.get(c).toAbsolutePath().normalize()).toList();
    if (replay != null) {
      args.rejectUnknown();
      return FuzzCommand.replay(Paths.get(replay), Paths.get("target", "fuzz-replay"), timeout, corpora, out) == 0 ? 0
          : 1;
    }
    long seconds = args.longValue("seconds", 60);
    long seed = args.longValue("seed", 1);
    long cases = args.longValue("cases", Long.MAX_VALUE);
    Path dir = Paths.get(args.string("out", "target/fuzz"));
    boolean inProcess = args.bool("in-process", false);
    args.rejectUnknown();
    if (seconds < 1 || cases < 1 || timeout < 1) {
      throw new Args.UsageException("--seconds, --cases and --timeout must be positive");
    }
    try {
      return FuzzCommand.campaign(seed, cases, seconds, dir, timeout, corpora, inProcess, out) == 0 ? 0 : 1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted");
    }
  }
}
