package io.turboparquet.drill;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.turboparquet.format.GeospatialTest;
import io.turboparquet.testing.CorpusFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.drill.test.ClusterTest;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * parquet-testing's geospatial files in Drill: a GEOMETRY or GEOGRAPHY column reads as VARBINARY
 * holding each row's WKB (what Drill's ST_GeomFromWKB takes), value for value as the core reads it
 * (which GeospatialTest holds to parquet-java 1.18.1), and filters on the other columns plan and
 * run over those files.
 */
public class GeospatialDrillTest extends ClusterTest {
  private static final List<String> FILES = List.of("geospatial.parquet", "crs-srid.parquet",
      "geography-polygons.parquet", "geospatial-with-nan.parquet");

  @BeforeClass
  public static void setup() throws Exception {
    startCluster(EmbeddedDrill.builder(dirTestWatcher).maxParallelization(1));
    for (String name : FILES) {
      Files.copy(CorpusFiles.dir().resolve("geospatial").resolve(name),
          dirTestWatcher.getRootDir().toPath().resolve(name));
    }
  }

  @Test
  public void geometriesReadAsTheirWkb() throws Exception {
    for (String name : FILES) {
      Path file = CorpusFiles.dir().resolve("geospatial").resolve(name);
      String column = "geometry";
      List<List<String>> expected = new ArrayList<>();
      for (byte[] v : GeospatialTest.values(file, column)) {
        expected.add(List.of(v == null ? "null" : HexFormat.of().formatHex(v)));
      }
      Result r = Result.of(client, "select `" + column + "` from " + table(name));
      assertEquals(name, expected, r.cells());
      assertTrue(name + ": " + r.schema(), r.schema().get(0).contains("minor_type: VARBINARY"));
    }
  }

  @Test
  public void filtersOnOtherColumnsPlanAndRun() throws Exception {
    Path file = CorpusFiles.dir().resolve("geospatial").resolve("geospatial.parquet");
    List<byte[]> groups = GeospatialTest.values(file, "group");
    List<byte[]> geometries = GeospatialTest.values(file, "geometry");
    long expected = 0;
    for (int i = 0; i < groups.size(); i++) {
      if (groups.get(i) != null && new String(groups.get(i)).compareTo("m") > 0 && geometries.get(i) != null) {
        expected++;
      }
    }
    Result r = Result.of(client, "select count(*) from " + table("geospatial.parquet")
        + " where `group` > 'm' and geometry is not null");
    assertEquals(String.valueOf(expected), r.cells().get(0).get(0));
    assertTrue("a filter that keeps some rows and drops others: " + expected, expected > 0 && expected < groups.size());
  }

  /** Drill's own reader (parquet-java 1.15) cannot read these files at all: why turbo's reading matters. */
  @Test
  public void theBuiltInReaderFailsOnThem() {
    Exception e = org.junit.Assert.assertThrows(Exception.class,
        () -> Result.of(client, "select geometry from table(dfs.`geospatial.parquet`(type => 'parquet'))"));
    assertTrue(e.getMessage(), e.getMessage().contains("NullPointerException"));
  }

  private static String table(String name) {
    return "table(dfs.`" + name + "`(type => '" + TurboParquetFormatConfig.NAME + "'))";
  }
}
