package io.turboparquet.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Random;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;

/**
 * The tables of the planning benchmark (bench/planning.sh), where footers dominate planning:
 * {@code wide50/} 50 copies of a 1000-column x 20-row-group file, {@code small1000/} 1,000 files of
 * 10 columns and one row group, {@code wide1500/} one 1,500-column x 20-row-group file. Every column
 * is a required DOUBLE named {@code col_N} with statistics; in row group g a value lies in
 * [g / groups, (g + 1) / groups), so {@code col_5 > 0.5} prunes half the row groups by statistics.
 * Pages are written with parquet-java's low-level writer (PLAIN, uncompressed, few rows): the
 * data is small, the footers are as wide as a table's with real rows.
 *
 * <p>usage: GeneratePlanningTables DIR (existing tables are kept)
 */
public final class GeneratePlanningTables {
  private static final int ROWS = 16;

  private GeneratePlanningTables() {}

  public static void main(String[] args) throws IOException {
    Path dir = Paths.get(args[0]);
    Path wide = dir.resolve("wide50");
    if (!Files.isDirectory(wide)) {
      Path tmp = Files.createDirectories(dir.resolve("wide50.tmp"));
      Path first = tmp.resolve("part-00.parquet");
      write(first, 1000, 20, 1);
      for (int i = 1; i < 50; i++) {
        Files.copy(first, tmp.resolve(String.format("part-%02d.parquet", i)), StandardCopyOption.REPLACE_EXISTING);
      }
      Files.move(tmp, wide);
    }
    Path small = dir.resolve("small1000");
    if (!Files.isDirectory(small)) {
      Path tmp = Files.createDirectories(dir.resolve("small1000.tmp"));
      for (int i = 0; i < 1000; i++) {
        write(tmp.resolve(String.format("part-%04d.parquet", i)), 10, 1, i);
      }
      Files.move(tmp, small);
    }
    Path single = dir.resolve("wide1500");
    if (!Files.isDirectory(single)) {
      Path tmp = Files.createDirectories(dir.resolve("wide1500.tmp"));
      write(tmp.resolve("part-0.parquet"), 1500, 20, 2);
      Files.move(tmp, single);
    }
  }

  /** One table file: {@code columns} DOUBLE columns, {@code rowGroups} row groups of 16 rows. */
  public static void write(Path file, int columns, int rowGroups, long seed) throws IOException {
    Types.MessageTypeBuilder builder = Types.buildMessage();
    for (int c = 0; c < columns; c++) {
      builder.required(PrimitiveTypeName.DOUBLE).named("col_" + c);
    }
    MessageType schema = builder.named("planning");
    Random random = new Random(seed);
    PlainPagesFile.write(file, schema, rowGroups, ROWS, 8 * ROWS, (g, column, page, stats) -> {
      for (int i = 0; i < ROWS; i++) {
        double v = (g + random.nextDouble()) / rowGroups;
        page.putDouble(v);
        stats.updateStats(v);
      }
    });
    Files.deleteIfExists(file.resolveSibling("." + file.getFileName() + ".crc"));
  }
}
