package io.turboparquet.fuzz;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.testing.CorpusFiles;
import io.turboparquet.testing.WriterFiles;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Replays every fuzz reproducer kept under {@code src/test/resources/fuzz}: each must now end as a
 * clean corruption or unsupported-feature error, or be accepted with the batch contract intact and
 * (where parquet-java reads it) parquet-java's values. Runs in the capped {@code fuzz-tests} JVM.
 */
class FuzzRegressionTest {
  private static FuzzRunner runner;

  /** The files the reproducers were mutated from, by the names the campaigns give them. */
  private static final Map<String, byte[]> seeds = new HashMap<>();

  @BeforeAll
  static void start() {
    Path work = Paths.get("target", "fuzz-regression").toAbsolutePath();
    runner = new FuzzRunner(work, 10_000);
    Path generated = work.resolve("seeds");
    SeedFiles.generate(generated);
    FuzzCampaign.seeds(List.of(CorpusFiles.dir(), WriterFiles.dir()), generated,
        d -> d.equals(WriterFiles.dir()) ? "writers" : "parquet-testing")
        .forEach(s -> seeds.put(s.name(), s.bytes()));
  }

  @AfterAll
  static void stop() {
    runner.close();
  }

  @TestFactory
  Stream<DynamicTest> everyReproducerEndsCleanly() throws IOException, URISyntaxException {
    Path dir = Paths.get(FuzzRegressionTest.class.getResource("/fuzz").toURI());
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(p -> p.toString().endsWith(".properties")).sorted().toList();
    }
    assertFalse(files.isEmpty(), "no reproducers in " + dir);
    return files.stream().map(p -> DynamicTest.dynamicTest(p.getFileName().toString(), () -> {
      Reproducer r = Reproducer.read(p);
      assertTrue(r.bytes().length < 100_000, "reproducers stay small");
      CaseResult now = runner.run(r.name() + ".parquet", r.bytes(), r.mode(), seeds.get(r.fuzzCase().seedFile()));
      assertFalse(now.outcome().isFailure(), () -> r.name() + " (found as " + r.result().outcome() + ", seed file "
          + r.fuzzCase().seedFile() + ", " + r.fuzzCase().strategy() + ") now: " + now.outcome() + " "
          + now.detail());
    }));
  }
}
