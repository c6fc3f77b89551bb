package io.turboparquet.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@link TestFileGenerator#generateAll}'s files, written once per JVM: a surefire fork runs many
 * test classes, and generateAll is deterministic, so the classes that read these files share one
 * copy instead of writing their own. The directory lives as long as the JVM; callers must not
 * modify the files (copy or link them where they need them elsewhere).
 */
public final class SharedGeneratedFiles {
  private static List<GeneratedFile> files;

  private SharedGeneratedFiles() {}

  public static synchronized List<GeneratedFile> all() {
    if (files == null) {
      try {
        // Under the fork's own directory when surefire names one: the same file system as the tests'
        // directories, so that linkedInto() links rather than copies.
        String forkDir = System.getProperty("turbo.parquet.fork.dir");
        Path dir = forkDir == null ? Files.createTempDirectory("turbo-parquet-generated")
            : Files.createTempDirectory(Files.createDirectories(Path.of(forkDir)), "generated");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir)));
        files = List.copyOf(TestFileGenerator.generateAll(dir));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return files;
  }

  /** The shared files hard-linked (a copy where links fail) into {@code dir}, in generateAll's order. */
  public static List<GeneratedFile> linkedInto(Path dir) throws IOException {
    Files.createDirectories(dir);
    List<GeneratedFile> out = new java.util.ArrayList<>();
    for (GeneratedFile f : all()) {
      Path target = dir.resolve(f.path().getFileName());
      try {
        Files.createLink(target, f.path());
      } catch (IOException | UnsupportedOperationException e) {
        Files.copy(f.path(), target);
      }
      out.add(new GeneratedFile(target, f.description()));
    }
    return out;
  }

  private static void delete(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // best effort at exit
    }
  }
}
