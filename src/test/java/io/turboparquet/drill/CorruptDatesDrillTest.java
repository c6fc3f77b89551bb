package io.turboparquet.drill;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.apache.drill.exec.store.parquet.ParquetReaderUtility;
import org.apache.drill.test.ClusterTest;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Dates in files of Drill before 1.9 (DRILL-4203), which wrote them shifted by twice the Julian
 * day of the Unix epoch. Drill's reader detects such files (from the writer's metadata, else
 * from date statistics above the year 5000, else value by value) and shifts the dates back,
 * unless {@code autoCorrectCorruptDates} is off. Turbo must return the same rows and prune the
 * same row groups, through the switch ({@code tdfs}) and through table functions with the
 * option either way. The files are Drill's own test files (from its tests jar): Drill 1.2, 1.4,
 * 1.6 and 1.9 files, one without statistics, partitioned directories, nulls.
 */
public class CorruptDatesDrillTest extends ClusterTest {

  private static final String DATES = "parquet/4203_corrupt_dates";

  @BeforeClass
  public static void setup() throws Exception {
    startCluster(EmbeddedDrill.builder(dirTestWatcher).maxParallelization(1));
    SwitchDrillTest.defineSwitch(cluster, "tdfs");
    Path root = dirTestWatcher.getRootDir().toPath();
    copyDrillResources(DATES + "/", root.resolve("dates"));
    copyDrillResources("parquetFilterPush/dateTblCorrupted/", root.resolve("dateTblCorrupted"));
    copyDrillResources(DATES + "/partitioned_with_corruption_4203/", root.resolve("cached"));
    writeShiftedDates(root.resolve("shifted.parquet"));
  }

  /**
   * A file as Drill 1.4 would have written it (its version in the footer, no writer version),
   * dates shifted, but large and written by parquet-java: 200,000 rows sorted by date in pages of
   * 1,000 rows with a page index, so that a date filter reaches page skipping and late
   * materialization, which must not judge the shifted values.
   */
  private static void writeShiftedDates(Path file) throws IOException {
    MessageType schema = MessageTypeParser.parseMessageType(
        "message t { required int32 d (DATE); required int64 id; optional binary s (UTF8); }");
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file.toUri()))
        .withConf(new Configuration()).withType(schema).withPageRowCountLimit(1_000)
        .withExtraMetaData(Map.of("drill.version", "1.4.0")).build()) {
      for (int i = 0; i < 200_000; i++) {
        Group g = groups.newGroup();
        g.add("d", (int) (7_300 + i / 100 + ParquetReaderUtility.CORRECT_CORRUPT_DATE_SHIFT)); // 1989-12-27 on
        g.add("id", (long) i);
        if (i % 7 != 0) {
          g.add("s", "s" + i);
        }
        w.write(g);
      }
    }
  }

  /** Copies the files under {@code prefix} in Drill's tests jar to {@code target} (not its cache-file templates). */
  private static void copyDrillResources(String prefix, Path target) throws IOException {
    URL url = CorruptDatesDrillTest.class.getClassLoader().getResource(prefix);
    assertTrue("Drill's tests jar holds " + prefix, url != null && url.getProtocol().equals("jar"));
    JarURLConnection connection = (JarURLConnection) url.openConnection();
    connection.setUseCaches(false);
    int copied = 0;
    try (JarFile jar = connection.getJarFile()) {
      for (Enumeration<JarEntry> entries = jar.entries(); entries.hasMoreElements(); ) {
        JarEntry entry = entries.nextElement();
        if (entry.getName().startsWith(prefix) && !entry.isDirectory() && !entry.getName().endsWith(".txt")) {
          Path file = target.resolve(entry.getName().substring(prefix.length()));
          Files.createDirectories(file.getParent());
          try (InputStream in = jar.getInputStream(entry)) {
            Files.copy(in, file);
          }
          copied++;
        }
      }
    }
    assertTrue(prefix + ": " + copied + " files", copied > 0);
  }

  @Test
  public void sameDatesAsTheBuiltInReader() throws Exception {
    for (String table : List.of("dates/mixed_drill_versions", "dates/partitioned_with_corruption_4203",
        "dates/partitioned_with_corruption_4203_1_2", "dates/1_9_0_partitioned_no_corruption",
        "dates/null_date_cols_with_corruption_4203.parquet", "dates/correct_dates_and_old_drill_parquet_writer.parquet",
        "dates/fewtypes_datepartition", "dates/fewtypes_varcharpartition", "dates/hive1dot2_fewtypes_null",
        "dateTblCorrupted")) {
      same("select * from %s.`" + table + "`");
    }
  }

  @Test
  public void samePruningOnCorrectedDates() throws Exception {
    // 1.4's files (metadata unclear, statistics corrupt): planning prunes on the corrected bounds.
    String partitioned = "dates/partitioned_with_corruption_4203";
    same("select date_col from %s.`" + partitioned + "` where date_col = date '1970-01-01'");
    same("select date_col from %s.`" + partitioned + "` where date_col > date '1970-01-01'");
    same("select count(*) from %s.`" + partitioned + "` where date_col <= date '1970-01-02'");
    same("select * from %s.`dateTblCorrupted` where o_orderdate between date '1992-01-01' and date '1992-01-03'");
    // A sorted file with a page index: the pages that hold these dates, found on corrected values.
    same("select id, s, d from %s.`shifted.parquet` where d between date '1990-01-05' and date '1990-01-06'");
    same("select count(s) from %s.`shifted.parquet` where d = date '1990-02-01' or d >= date '1995-06-01'");
    // The 0.6 file has no statistics: every value is tested and shifted where it looks corrupt.
    same("select date_col from %s.`dates/mixed_drill_versions` where date_col = date '1970-01-01'");
  }

  @Test
  public void correctionOffAsTheBuiltInReader() throws Exception {
    for (String table : List.of("dates/mixed_drill_versions", "dates/partitioned_with_corruption_4203",
        "dates/1_9_0_partitioned_no_corruption")) {
      String sql = "select * from table(dfs.`" + table + "`(type => '%s', autoCorrectCorruptDates => false))";
      Result expected = Result.of(client, String.format(sql, "parquet"));
      Result actual = Result.of(client, String.format(sql, TurboParquetFormatConfig.NAME));
      assertEquals(sql, expected.schema(), actual.schema());
      assertEquals(sql, expected.rows(), actual.rows());
      String plan = client.queryBuilder().sql(String.format(sql, TurboParquetFormatConfig.NAME)).explainText();
      assertTrue(plan, plan.contains("TurboParquetGroupScan"));
    }
  }

  /** A metadata cache written by Drill's refresh (its statistics corrected) plans the same scans. */
  @Test
  public void metadataCacheOfShiftedDates() throws Exception {
    List<String> refreshed = Result.of(client, "refresh table metadata tdfs.`cached`").cells().get(0);
    assertEquals(refreshed.toString(), "true", refreshed.get(0));
    same("select date_col from %s.`cached` where date_col = date '1970-01-01'");
    same("select date_col from %s.`cached` where date_col >= date '1970-01-02'");
    assertTrue(ScanPlan.of(client, "select date_col from tdfs.`cached`").usedMetadataFile());
  }

  /** With {@code store.parquet.use_new_reader} both formats read through Drill's nested reader's converters. */
  @Test
  public void nestedReaderPathCorrectsAsTheBuiltInReader() throws Exception {
    client.alterSession("store.parquet.use_new_reader", true);
    try {
      same("select * from %s.`dates/mixed_drill_versions`");
      same("select * from %s.`dates/null_date_cols_with_corruption_4203.parquet`");
      String off = "select * from table(dfs.`dates/mixed_drill_versions`(type => '%s', autoCorrectCorruptDates => false))";
      Result expected = Result.of(client, String.format(off, "parquet"));
      assertEquals(off, expected.rows(), Result.of(client, String.format(off, TurboParquetFormatConfig.NAME)).rows());
    } finally {
      client.resetSession("store.parquet.use_new_reader");
    }
  }

  /** Same schema, rows, files and row groups through the built-in reader and through the switch. */
  private static void same(String sql) throws Exception {
    String builtIn = String.format(sql, "dfs");
    String turbo = String.format(sql, "tdfs");
    Result expected = Result.of(client, builtIn);
    Result actual = Result.of(client, turbo);
    assertTrue(sql + " returns rows", !expected.rows().isEmpty());
    assertEquals(sql, expected.schema(), actual.schema());
    assertEquals(sql, expected.rows(), actual.rows());
    String turboPlan = client.queryBuilder().sql(turbo).explainText();
    if (turboPlan.contains("TurboParquetGroupScan")) {
      ScanPlan b = ScanPlan.of(client, builtIn);
      ScanPlan t = ScanPlan.of(client, turbo);
      assertEquals(sql + " files", b.files(), t.files());
      assertEquals(sql + " row groups", b.rowGroups(), t.rowGroups());
    }
  }
}
