package io.turboparquet.fuzz;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs {@link CoverageTarget} under Jazzer (coverage-guided, libFuzzer's engine) in a child JVM: the
 * seeds and past findings in {@code src/test/resources/fuzz/jazzer} first, then new inputs until the
 * time is up. New corpus entries go to {@code OUT/corpus}; a finding stops the run and leaves its
 * input as {@code OUT/crash-SHA1} (or {@code timeout-}, {@code oom-}) with a Java reproducer beside
 * it. Once fixed, the input moves to the seeds folder, where {@code CoverageRegressionTest} keeps it.
 *
 * <p>{@code bin/fuzz-coverage SECONDS [SEED]} is the long run ({@link #main}); {@code
 * CoverageFuzzTest} the short one in CI.
 */
public final class JazzerCampaign {
  static final Path SEEDS = Paths.get("src/test/resources/fuzz/jazzer");
  private static final List<String> FINDING_PREFIXES = List.of("crash-", "timeout-", "oom-", "leak-");

  /** How a run ended: Jazzer's exit code (0: no finding), its findings, and its log. */
  record Result(int exitCode, List<Path> findings, Path log) {
    String logTail() throws IOException {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }
  }

  private JazzerCampaign() {}

  public static void main(String[] args) throws Exception {
    long seconds = args.length > 0 ? Long.parseLong(args[0]) : 600;
    long seed = args.length > 1 ? Long.parseLong(args[1]) : System.nanoTime() & 0x7fffffff;
    Path out = Paths.get("target", "jazzer");
    System.out.println("fuzz-coverage: " + seconds + " s from seed " + seed + ", log and findings in " + out);
    Result r = run(seconds, seed, out);
    System.out.println(r.logTail());
    System.out.println(r.findings().isEmpty() ? "fuzz-coverage: no finding"
        : "fuzz-coverage: findings " + r.findings() + "; fix, then move each input to " + SEEDS);
    System.exit(r.findings().isEmpty() && r.exitCode() == 0 ? 0 : 1);
  }

  /** Fuzzes for {@code seconds} from libFuzzer seed {@code seed}, writing to {@code out}. */
  static Result run(long seconds, long seed, Path out) throws IOException, InterruptedException {
    Path corpus = out.resolve("corpus");
    Files.createDirectories(corpus);
    Path log = out.resolve("jazzer.log");
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        // Jazzer reads every class of the class path for its hooks when it starts: that, not the
        // target, needs more than the mutation fuzzer's 512 MB of heap. Direct memory keeps its cap.
        "-Xmx2g", "-XX:MaxDirectMemorySize=512m",
        "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-opens=java.base/java.lang=ALL-UNNAMED", "-Dio.netty.tryReflectionSetAccessible=true",
        "-cp", classpath(), "com.code_intelligence.jazzer.Jazzer",
        "--target_class=" + CoverageTarget.class.getName(),
        "--instrumentation_includes=io.turboparquet.**", "--custom_hook_includes=io.turboparquet.**",
        "--reproducer_path=" + out.toAbsolutePath(),
        "-artifact_prefix=" + out.toAbsolutePath() + File.separator,
        "-max_total_time=" + seconds, "-seed=" + seed, "-timeout=30",
        // The heap and direct caps above bound the JVM; libFuzzer's RSS limit would count the heap.
        "-rss_limit_mb=0",
        corpus.toAbsolutePath().toString(), SEEDS.toAbsolutePath().toString()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!p.waitFor(seconds + 300, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor();
      throw new IllegalStateException("Jazzer did not stop within " + (seconds + 300) + " s; see " + log);
    }
    List<Path> findings;
    try (Stream<Path> files = Files.list(out)) {
      findings = files.filter(f -> FINDING_PREFIXES.stream().anyMatch(f.getFileName().toString()::startsWith))
          .sorted().toList();
    }
    return new Result(p.exitValue(), findings, log);
  }

  /**
   * The product's classes and run-time dependencies (what the core really loads: Jazzer's start-up
   * scan grows with the class path) plus the test classes and Jazzer's own jars.
   */
  private static String classpath() throws IOException {
    Path target = Paths.get(System.getProperty("turbo.parquet.build.dir", "target"));
    List<String> parts = new ArrayList<>(List.of(target.resolve("test-classes").toString(),
        target.resolve("classes").toString()));
    parts.add(Files.readString(target.resolve("classpath.txt")).trim());
    Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(e -> e.contains("code-intelligence")).forEach(parts::add);
    return String.join(File.pathSeparator, parts);
  }
}
