package io.turboparquet.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * Footer decoding of wide files from several writers (issue 17): {@code {writer}_{N}c.parquet}
 * in the directory named by {@code -Dfooter.writers.dir} (default {@code target/footer-writers}),
 * each N columns x 20 row groups. bench/footer_writers.sh runs it interleaved with arrow-rs on the
 * same files; the other writers' files come from the writer script (pyarrow, duckdb, polars,
 * fastparquet), parquet-java's from {@link #main}. The decodes are {@link FooterBenchmarkBase}'s;
 * parquet-java has no projected or statistics-free read, so its one method is NO_FILTER.
 */
public class FooterWritersBenchmark extends FooterBenchmarkBase {
  @Param({"parquet-java", "pyarrow", "pyarrow-nostats", "pyarrow-strings", "pyarrow-pageindex", "duckdb", "polars",
      "fastparquet"})
  public String writer;

  @Param({"100", "1000", "10000"})
  public int columns;

  @Setup
  public void setUp() throws IOException {
    Path file = file(directory(), writer, columns);
    if (!Files.exists(file)) {
      throw new IOException("missing " + file + " (bench/footer_writers.sh says how the files are written)");
    }
    load(file, columns);
  }

  /** {@code -Dfooter.writers.dir}, default {@code target/footer-writers}. */
  static Path directory() {
    return Paths.get(System.getProperty("footer.writers.dir", "target/footer-writers")).toAbsolutePath();
  }

  static Path file(Path directory, String writer, int columns) {
    return directory.resolve(writer + "_" + columns + "c.parquet");
  }

  /**
   * Writes parquet-java's files into the directory: {@code FooterWritersBenchmark N...} makes
   * {@code parquet-java_{N}c.parquet} for each N that is missing, a sparse footer-only copy of
   * {@link FooterBenchmark}'s FLOAT file with statistics (20 row groups x 1000 rows).
   */
  public static void main(String[] args) throws IOException {
    Path directory = directory();
    Files.createDirectories(directory);
    for (String n : args) {
      int columns = Integer.parseInt(n);
      Path file = file(directory, "parquet-java", columns);
      if (!Files.exists(file)) {
        FooterBenchmark.keepFooterOnly(FooterBenchmark.ensureFile(columns, "FLOAT", true), file);
      }
      System.out.println(file);
    }
  }
}
