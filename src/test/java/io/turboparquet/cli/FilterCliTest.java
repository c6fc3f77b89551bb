package io.turboparquet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.scan.PageIndexFiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code scan --filter}: fewer rows, pages and bytes on a sorted key; {@code --no-page-index} reads all; bad filters are usage errors. */
class FilterCliTest {
  @TempDir
  Path dir;

  static long field(String json, String name) {
    Matcher m = Pattern.compile("\"" + name + "\":\\s*([0-9]+)").matcher(json);
    assertTrue(m.find(), name + " in " + json);
    return Long.parseLong(m.group(1));
  }

  static String scan(String... args) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      assertEquals(0, Main.run(args, out));
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void filterSkipsPagesOfASortedKey() throws IOException {
    Path file = dir.resolve("sorted.parquet");
    PageIndexFiles.writeSorted(file, 100_000, 2_000);
    String all = scan("scan", file.toString(), "--json", "--threads", "1");
    String on = scan("scan", file.toString(), "--json", "--threads", "1", "--filter", "key >= 50000 AND key < 51000");
    String off = scan("scan", file.toString(), "--json", "--threads", "1", "--filter", "key >= 50000 AND key < 51000",
        "--no-page-index");
    assertEquals(100_000, field(all, "rows"));
    assertEquals(2_000, field(on, "rows")); // the one page of 2,000 rows holding the range
    assertEquals(100_000 - 2_000, field(on, "rows_skipped"));
    assertEquals(49 * 5, field(on, "pages_skipped")); // 49 of 50 pages of each of 5 columns
    assertTrue(field(on, "bytes_read") < field(all, "bytes_read") / 10, on);
    assertTrue(field(on, "bytes_skipped") > 0);
    assertEquals(100_000, field(off, "rows"));
    assertEquals(0, field(off, "pages_skipped"));
  }

  @Test
  void badFiltersAreUsageErrors() {
    Args.UsageException e = assertThrows(Args.UsageException.class,
        () -> Main.run(new String[] {"scan", "x.parquet", "--filter", "key >> 3"}, System.out));
    assertTrue(e.getMessage().contains("position 6"), e.getMessage());
  }
}
