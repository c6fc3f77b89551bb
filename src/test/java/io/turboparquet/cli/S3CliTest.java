package io.turboparquet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.FooterReader;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.scan.ScanOptions;
import io.turboparquet.testing.CountingHttpProxy;
import io.turboparquet.testing.OracleDigest;
import io.turboparquet.testing.S3Server;
import io.turboparquet.testing.TestFileGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI on {@code s3a://} paths against a real S3 API server (S3Proxy, started by the test) behind
 * a counting proxy: a file, a directory and a glob read as one dataset give the digest, listing and
 * counts of the same files read locally (and the digest parquet-java gives), the GET requests it
 * reports are those the server served, a wide scan's GETs are bounded by its row groups, not its
 * columns, and never more run at once than S3A's connection pool allows.
 */
class S3CliTest {
  /** Small, so that the scan's parallel reads would exceed it if the pool did not bound them. */
  private static final int POOL = 3;
  private static final int WIDE_COLUMNS = 200;

  @TempDir
  static Path local;
  private static S3Server s3;
  private static CountingHttpProxy proxy;
  private static Path dataset;
  private static Path wide;
  private static Path longFooter;

  @BeforeAll
  static void start() throws IOException {
    dataset = local.resolve("ds");
    Files.createDirectories(dataset.resolve("sub"));
    Files.createDirectories(dataset.resolve("_temporary"));
    move(TestFileGenerator.lineitemLike(Files.createDirectories(local.resolve("g0")), 4_000,
        CompressionCodecName.SNAPPY, 96 * 1024).path(), dataset.resolve("part-0.parquet"));
    move(TestFileGenerator.lineitemLike(Files.createDirectories(local.resolve("g1")), 2_500,
        CompressionCodecName.GZIP).path(), dataset.resolve("part-1.parquet"));
    move(TestFileGenerator.lineitemLike(Files.createDirectories(local.resolve("g2")), 1_500,
        CompressionCodecName.UNCOMPRESSED).path(), dataset.resolve("sub/part-2.parquet"));
    // What writers leave beside their files, which a dataset skips as Drill does.
    Files.writeString(dataset.resolve("_SUCCESS"), "");
    Files.writeString(dataset.resolve(".part-0.parquet.crc"), "not parquet");
    Files.writeString(dataset.resolve("_temporary/part-9.parquet"), "not parquet");
    wide = local.resolve("wide/wide.parquet");
    Files.createDirectories(wide.getParent());
    TestFileGenerator.wideInt64(wide, WIDE_COLUMNS, 6_000, 64 * 1024, 2L << 20, 7);
    longFooter = wide.resolveSibling("long-footer.parquet");
    TestFileGenerator.wideInt64(longFooter, 1000, 400, 8 * 1024, 64 * 1024, 3);

    s3 = S3Server.start();
    System.out.println("T s3 " + System.currentTimeMillis());
    Map<Path, String> uploads = new LinkedHashMap<>();
    try (Stream<Path> files = Files.walk(local)) {
      files.filter(Files::isRegularFile).filter(f -> f.startsWith(dataset) || f.startsWith(wide.getParent()))
          .forEach(f -> uploads.put(f, S3Server.uri(local.relativize(f).toString())));
    }
    s3.upload(uploads);
    proxy = new CountingHttpProxy(s3.port(), 10);
  }

  @AfterAll
  static void stop() throws IOException {
    if (proxy != null) {
      proxy.close();
    }
    if (s3 != null) {
      s3.close();
    }
  }

  private static void move(Path from, Path to) throws IOException {
    Files.move(from, to);
  }

  /** The command's output lines; S3A reaches the server through the counting proxy unless -D says otherwise. */
  private static List<String> run(Map<String, String> env, String... args) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      assertEquals(0, Main.run(args, out, env));
    }
    String text = bytes.toString(StandardCharsets.UTF_8);
    return text.isEmpty() ? List.of() : Arrays.asList(text.split("\n"));
  }

  private static List<String> s3(String... args) throws IOException {
    List<String> all = new ArrayList<>(List.of(args));
    S3Server.s3aSettings(proxy.port(), POOL).forEach((k, v) -> all.addAll(List.of("-D", k + "=" + v)));
    return run(Map.of(), all.toArray(String[]::new));
  }

  private static List<String> locally(String... args) throws IOException {
    return run(Map.of(), args);
  }

  private static String s3Uri(String key) {
    return S3Server.uri(key);
  }

  private static long number(String json, String field) {
    Matcher m = Pattern.compile("\"" + field + "\": ([0-9.]+)").matcher(json);
    assertTrue(m.find(), field + " missing from " + json);
    return (long) Double.parseDouble(m.group(1));
  }

  /** The same output with the S3 root and the local one written alike. */
  private static List<String> withLocalRoot(List<String> s3Lines) {
    String localRoot = new org.apache.hadoop.fs.Path(local.toUri()).toString();
    return s3Lines.stream().map(l -> l.replace(s3Uri("").replaceAll("/$", ""), localRoot.replaceAll("/$", "")))
        .toList();
  }

  private static void assertLines(List<String> expected, List<String> actual, String what) {
    for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
      assertEquals(expected.get(i), actual.get(i), what + ", line " + i);
    }
    assertEquals(expected.size(), actual.size(), what + ": lines");
  }

  @Test
  void digestOfAFileADirectoryAndAGlobIsTheLocalFilesDigest() throws IOException {
    record Case(String key, List<String> files) {}
    List<Case> cases = List.of(
        new Case("ds/part-1.parquet", List.of("ds/part-1.parquet")),
        new Case("ds", List.of("ds/part-0.parquet", "ds/part-1.parquet", "ds/sub/part-2.parquet")),
        new Case("ds/", List.of("ds/part-0.parquet", "ds/part-1.parquet", "ds/sub/part-2.parquet")),
        new Case("ds/part-*.parquet", List.of("ds/part-0.parquet", "ds/part-1.parquet")),
        new Case("ds/{sub/,}part-[02].parquet", List.of("ds/part-0.parquet", "ds/sub/part-2.parquet")));
    for (Case c : cases) {
      List<String> expected = OracleDigest.digest(c.files().stream().map(local::resolve).toList(), null);
      assertEquals(expected, s3("digest", s3Uri(c.key())), c.key());
      assertEquals(expected, locally("digest", local.resolve(c.key()).toString()), c.key());
    }
    List<String> columns = List.of("l_comment", "l_orderkey");
    List<String> expected = OracleDigest.digest(List.of(local.resolve("ds/part-0.parquet"),
        local.resolve("ds/part-1.parquet"), local.resolve("ds/sub/part-2.parquet")), columns);
    assertEquals(expected, s3("digest", s3Uri("ds"), "--columns", "l_comment,l_orderkey", "--threads", "1"));
  }

  @Test
  void metaListsEachFileAndTheDatasetTotals() throws IOException {
    for (String key : List.of("ds/part-1.parquet", "ds", "ds/part-*.parquet")) {
      String localPath = local.resolve(key).toString();
      assertLines(locally("meta", localPath), withLocalRoot(s3("meta", s3Uri(key))), key);
      List<String> json = s3("meta", s3Uri(key), "--json");
      List<String> localJson = locally("meta", localPath, "--json");
      assertEquals(localJson.size(), json.size(), key);
      for (int i = 0; i < json.size(); i++) {
        for (String field : List.of("footer_bytes", "rows", "row_groups")) {
          assertEquals(number(localJson.get(i), field), number(json.get(i), field), key + " " + field);
        }
      }
    }
    List<String> text = locally("meta", dataset.toString());
    long rows = 4_000 + 2_500 + 1_500;
    assertTrue(text.get(text.size() - 1).matches("dataset: .*/ds  files: 3  rows: " + rows + "  row groups: \\d+"),
        text.get(text.size() - 1));
    List<String> json = locally("meta", dataset.toString(), "--json", "--repeat", "2");
    assertEquals(2 * 4, json.size(), "three files and the totals, twice");
    assertEquals(3, number(json.get(3), "files"));
    assertEquals(rows, number(json.get(3), "rows"));
    assertEquals(json.subList(0, 3).stream().mapToLong(l -> number(l, "footer_bytes")).sum(),
        number(json.get(3), "footer_bytes"));
  }

  @Test
  void scanCountsTheGetRequestsTheServerServed() throws IOException {
    for (String key : List.of("ds/part-1.parquet", "ds", "ds/part-*.parquet")) {
      String localLine = locally("scan", local.resolve(key).toString(), "--json").get(0);
      proxy.reset();
      String line = s3("scan", s3Uri(key), "--json").get(0);
      CountingHttpProxy.Counts served = proxy.counts();
      for (String field : List.of("files", "rows", "row_groups", "data_pages", "bytes_read", "bytes_decompressed")) {
        assertEquals(number(localLine, field), number(line, field), key + " " + field);
      }
      assertEquals(0, number(localLine, "store_requests"), "local files count no requests: " + localLine);
      assertEquals(served.objectGets(), number(line, "store_requests"), key + ": " + line);
      long storeBytes = number(line, "store_bytes");
      assertTrue(storeBytes >= number(line, "bytes_read") && storeBytes <= served.objectGetBytes(),
          key + ": bytes the reads got lie between the chunks' and what the server sent (" + served + "): " + line);
    }
  }

  /**
   * A scan of all 200 columns (and one of 3) makes at most a few GETs per row group, each for up to
   * {@code coalesceMaxSize} of adjacent chunks: the bound is the row groups' bytes, not their columns.
   * With a small connection pool, no more requests run at once than it holds; but more than one.
   */
  @Test
  void wideScanGetsAreBoundedByRowGroupsAndThePool() throws IOException {
    FileMetadata meta;
    try (RawLocalFileSystem fs = new RawLocalFileSystem()) {
      fs.initialize(java.net.URI.create("file:///"), new org.apache.hadoop.conf.Configuration());
      org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(wide.toUri());
      try (FSDataInputStream in = fs.open(p)) {
        meta = FooterReader.read(in, wide.toString(), Files.size(wide));
      }
    }
    int rowGroups = meta.rowGroups().size();
    assertTrue(rowGroups >= 4, "several row groups: " + rowGroups);
    String key = "wide/wide.parquet";
    for (List<String> columns : Arrays.asList(null, List.of("c0", "c100", "c199"))) {
      long maxPart = ScanOptions.defaults().io().coalesceMaxSize();
      long bound = footerGets(wide); // the footer, then the row groups' reads
      for (RowGroupMeta rg : meta.rowGroups()) {
        long bytes = 0;
        for (int c = 0; c < WIDE_COLUMNS; c++) {
          if (columns == null || columns.contains("c" + c)) {
            bytes += rg.column(c).totalCompressedSize();
          }
        }
        // Ranges of adjacent chunks up to maxPart: two neighbours together exceed it.
        bound += 2 * ((bytes + maxPart - 1) / maxPart) + 1;
      }
      int projected = columns == null ? WIDE_COLUMNS : columns.size();
      assertTrue(bound < (long) rowGroups * projected || columns != null, bound + " vs columns");
      String[] flags = columns == null ? new String[0] : new String[] {"--columns", String.join(",", columns)};
      List<String> digest = new ArrayList<>(List.of("digest", s3Uri(key)));
      digest.addAll(List.of(flags));
      assertEquals(OracleDigest.digest(wide, columns), s3(digest.toArray(String[]::new)));
      proxy.reset();
      List<String> scan = new ArrayList<>(List.of("scan", s3Uri(key), "--json", "--threads", "2"));
      scan.addAll(List.of(flags));
      String line = s3(scan.toArray(String[]::new)).get(0);
      CountingHttpProxy.Counts served = proxy.counts();
      assertEquals(served.objectGets(), number(line, "store_requests"), line);
      assertTrue(served.objectGets() <= bound, projected + " columns: " + served + " GETs over " + rowGroups
          + " row groups, bound " + bound);
      assertTrue(served.maxInFlight() <= POOL, "at most the pool's " + POOL + " at once: " + served);
      if (columns == null) {
        assertTrue(served.maxInFlight() > 1, "reads run in parallel: " + served);
      }
      System.out.printf("s3 scan of %d columns, %d row groups: %d GETs (bound %d), %d bytes, %d at most at once%n",
          projected, rowGroups, served.objectGets(), bound, served.objectGetBytes(), served.maxInFlight());
    }
  }

  /** GETs a footer costs: one for the file's last 256 KiB, one more for the head of a longer footer. */
  private static long footerGets(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    int length = java.nio.ByteBuffer.wrap(bytes, bytes.length - 8, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
    return length + 8 <= FooterReader.SPECULATIVE_TAIL ? 1 : 2;
  }

  /**
   * Reading a footer makes one GET when the footer is within the file's last 256 KiB and two when it
   * is longer (S3A reads each range with a GET of its own); the files' listing makes no GET.
   */
  @Test
  void aFooterTakesOneGetOrTwo() throws IOException {
    record Case(String key, long gets) {}
    for (Case c : List.of(new Case("ds/part-1.parquet", 1), new Case("wide/wide.parquet", footerGets(wide)),
        new Case("wide/long-footer.parquet", 2), new Case("ds", 3))) {
      proxy.reset();
      s3("meta", s3Uri(c.key()), "--json");
      CountingHttpProxy.Counts served = proxy.counts();
      assertEquals(c.gets(), served.objectGets(), c.key() + ": " + served);
      System.out.printf("s3 meta of %s: %s%n", c.key(), served);
    }
    assertEquals(2, footerGets(longFooter), "a footer longer than the tail");
  }

  /**
   * Parts of one size: S3A's vectored read asks for their buffers from its pool threads in any order,
   * so a buffer handed out by size alone could take another part's bytes.
   */
  @Test
  void vectoredPartsOfEqualSizeKeepTheirBytes() throws IOException {
    String key = "wide/wide.parquet";
    for (String part : List.of("65536", "16384")) {
      assertEquals(OracleDigest.digest(wide, null), s3("digest", s3Uri(key), "--coalesce-max-size", part,
          "--threads", "2"), "parts of " + part + " bytes");
    }
  }

  /** S3A's settings may come from $HADOOP_CONF_DIR/core-site.xml; -D overrides them, credentials included. */
  @Test
  void settingsComeFromHadoopConfDirAndDashD(@TempDir Path conf) throws IOException {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    S3Server.s3aSettings(s3.port(), POOL).forEach((k, v) -> xml.append("  <property><name>").append(k)
        .append("</name><value>").append(v).append("</value></property>\n"));
    xml.append("</configuration>\n");
    Files.writeString(conf.resolve("core-site.xml"), xml);
    Map<String, String> env = Map.of("HADOOP_CONF_DIR", conf.toString());
    String file = s3Uri("ds/part-1.parquet");
    assertEquals(OracleDigest.digest(local.resolve("ds/part-1.parquet"), null), run(env, "digest", file));
    IOException denied = assertThrows(IOException.class,
        () -> run(env, "digest", file, "-D", "fs.s3a.secret.key=not-the-secret"));
    assertTrue(denied.toString().contains("403") || denied.toString().contains("AccessDenied"), denied.toString());
    assertThrows(IOException.class, () -> run(Map.of(), "digest", file, "-D", "fs.s3a.endpoint=http://127.0.0.1:"
        + s3.port(), "-D", "fs.s3a.connection.ssl.enabled=false", "-D", "fs.s3a.path.style.access=true",
        "-D", "fs.s3a.aws.credentials.provider=org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider"),
        "without HADOOP_CONF_DIR there are no credentials");
  }

  @Test
  void aDatasetOfNoFilesIsAnError() throws IOException {
    IOException none = assertThrows(IOException.class, () -> s3("scan", s3Uri("ds/nothing-*.parquet")));
    assertTrue(none.getMessage().contains("nothing-*.parquet"), none.getMessage());
    Path onlyHidden = Files.createDirectories(local.resolve("only-hidden/_temporary"));
    Files.writeString(onlyHidden.resolve("part-0.parquet"), "not parquet");
    Files.writeString(onlyHidden.resolveSibling("_SUCCESS"), "");
    IOException hidden = assertThrows(IOException.class, () -> locally("scan", onlyHidden.getParent().toString()));
    assertTrue(hidden.getMessage().contains("no files"), hidden.getMessage());
  }
}
