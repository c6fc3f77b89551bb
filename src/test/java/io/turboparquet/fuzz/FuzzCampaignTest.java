package io.turboparquet.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.testing.CorpusFiles;
import io.turboparquet.testing.ShreddedVariantCases;
import io.turboparquet.testing.WriterFiles;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The CI fuzz campaigns: a fixed seed and a fixed number of cases over the corpus and the generated
 * seed files, deterministic, each long enough to mutate every seed file with every strategy (asserted); and a shorter one over the
 * files of common writers ({@link WriterFiles}: footers as pyarrow, DuckDB, polars and fastparquet
 * write them), apart so that the first one's cases stay what they were. Runs in the {@code fuzz-tests}
 * surefire execution (its own JVM, 512 MiB heap and direct memory): a crash kills the fork, and an OOM or a
 * hang of the core is a failing case, so each fails the build. Reproducers go to {@code target/fuzz-campaign}
 * and {@code target/fuzz-campaign-writers}.
 */
class FuzzCampaignTest {
  static final long SEED = 20_260_101L;
  /**
   * About 100 cases per seed file (51 of them), about 40 s on the 2-core machine, so that CI stays near 15 minutes
   * (20,000 took 153 s); the long campaign is `bin/turbo-parquet fuzz` (docs/cli.md).
   */
  static final long CASES = 5_000;
  /**
   * The writer files' campaign: their 72 chunks make a case about 5 times as long as the corpus' (3,000 cases took
   * 19-21 s on the 2-core machine); 1,000 are about 140 per file.
   */
  static final long WRITER_CASES = 1_000;
  /** The shredded VARIANT files' campaign: 137 small files, mutations that reach VARIANT reconstruction. */
  static final long VARIANT_CASES = 3_000;

  @Test
  void fixedCampaignEndsEveryCaseCleanly() {
    Path out = Paths.get("target", "fuzz-campaign").toAbsolutePath();
    List<SeedFile> seeds = FuzzCampaign.seeds(List.of(CorpusFiles.dir()), generated(out), d -> "parquet-testing");
    campaign(seeds, SEED, CASES, out);
  }

  @Test
  void writerFilesCampaignEndsEveryCaseCleanly() {
    Path out = Paths.get("target", "fuzz-campaign-writers").toAbsolutePath();
    List<SeedFile> seeds = FuzzCampaign.seeds(List.of(WriterFiles.dir()), null, d -> "writers");
    assertEquals(WriterFiles.WRITERS.size(), seeds.size(), "every writer file is small enough to be a seed");
    campaign(seeds, SEED, WRITER_CASES, out);
  }

  @Test
  void variantFilesCampaignEndsEveryCaseCleanly() {
    Path out = Paths.get("target", "fuzz-campaign-variant").toAbsolutePath();
    List<SeedFile> seeds = FuzzCampaign.seeds(List.of(ShreddedVariantCases.DIR), null, d -> "shredded_variant");
    assertEquals(ShreddedVariantCases.all().size(), seeds.size(), "every shredded_variant file is a seed");
    List<String> refusals = campaign(seeds, SEED, VARIANT_CASES, out);
    // Most mutations break a page or the footer first; 39 of this campaign's reach the rebuilder.
    long variant = refusals.stream().filter(h -> h.contains("invalid VARIANT")).count();
    assertTrue(variant >= 20, "mutations reach VARIANT reconstruction: " + variant + " of " + refusals.size()
        + " refusals are its own");
  }

  /** Runs the campaign, failing on any failing case; returns the headlines of its CORRUPTION cases. */
  private static List<String> campaign(List<SeedFile> seeds, long seed, long cases, Path out) {
    List<String> failures = new ArrayList<>();
    List<String> refusals = new ArrayList<>();
    Set<String> drawnSeeds = new TreeSet<>();
    Set<Mutation> drawnStrategies = EnumSet.noneOf(Mutation.class);
    long start = System.nanoTime();
    Map<Outcome, Long> counts;
    try (FuzzCampaign campaign = new FuzzCampaign(seeds, out, 10_000)) {
      long end = campaign.run(seed, 0, cases, Long.MAX_VALUE, false, new FuzzCampaign.Listener() {
        @Override
        public void result(long index, FuzzCase c, CaseResult r) {
          drawnSeeds.add(c.seedFile());
          drawnStrategies.add(c.strategy());
          if (r.outcome().isFailure()) {
            failures.add("case " + index + " " + c + ": " + r.outcome() + " " + r.headline());
          } else if (r.outcome() == Outcome.CORRUPTION) {
            refusals.add(r.headline());
          }
        }
      });
      counts = campaign.counts();
      assertEquals(cases, end);
    }
    System.out.printf("fuzz campaign: %d seed files, %.1f s, %s%n", seeds.size(), (System.nanoTime() - start) / 1e9,
        FuzzCampaign.summary(counts));
    failures.forEach(System.out::println);
    assertEquals(cases, counts.values().stream().mapToLong(Long::longValue).sum());
    assertEquals(List.of(), failures, () -> FuzzCampaign.summary(counts) + "; reproducers in " + out);
    // The campaign is short enough for CI and still mutates every seed file with every strategy that applies to any.
    Set<String> allSeeds = new TreeSet<>();
    Set<Mutation> allStrategies = EnumSet.noneOf(Mutation.class);
    for (SeedFile s : seeds) {
      allSeeds.add(s.name());
      allStrategies.addAll(s.strategies());
    }
    assertEquals(allSeeds, drawnSeeds, "every seed file is mutated");
    assertEquals(allStrategies, drawnStrategies, "every strategy runs");
    return refusals;
  }

  private static Path generated(Path out) {
    Path dir = out.resolve("seeds");
    SeedFiles.generate(dir);
    return dir;
  }
}
