package io.turboparquet.fuzz;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** {@code turbo-parquet fuzz}: a campaign (in child JVMs or in this one) or the replay of reproducers. */
public final class FuzzCommand {
  private static final long PROGRESS_NANOS = 10_000_000_000L;

  private FuzzCommand() {}

  /** Runs a campaign; returns the number of failing cases. */
  public static long campaign(long seed, long cases, long seconds, Path out, long timeoutMillis, List<Path> corpora,
      boolean inProcess, PrintStream log) throws IOException, InterruptedException {
    for (Path c : corpora) {
      if (!Files.isDirectory(c)) {
        throw new IllegalArgumentException("corpus directory " + c + " does not exist");
      }
    }
    Path generated = out.resolve("seeds");
    SeedFiles.generate(generated);
    if (!inProcess) {
      return FuzzCampaign.failures(
          new ChildProcessCampaign(seed, cases, seconds, out, timeoutMillis, generated, corpora).run(log));
    }
    try (FuzzCampaign campaign = new FuzzCampaign(
        FuzzCampaign.seeds(corpora, generated, ChildProcessCampaign::prefix), out, timeoutMillis)) {
      log.println("fuzz: " + campaign.seeds().size() + " seed files, seed " + seed + ", in process");
      long start = System.nanoTime();
      long[] lastProgress = {start};
      campaign.run(seed, 0, cases, start + seconds * 1_000_000_000L, false, new FuzzCampaign.Listener() {
        @Override
        public void result(long index, FuzzCase c, CaseResult r) {
          if (r.outcome().isFailure()) {
            log.println("fuzz: case " + index + " " + c + ": " + r.outcome() + " " + r.headline());
          }
          if (System.nanoTime() - lastProgress[0] > PROGRESS_NANOS) {
            lastProgress[0] = System.nanoTime();
            log.println("fuzz: " + (lastProgress[0] - start) / 1_000_000_000 + " s "
                + FuzzCampaign.summary(campaign.counts()));
          }
        }

        @Override
        public void reproducer(long index, Path file) {
          log.println("fuzz: reproducer " + file);
        }
      });
      Map<Outcome, Long> counts = campaign.counts();
      log.println("fuzz: done in " + (System.nanoTime() - start) / 1_000_000_000 + " s, "
          + FuzzCampaign.summary(counts));
      return FuzzCampaign.failures(counts);
    }
  }

  /**
   * Replays the reproducers in {@code path} (a .properties file or a directory of them) against the
   * seed files they were mutated from (for {@link FuzzRunner#run(String, byte[], ReadMode, byte[])});
   * returns how many still fail.
   */
  public static long replay(Path path, Path work, long timeoutMillis, List<Path> corpora, PrintStream log)
      throws IOException {
    Path generated = work.resolve("seeds");
    SeedFiles.generate(generated);
    Map<String, byte[]> seeds = new java.util.HashMap<>();
    for (SeedFile s : FuzzCampaign.seeds(corpora, generated, ChildProcessCampaign::prefix)) {
      seeds.put(s.name(), s.bytes());
    }
    List<Path> files;
    if (Files.isDirectory(path)) {
      try (Stream<Path> s = Files.list(path)) {
        files = s.filter(p -> p.toString().endsWith(".properties")).sorted().toList();
      }
    } else {
      files = List.of(path);
    }
    long failing = 0;
    try (FuzzRunner runner = new FuzzRunner(work, timeoutMillis)) {
      for (Path p : files) {
        Reproducer r = Reproducer.read(p);
        CaseResult now = runner.run(r.name() + ".parquet", r.bytes(), r.mode(), seeds.get(r.fuzzCase().seedFile()));
        failing += now.outcome().isFailure() ? 1 : 0;
        log.println(p.getFileName() + "\t" + r.result().outcome() + " -> " + now.outcome() + "\t" + now.headline());
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return failing;
  }
}
