package io.turboparquet.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.cli.Args;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code turbo-parquet fuzz} ({@link FuzzMain}): a short campaign's counts and exit status, and its usage errors. */
class FuzzMainTest {
  private static final Path CORPUS = Path.of(System.getProperty("turbo.parquet.testing",
      "../shared/data/parquet-testing"));

  /** Runs {@code fuzz} and checks that the final counts add up to the cases and agree with the exit status. */
  private static void fuzzCountsAddUp(Path dir, long cases, String... extra) throws IOException {
    List<String> args = new java.util.ArrayList<>(List.of("fuzz", "--cases", Long.toString(cases), "--seconds", "120",
        "--seed", "3", "--out", dir.resolve("out").toString(), "--corpus", CORPUS.toString()));
    args.addAll(List.of(extra));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int status;
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      status = FuzzMain.run(args.toArray(String[]::new), out);
    }
    String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
    String last = lines[lines.length - 1];
    Matcher m = Pattern.compile("cases (\\d+):((?: [A-Z_]+ \\d+)+)$").matcher(last);
    assertTrue(m.find(), last);
    assertEquals(cases, Long.parseLong(m.group(1)), last);
    long sum = 0;
    long failures = 0;
    Matcher c = Pattern.compile(" ([A-Z_]+) (\\d+)").matcher(m.group(2));
    while (c.find()) {
      long n = Long.parseLong(c.group(2));
      sum += n;
      failures += Outcome.valueOf(c.group(1)).isFailure() ? n : 0;
    }
    assertEquals(cases, sum, last);
    assertEquals(failures > 0 ? 1 : 0, status, last);
  }

  @Test
  void fuzzInProcessCountsEveryCaseAndFailsOnlyOnFailures(@TempDir Path dir)
      throws IOException {
    fuzzCountsAddUp(dir, 60, "--in-process");
  }

  @Test
  void fuzzInChildJvmsCountsEveryCase(@TempDir Path dir) throws IOException {
    fuzzCountsAddUp(dir, 40);
  }

  @Test
  void fuzzRejectsUnknownFlags() {
    assertThrows(Args.UsageException.class, () -> FuzzMain.run(new String[] {"fuzz", "--secs", "3"}, System.out));
  }
}
