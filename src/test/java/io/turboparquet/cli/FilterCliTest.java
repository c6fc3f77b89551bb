package io.turboparquet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.scan.PageIndexFiles;
import io.turboparquet.scan.PruningFiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scan --filter}: fewer rows, pages and bytes on a sorted key; {@code --no-page-index} reads all;
 * row groups pruned by dictionary and bloom filter, and not with {@code --no-dictionary-pruning} /
 * {@code --no-bloom-filter}; bad filters are usage errors.
 */
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
        "--no-page-index", "--no-late-materialization");
    // Late materialization alone: batches of 32,768 rows; the one holding the range is cut to it.
    String late = scan("scan", file.toString(), "--json", "--threads", "1", "--filter", "key >= 50000 AND key < 51000",
        "--no-page-index");
    assertEquals(100_000, field(all, "rows"));
    // The one page of 2,000 rows holding the range is read; late materialization cuts its batch to
    // the range's 1,000 rows (the other 1,000 are half the batch).
    assertEquals(1_000, field(on, "rows"));
    assertEquals(100_000 - 1_000, field(on, "rows_skipped"));
    assertEquals(1_000, field(on, "late_skipped_rows"));
    assertEquals(49 * 5, field(on, "pages_skipped")); // 49 of 50 pages of each of 5 columns
    assertTrue(field(on, "bytes_read") < field(all, "bytes_read") / 10, on);
    assertTrue(field(on, "bytes_skipped") > 0);
    assertEquals(100_000, field(off, "rows"));
    assertEquals(0, field(off, "pages_skipped"));
    assertEquals(0, field(off, "late_skipped_rows"));
    assertEquals(1_000, field(late, "rows"));
    assertEquals(100_000 - 1_000, field(late, "late_skipped_rows"));
    assertEquals(100_000 - 1_000, field(late, "rows_skipped"));
    assertTrue(field(late, "bytes_decompressed") < field(off, "bytes_decompressed"), late);
  }

  @Test
  void dictionaryAndBloomFilterPruning() throws IOException {
    Path file = dir.resolve("pruning.parquet");
    PruningFiles.write(file, false);
    String all = scan("scan", file.toString(), "--json");
    long rowGroups = field(all, "row_groups");
    assertTrue(rowGroups >= 4, all);
    String dictionary = scan("scan", file.toString(), "--json", "--filter", "cat = 999", "--no-page-index");
    assertEquals(0, field(dictionary, "rows"));
    assertEquals(rowGroups, field(dictionary, "row_groups_pruned_by_dictionary"));
    assertEquals(PruningFiles.ROWS, field(dictionary, "rows_skipped"));
    assertTrue(field(dictionary, "dictionary_pruning_bytes") > 0, dictionary);
    assertTrue(field(dictionary, "bytes_read") < field(all, "bytes_read") / 10, dictionary);
    String noDictionary = scan("scan", file.toString(), "--json", "--filter", "cat = 999", "--no-page-index",
        "--no-dictionary-pruning", "--no-late-materialization");
    assertEquals(PruningFiles.ROWS, field(noDictionary, "rows"));
    assertEquals(0, field(noDictionary, "row_groups_pruned_by_dictionary"));
    assertEquals(0, field(noDictionary, "dictionary_pruning_bytes"));

    String bloom = scan("scan", file.toString(), "--json", "--filter", "bloomonly = 5555", "--no-page-index");
    assertTrue(field(bloom, "row_groups_pruned_by_bloom_filter") >= rowGroups - 1, bloom);
    assertTrue(field(bloom, "bloom_filter_bytes") > 0, bloom);
    String noBloom = scan("scan", file.toString(), "--json", "--filter", "bloomonly = 5555", "--no-page-index",
        "--no-bloom-filter", "--no-late-materialization");
    assertEquals(PruningFiles.ROWS, field(noBloom, "rows"));
    assertEquals(0, field(noBloom, "row_groups_pruned_by_bloom_filter"));
    assertEquals(0, field(noBloom, "bloom_filter_bytes"));
  }

  @Test
  void badFiltersAreUsageErrors() {
    Args.UsageException e = assertThrows(Args.UsageException.class,
        () -> Main.run(new String[] {"scan", "x.parquet", "--filter", "key >> 3"}, System.out));
    assertTrue(e.getMessage().contains("position 6"), e.getMessage());
  }
}
