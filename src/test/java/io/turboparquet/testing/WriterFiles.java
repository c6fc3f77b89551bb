package io.turboparquet.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Small files of several common writers on the test classpath ({@code src/test/resources/writers/}, written by
 * {@code bench/footer_writers.py}; its README.md says how): one {@code WRITER.parquet} per writer.
 */
public final class WriterFiles {
  /** Every writer bench/footer_writers.py knows, in its order. */
  public static final List<String> WRITERS = List.of("pyarrow", "pyarrow-nostats", "pyarrow-strings",
      "pyarrow-pageindex", "duckdb", "polars", "fastparquet");

  private WriterFiles() {
  }

  /** The directory; fails clearly when it is not on the classpath. */
  public static Path dir() {
    URL url = WriterFiles.class.getResource("/writers");
    if (url == null) {
      throw new IllegalStateException("no /writers on the test classpath");
    }
    try {
      return Path.of(url.toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Its {@code *.parquet} files, sorted by name. */
  public static List<Path> all() {
    try (Stream<Path> s = Files.list(dir())) {
      return s.filter(p -> p.getFileName().toString().endsWith(".parquet") && Files.isRegularFile(p)).sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The writer a file's name says: {@code duckdb} for {@code duckdb.parquet}. */
  public static String writer(Path file) {
    String name = file.getFileName().toString();
    return name.substring(0, name.length() - ".parquet".length());
  }
}
