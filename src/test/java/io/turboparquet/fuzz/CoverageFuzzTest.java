package io.turboparquet.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Jazzer's short run in CI: half a minute of coverage-guided inputs (seed fixed per run so that a
 * finding replays) after the saved ones. A finding fails with its input's path and Jazzer's
 * report; {@code bin/fuzz-coverage} is the long run.
 */
class CoverageFuzzTest {
  private static final long SECONDS = Long.getLong("turbo.parquet.jazzer.seconds", 30);

  @Test
  void halfAMinuteOfCoverageGuidedInputsFindsNothing() throws Exception {
    Path out = Paths.get("target", "jazzer-ci");
    JazzerCampaign.Result r = JazzerCampaign.run(SECONDS, 1, out);
    String log = Files.readString(r.log());
    assertTrue(r.findings().isEmpty() && r.exitCode() == 0,
        "Jazzer found " + r.findings() + " (exit " + r.exitCode() + "):\n" + r.logTail());
    // It really fuzzed: the saved inputs ran and new ones were tried.
    Matcher done = Pattern.compile("Done (\\d+) runs").matcher(log);
    assertTrue(done.find(), "no run count in Jazzer's log:\n" + r.logTail());
    long runs = Long.parseLong(done.group(1));
    long seeds;
    try (var s = Files.list(JazzerCampaign.SEEDS)) {
      seeds = s.count();
    }
    assertTrue(runs > seeds, runs + " runs for " + seeds + " saved inputs:\n" + r.logTail());
    assertEquals(0, r.exitCode());
  }
}
