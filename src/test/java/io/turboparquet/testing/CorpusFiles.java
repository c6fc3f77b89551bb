package io.turboparquet.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The parquet-testing corpus (system property {@code turbo.parquet.testing}): its {@code *.parquet} files (top
 * level and {@code bad_data/}, not recursive), and whether parquet-java (through {@link OracleDigest}) reads them.
 */
public final class CorpusFiles {

  public static final String PROPERTY = "turbo.parquet.testing";

  private CorpusFiles() {
  }

  /** The corpus directory; fails clearly when the property is missing or wrong. */
  public static Path dir() {
    String p = System.getProperty(PROPERTY);
    if (p == null) {
      throw new IllegalStateException("system property " + PROPERTY + " (corpus directory) is not set");
    }
    Path d = Paths.get(p).toAbsolutePath().normalize();
    if (!Files.isDirectory(d)) {
      throw new IllegalStateException(PROPERTY + "=" + p + " is not a directory");
    }
    return d;
  }

  /** A corpus file by name relative to the corpus directory, e.g. "bad_data/PARQUET-1481.parquet". */
  public static Path file(String relative) {
    return dir().resolve(relative);
  }

  /** Top-level {@code *.parquet} files, sorted by name. */
  public static List<Path> goodFiles() {
    return list(dir());
  }

  /** {@code bad_data/*.parquet}, sorted by name. */
  public static List<Path> badFiles() {
    return list(dir().resolve("bad_data"));
  }

  /** Both lists, good files first. */
  public static List<Path> all() {
    List<Path> out = new ArrayList<>(goodFiles());
    out.addAll(badFiles());
    return out;
  }

  private static List<Path> list(Path d) {
    if (!Files.isDirectory(d)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(d)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".parquet") && Files.isRegularFile(p)).sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Result of reading one corpus file with the oracle. */
  public record Readability(Path file, boolean readable, List<String> digest, String error) {
    public String name() {
      Path parent = file.getParent();
      return parent != null && parent.getFileName().toString().equals("bad_data")
          ? "bad_data/" + file.getFileName() : file.getFileName().toString();
    }
  }

  /** Whether parquet-java reads the whole file (all columns); never throws. */
  public static Readability check(Path file) {
    try {
      return new Readability(file, true, OracleDigest.digest(file, null), null);
    } catch (Throwable t) { // LinkageError too: a missing codec library shows up as NoClassDefFoundError
      Throwable root = t;
      while (root.getCause() != null && root.getCause() != root) {
        root = root.getCause();
      }
      String msg = t.getClass().getSimpleName() + ": " + t.getMessage()
          + (root != t ? " (root: " + root.getClass().getSimpleName() + ": " + root.getMessage() + ")" : "");
      return new Readability(file, false, null, msg);
    }
  }

  /** {@link #check} for every corpus file. */
  public static List<Readability> checkAll() {
    return all().stream().map(CorpusFiles::check).toList();
  }
}
