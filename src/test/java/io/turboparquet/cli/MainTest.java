package io.turboparquet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.FooterReader;
import io.turboparquet.testing.OracleDigest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The CLI's output contract (DESIGN.md): meta and scan JSON fields, digest lines, errors. */
class MainTest {
  private static final Path CORPUS = Path.of(System.getProperty("turbo.parquet.testing",
      "../shared/data/parquet-testing"));

  /** The lines {@code Main} prints for {@code args}, which must succeed. */
  static List<String> run(String... args) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      assertEquals(0, Main.run(args, out));
    }
    String text = bytes.toString(StandardCharsets.UTF_8);
    return text.isEmpty() ? List.of() : Arrays.asList(text.split("\n"));
  }

  private static long number(String json, String field) {
    Matcher m = Pattern.compile("\"" + field + "\": ([0-9.]+)").matcher(json);
    assertTrue(m.find(), field + " missing from " + json);
    return (long) Double.parseDouble(m.group(1));
  }

  private static int footerLength(Path file) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
      f.seek(f.length() - 8);
      byte[] b = new byte[4];
      f.readFully(b);
      return (b[0] & 0xff) | (b[1] & 0xff) << 8 | (b[2] & 0xff) << 16 | (b[3] & 0xff) << 24;
    }
  }

  @Test
  void metaJsonReportsFooterBytesPerRepetition() throws IOException {
    Path file = CORPUS.resolve("alltypes_tiny_pages.parquet");
    List<String> lines = run("meta", file.toString(), "--json", "--repeat", "3");
    assertEquals(3, lines.size());
    for (String line : lines) {
      assertEquals(footerLength(file), number(line, "footer_bytes"));
      assertTrue(line.contains("\"footer_decode_ms\": "), line);
      assertEquals(7300, number(line, "rows"));
    }
  }

  @Test
  void slowStorageIsConfiguredByDashDAndReportsWhatItServed() throws IOException {
    Path file = CORPUS.resolve("alltypes_tiny_pages.parquet").toAbsolutePath();
    for (String coalesce : new String[] {"true", "false"}) {
      String line = run("scan", "slow://" + file, "--json", "--coalesce", coalesce, "--coalesce-max-size", "65536",
          "-D", "fs.slow.read.latency=2ms", "-Dfs.slow.stream.bytes-per-second=100m").get(0);
      assertEquals(7300, number(line, "rows"));
      // The footer takes one read, the file's last 256 KiB; the rest are the scan's.
      assertTrue(footerLength(file) + 8 <= FooterReader.SPECULATIVE_TAIL && java.nio.file.Files.size(file)
          > FooterReader.SPECULATIVE_TAIL);
      assertEquals(number(line, "read_calls") + 1, number(line, "storage_read_calls"), line);
      assertEquals(number(line, "bytes_read") + FooterReader.SPECULATIVE_TAIL, number(line, "storage_bytes"), line);
    }
    assertThrows(Args.UsageException.class, () -> run("scan", file.toString(), "-D", "novalue"));
    assertThrows(Args.UsageException.class, () -> run("scan", file.toString(), "--coalesce-max-size", "10"));
  }

  /** On a store other than local files the scan pool has at least 32 threads (they wait on latency). */
  @Test
  void remoteStoresGetALargerScanPoolByDefault() {
    int cores = Runtime.getRuntime().availableProcessors();
    Path local = CORPUS.resolve("alltypes_tiny_pages.parquet").toAbsolutePath();
    record Case(String file, List<String> flags, int scanThreads) {}
    for (Case c : List.of(
        new Case(local.toString(), List.of(), cores),
        new Case("file://" + local, List.of("--threads", "4"), 4),
        new Case("s3a://bucket/t.parquet", List.of(), Math.max(cores, Main.REMOTE_SCAN_THREADS)),
        new Case("slow://" + local, List.of("--threads", "40"), 40),
        new Case("slow://" + local, List.of("--threads", "1"), 1), // reads on the calling thread: no pool
        new Case("slow://" + local, List.of("--scan-threads", "8"), 8))) {
      Args args = new Args(c.flags().toArray(String[]::new), java.util.Set.of());
      assertEquals(c.scanThreads(), Main.scanOptions(args, Main.toPath(c.file())).threads().scan(), c.toString());
    }
  }

  @Test
  void metaTextListsSchemaAndChunks() throws IOException {
    List<String> lines = run("meta", CORPUS.resolve("alltypes_plain.parquet").toString(), "--columns", "id,bool_col");
    String text = String.join("\n", lines);
    assertTrue(text.contains("rows: 8"), text);
    assertTrue(text.contains("  id  INT32  OPTIONAL"), text);
    assertTrue(!text.contains("string_col"), "projection limits the listing: " + text);
  }

  @Test
  void scanJsonCountsRowsAndBytes() throws IOException {
    Path file = CORPUS.resolve("alltypes_tiny_pages.parquet");
    for (String threads : new String[] {"1", "2"}) {
      List<String> lines = run("scan", file.toString(), "--json", "--repeat", "2", "--threads", threads);
      assertEquals(2, lines.size());
      for (String line : lines) {
        assertEquals(7300, number(line, "rows"));
        assertTrue(number(line, "bytes_read") > 0, line);
        assertTrue(number(line, "data_pages") > 100, line);
        assertEquals(1, number(line, "row_groups"), line);
        assertTrue(line.contains("\"wall_ms\": "), line);
      }
    }
  }

  /** The floor reads and decompresses the same pages as a scan, and decodes nothing. */
  @Test
  void floorReadsWhatTheScanReadsWithoutDecoding() throws IOException {
    Path file = CORPUS.resolve("alltypes_tiny_pages.parquet");
    String scan = run("scan", file.toString(), "--json", "--threads", "1").get(0);
    String floor = run("scan", file.toString(), "--json", "--floor").get(0);
    assertEquals(number(scan, "rows"), number(floor, "rows"));
    assertEquals(number(scan, "bytes_read"), number(floor, "bytes_read"));
    assertEquals(number(scan, "data_pages"), number(floor, "data_pages"));
    assertEquals(number(scan, "bytes_decompressed"), number(floor, "bytes_decompressed"));
    assertEquals(0, number(floor, "decode_ms"));
  }

  @Test
  void scanOfProjectedColumnsReadsFewerBytes() throws IOException {
    Path file = CORPUS.resolve("alltypes_tiny_pages.parquet");
    long all = number(run("scan", file.toString(), "--json").get(0), "bytes_read");
    long one = number(run("scan", file.toString(), "--json", "--columns", "id").get(0), "bytes_read");
    assertTrue(one * 5 < all, "one column of 13 reads far less: " + one + " vs " + all);
  }

  @Test
  void digestLinesFollowTheContract() throws IOException {
    Path file = CORPUS.resolve("alltypes_plain.parquet");
    List<String> lines = run("digest", file.toString());
    assertEquals(OracleDigest.digest(file, null), lines);
    assertEquals(11, lines.size());
    for (String line : lines) {
      assertTrue(line.matches("[^\\t]+\\t[A-Z0-9_]+\\t\\d+\\t\\d+\\t[0-9a-f]{64}"), line);
    }
    assertEquals(List.of(lines.get(1)), run("digest", file.toString(), "--columns", "bool_col"));
  }

  /** --batch-bytes: batches of at most 8 bytes a column (a date string each) give the same digest. */
  @Test
  void batchBytesFlagBoundsBatchesWithoutChangingValues() throws IOException {
    Path file = CORPUS.resolve("alltypes_plain.parquet");
    assertEquals(OracleDigest.digest(file, null), run("digest", file.toString(), "--batch-bytes", "8"));
    String line = run("scan", file.toString(), "--json", "--batch-bytes", "8").get(0);
    assertEquals(8, number(line, "rows"));
    assertThrows(Args.UsageException.class, () -> run("scan", file.toString(), "--batch-bytes", "0"));
  }

  @Test
  void errorsNameTheFile() {
    IOException missing = assertThrows(IOException.class, () -> run("scan", "/no/such/file.parquet"));
    assertTrue(missing.getMessage().contains("/no/such/file.parquet"), missing.getMessage());
    Path bad = CORPUS.resolve("bad_data/PARQUET-1481.parquet");
    Exception e = assertThrows(Exception.class, () -> run("digest", bad.toString()));
    assertTrue(e.getMessage().contains("PARQUET-1481.parquet"), e.getMessage());
  }

  @Test
  void unknownFlagsAndColumnsAreRefused() {
    Path file = CORPUS.resolve("alltypes_plain.parquet");
    assertThrows(Args.UsageException.class, () -> run("scan", file.toString(), "--bogus", "1"));
    assertThrows(Args.UsageException.class, () -> run("frobnicate", file.toString()));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> run("digest", file.toString(), "--columns", "nope"));
    assertTrue(e.getMessage().contains("nope"), e.getMessage());
  }


}
