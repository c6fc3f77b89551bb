package io.turboparquet.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The run-time classpath of a pom outside the build (Drill's jars, parquet-java 1.18's), resolved by
 * Maven in a process of its own and kept in {@code target/} until the pom changes: a second set of
 * jars the tests run in a JVM of its own, never on the tests' classpath.
 */
public final class MavenClasspath {
  public static final Path BUILD_DIR = Paths.get(System.getProperty("turbo.parquet.build.dir", "target"));

  private MavenClasspath() {}

  /** The jars of {@code pom}'s run-time scope; the list is kept in {@code target/<name>-classpath.txt}. */
  public static List<Path> of(Path pom, String name) throws Exception {
    Path listFile = BUILD_DIR.resolve(name + "-classpath.txt");
    if (!Files.isRegularFile(listFile)
        || Files.getLastModifiedTime(listFile).compareTo(Files.getLastModifiedTime(pom)) < 0) {
      resolve(pom, listFile);
    }
    return Arrays.stream(Files.readString(listFile).trim().split(File.pathSeparator)).map(Paths::get).toList();
  }

  private static void resolve(Path pom, Path listFile) throws Exception {
    String mavenHome = System.getProperty("maven.home");
    Path mvn = mavenHome == null ? Paths.get("mvn") : Paths.get(mavenHome, "bin", "mvn");
    List<String> command = new ArrayList<>(List.of(mvn.toString(), "-B", "-q", "-ntp", "-f",
        pom.toAbsolutePath().toString(), "dependency:build-classpath",
        "-Dmdep.outputFile=" + listFile.toAbsolutePath()));
    if (Boolean.getBoolean("turbo.parquet.maven.offline")) {
      command.add("-o");
    }
    String repo = System.getProperty("turbo.parquet.maven.repo");
    if (repo != null && !repo.isBlank()) {
      command.add("-Dmaven.repo.local=" + repo);
    }
    Files.createDirectories(listFile.toAbsolutePath().getParent());
    Path log = Files.createTempFile(listFile.toAbsolutePath().getParent(), "maven", ".log");
    // Test JVMs run in parallel and may resolve the same pom at once: each writes a file of its own
    // and renames it into place, so no JVM reads a list another is still writing.
    Path partial = Files.createTempFile(listFile.toAbsolutePath().getParent(), listFile.getFileName().toString(), ".part");
    command.set(command.indexOf("-Dmdep.outputFile=" + listFile.toAbsolutePath()), "-Dmdep.outputFile=" + partial);
    Process mavenRun = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    assertTrue(mavenRun.waitFor(5, TimeUnit.MINUTES), "maven timed out resolving " + pom);
    assertEquals(0, mavenRun.exitValue(), "maven resolving " + pom + ": " + Files.readString(log));
    Files.delete(log);
    Files.move(partial, listFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
