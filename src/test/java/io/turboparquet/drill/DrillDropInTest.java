package io.turboparquet.drill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.turboparquet.testing.GeneratedFile;
import io.turboparquet.testing.OracleDigest;
import io.turboparquet.testing.TestFileGenerator;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;

/**
 * Installs Turbo Parquet the way a Drill user does and queries through it: a {@link DrillHome} under
 * target/fork-N/drill-home (Drill's jars from Maven, only the plugin jar in jars/3rdparty/, our conf
 * snippets). A drillbit starts in a separate JVM from that layout alone (sqlline over
 * {@code jdbc:drill:zk=local}) and runs the queries; the rows through turbo-parquet must equal those
 * of Drill's built-in parquet format, and parquet-java's for the one column that Drill's reader gets
 * wrong.
 */
class DrillDropInTest {
  /** Every column but l_extendedprice, which Drill 1.22's own reader decodes wrongly (see TurboParquetDrillTest). */
  private static final String COLUMNS = "l_orderkey, l_partkey, l_suppkey, l_linenumber, l_quantity, l_discount, "
      + "l_tax, l_returnflag, l_linestatus, l_shipdate, l_commitdate, l_receiptdate, l_shipinstruct, l_shipmode, "
      + "l_comment";
  private static final int ROWS = 10_000;

  @Test
  void installedJarQueriesLikeDrillsParquetReader() throws Exception {
    DrillHome home = DrillHome.assemble("drill-home");
    Path work = home.work();
    for (Path jar : home.drillJars()) {
      assertFalse(jar.getFileName().toString().contains("-tests"), "test jar in jars/: " + jar);
    }
    pluginJarClashesWithNothing(home.installedPluginJar(), home.drillJars());
    // One drillbit in sqlline's JVM: its store on local disk, ports hunted from Drill's defaults.
    home.appendConf("drill-override.conf", "drill.exec: { port_hunt: true, sys.store.provider.local.path: \""
        + work.resolve("state/store") + "\" }");

    Path data = Files.createDirectories(work.resolve("data"));
    GeneratedFile file = TestFileGenerator.lineitemLike(data, ROWS, CompressionCodecName.ZSTD);
    String path = file.path().toAbsolutePath().toString();
    // The shipped conf turns the switch on: plain dfs queries read through turbo-parquet.
    String plain = "dfs.`" + path + "`";
    String builtIn = "table(dfs.`" + path + "`(type => 'parquet'))";
    String copy = "turbo_dropin_" + ProcessHandle.current().pid() + "_" + System.nanoTime();
    Config bootConf = ConfigFactory.parseFile(Paths.get("conf", "drill-override.conf").toFile());
    List<String> bootNames = bootConf.entrySet().stream().map(e -> e.getKey()).sorted().toList();
    List<String> script = List.of(
        marker("turbo"), "select " + COLUMNS + " from " + plain + ";",
        marker("parquet"), "select " + COLUMNS + " from " + builtIn + ";",
        marker("price"), "select l_extendedprice from " + plain + ";",
        marker("plan-plain"), "explain plan without implementation for select l_orderkey from " + plain + ";",
        marker("plan-built-in"), "explain plan without implementation for select l_orderkey from " + builtIn + ";",
        marker("boot"), "select name, num_val from sys.boot where name in ("
            + bootNames.stream().map(n -> "'" + n + "'").collect(Collectors.joining(", ")) + ") order by name;",
        // CTAS writes through Drill's Parquet writer and reads back through ours; the metadata cache too.
        marker("alter"), "alter session set `store.format` = 'parquet';",
        marker("ctas"), "create table dfs.tmp.`" + copy + "` as select l_orderkey, l_comment from " + plain
            + " where l_linenumber = 1;",
        marker("read-back"), "select count(*), sum(l_orderkey) from dfs.tmp.`" + copy + "`;",
        marker("expected"), "select count(*), sum(l_orderkey) from " + builtIn + " where l_linenumber = 1;",
        marker("refresh"), "refresh table metadata dfs.`" + data.toAbsolutePath() + "`;",
        marker("cached"), "explain plan without implementation for select l_orderkey from dfs.`"
            + data.toAbsolutePath() + "`;");
    List<List<String>> out;
    try {
      out = runSqlline(home, script);
    } finally {
      DrillHome.deleteRecursively(Paths.get("/tmp", copy));
    }

    List<String> viaTurbo = out.get(0);
    List<String> viaParquet = out.get(1);
    assertEquals(ROWS, viaParquet.size(), "rows through parquet");
    sameRows(viaParquet, viaTurbo);
    List<String> expectedPrices = OracleDigest.readColumn(file.path(), "l_extendedprice").entries().stream()
        .map(e -> BigDecimal.valueOf((Long) e.value(), 2).toString()).collect(Collectors.toList());
    List<String> prices = out.get(2).stream().map(DrillDropInTest::unquote).collect(Collectors.toList());
    sameRows(expectedPrices, prices);
    String plainPlan = String.join("\n", out.get(3));
    assertTrue(plainPlan.contains("groupscan=[TurboParquetGroupScan"), plainPlan);
    String builtInPlan = String.join("\n", out.get(4));
    assertTrue(builtInPlan.contains("groupscan=[ParquetGroupScan"), builtInPlan);
    // Every boot option of conf/drill-override.conf reached the drillbit with its value.
    List<String> expectedBoot = bootNames.stream().map(n -> n + "\t" + bootConf.getNumber(n)).toList();
    assertEquals(expectedBoot, out.get(5).stream().map(l -> l.replace("\"", "")).toList(), "sys.boot");
    assertTrue(out.get(7).size() == 1 && out.get(7).get(0).matches("\"0_0\"\t\"[1-9][0-9]*\""), "CTAS: " + out.get(7));
    assertEquals(out.get(9), out.get(8), "CTAS read back");
    assertTrue(String.join("\n", out.get(10)).contains("true"), "refresh: " + out.get(10));
    String cachedPlan = String.join("\n", out.get(11));
    assertTrue(cachedPlan.contains("TurboParquetGroupScan") && cachedPlan.contains("usedMetadataFile=true"), cachedPlan);
    // Drill drops the whole override file, logging only, if it cannot read it.
    String log = Files.readString(work.resolve("sqlline.err"));
    assertFalse(log.contains("Failures are obtained while loading file"), log);
  }

  /**
   * The plugin jar holds our product classes (relocated brotli under io.turboparquet.shaded), no tool's,
   * none of which a Drill jar has, and everything its classes use is in Drill's jars or in it (jdeps finds nothing missing).
   */
  private static void pluginJarClashesWithNothing(Path pluginJar, List<Path> drillJars) throws IOException {
    Set<String> ours = new HashSet<>();
    try (ZipFile zip = new ZipFile(pluginJar.toFile())) {
      zip.stream().map(ZipEntry::getName).filter(n -> n.endsWith(".class")).forEach(ours::add);
      assertTrue(zip.getEntry("drill-module.conf") != null, "drill-module.conf in " + pluginJar);
      assertTrue(zip.getEntry("META-INF/services/org.apache.hadoop.fs.FileSystem") == null,
          "the slow:// harness's registration in " + pluginJar);
    }
    // The tools (src/tools, src/jmh) stay out; jdeps below finds any product class that still uses one.
    assertEquals(List.of(), ours.stream().filter(n -> n.startsWith("io/turboparquet/fuzz/")
        || n.startsWith("io/turboparquet/storage/") || n.startsWith("io/turboparquet/drill/demo/")
        || n.startsWith("io/turboparquet/bench/")).toList(), "tool classes in " + pluginJar);
    assertTrue(ours.contains("io/turboparquet/drill/TurboParquetFormatPlugin.class"), "plugin class in the jar");
    assertEquals(List.of(), ours.stream().filter(n -> !n.startsWith("io/turboparquet/")).sorted().toList(),
        "classes outside io.turboparquet in " + pluginJar);
    assertTrue(ours.stream().anyMatch(n -> n.startsWith("io/turboparquet/shaded/org/brotli/dec/")), "relocated brotli");
    List<String> clashes = new ArrayList<>();
    for (Path jar : drillJars) {
      try (ZipFile zip = new ZipFile(jar.toFile())) {
        zip.stream().map(ZipEntry::getName).filter(ours::contains).forEach(n -> clashes.add(jar.getFileName() + ": " + n));
      }
    }
    assertEquals(List.of(), clashes, "classes of the plugin jar that Drill's jars also have");

    ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
    StringWriter report = new StringWriter();
    String classpath = drillJars.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
    int status = jdeps.run(new PrintWriter(report), new PrintWriter(report), "--multi-release", "17", "--missing-deps",
        "-cp", classpath, pluginJar.toString());
    String missing = report.toString().lines().filter(l -> !l.startsWith("Warning: split package"))
        .collect(Collectors.joining("\n"));
    assertEquals("", missing, "classes the plugin jar uses that neither it nor Drill's jars have (jdeps " + status + ")");
  }

  /** A query whose one-row answer separates the outputs of the script's queries. */
  private static String marker(String name) {
    return "select '#" + name + "' as marker from (values(1));";
  }

  /**
   * Runs the script in sqlline in a new JVM whose classpath is the Drill home's. Returns the output
   * lines after each marker.
   */
  private static List<List<String>> runSqlline(DrillHome home, List<String> script) throws Exception {
    Path work = home.work();
    Path sql = work.resolve("queries.sql");
    Files.write(sql, script);
    Path stdout = work.resolve("sqlline.out");
    Path stderr = work.resolve("sqlline.err");
    // C1 only, as the embedded drillbits of the other Drill tests (their execution's argLine in pom.xml).
    List<String> command = home.javaCommand(List.of("-Xmx1g", "-XX:MaxDirectMemorySize=1g", "-XX:TieredStopAtLevel=1"),
        "sqlline.SqlLine",
        List.of("-ac", "org.apache.drill.exec.client.DrillSqlLineApplication", "-u", "jdbc:drill:zk=local",
            "--outputformat=tsv", "--showHeader=false", "--silent=true", "--run=" + sql.toAbsolutePath()));
    Process drill = new ProcessBuilder(command).directory(work.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
    if (!drill.waitFor(4, TimeUnit.MINUTES)) {
      drill.destroyForcibly().waitFor();
      fail("sqlline did not finish in 4 minutes; see " + stdout + " and " + stderr);
    }
    assertEquals(0, drill.exitValue(), "sqlline failed: " + DrillHome.tail(stderr, 40) + "\nstdout: "
        + DrillHome.tail(stdout, 40));
    List<List<String>> outputs = new ArrayList<>();
    for (String line : Files.readAllLines(stdout, StandardCharsets.UTF_8)) {
      if (line.startsWith("\"#") && line.endsWith("\"")) {
        outputs.add(new ArrayList<>());
      } else if (!outputs.isEmpty()) {
        outputs.get(outputs.size() - 1).add(line);
      }
    }
    assertEquals(script.stream().filter(s -> s.contains("as marker")).count(), outputs.size(),
        "query outputs in " + stdout);
    return outputs;
  }

  /** The same rows in any order (fragments may return row groups in any order). */
  private static void sameRows(List<String> expected, List<String> actual) {
    List<String> e = expected.stream().sorted().toList();
    List<String> a = actual.stream().sorted().toList();
    assertEquals(e.size(), a.size(), "row count");
    for (int i = 0; i < e.size(); i++) {
      assertEquals(e.get(i), a.get(i), "sorted row " + i);
    }
  }

  private static String unquote(String tsvValue) {
    return tsvValue.startsWith("\"") && tsvValue.endsWith("\"") ? tsvValue.substring(1, tsvValue.length() - 1) : tsvValue;
  }
}
