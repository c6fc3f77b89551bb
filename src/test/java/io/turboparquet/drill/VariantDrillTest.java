package io.turboparquet.drill;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.turboparquet.format.VariantJson;
import io.turboparquet.testing.ShreddedVariantCases;
import io.turboparquet.testing.ShreddedVariantCases.Case;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.drill.test.ClusterTest;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * parquet-testing's {@code shredded_variant/} suite in Drill: a VARIANT column reads as VARCHAR
 * holding the JSON of each case's expected {@code .variant.bin}, which {@code convert_fromJSON}
 * turns into a map; with {@code variantAsBinary} as VARBINARY holding those bytes; every error case
 * fails its query naming the file and what is wrong.
 */
public class VariantDrillTest extends ClusterTest {
  @BeforeClass
  public static void setup() throws Exception {
    startCluster(EmbeddedDrill.builder(dirTestWatcher).maxParallelization(1));
    for (Case c : ShreddedVariantCases.all()) {
      Files.copy(c.file(), dirTestWatcher.getRootDir().toPath().resolve(c.file().getFileName()));
    }
  }

  private static String table(Case c, String properties) {
    return "table(dfs.`" + c.file().getFileName() + "`(type => '" + TurboParquetFormatConfig.NAME + "'" + properties + "))";
  }

  @Test
  public void everyCaseReadsAsJsonOrFailsClearly() throws Exception {
    int rows = 0;
    int refused = 0;
    for (Case c : ShreddedVariantCases.all()) {
      String sql = "select var from " + table(c, "");
      if (c.errorPhrase() != null) {
        Exception e = assertThrows(c.name(), Exception.class, () -> Result.of(client, sql));
        assertTrue(c.name() + ": " + e.getMessage(), e.getMessage().contains(c.file().getFileName().toString())
            && e.getMessage().contains("column var") && e.getMessage().contains(c.errorPhrase()));
        refused++;
        continue;
      }
      Result r = Result.of(client, sql);
      List<List<String>> expected = new ArrayList<>();
      for (byte[] v : c.rows()) {
        expected.add(List.of(v == null ? "null" : VariantJson.of(v)));
      }
      assertEquals(c.name(), expected, r.cells());
      assertTrue(c.name() + ": " + r.schema(), r.schema().get(0).contains("minor_type: VARCHAR"));
      rows += expected.size();
    }
    assertEquals(136, rows);
    assertEquals(8, refused);
  }

  /** A star query: the other columns through Drill's converters, the VARIANT beside them as JSON. */
  @Test
  public void starQueryReadsEveryColumn() throws Exception {
    Case c = ShreddedVariantCases.all().stream().filter(x -> x.number() == 83).findFirst().orElseThrow();
    Result r = Result.of(client, "select * from " + table(c, ""));
    List<List<String>> expected = new ArrayList<>();
    for (int i = 0; i < c.rows().size(); i++) {
      byte[] v = c.rows().get(i);
      expected.add(List.of(String.valueOf(i), v == null ? "null" : VariantJson.of(v)));
    }
    assertEquals(expected, r.cells());
    assertTrue(r.schema().toString(), r.schema().get(0).startsWith("id ") && r.schema().get(1).startsWith("var "));
  }

  /**
   * A directory of every valid case, shredded differently file by file (lists, objects, each
   * primitive, unshredded): Drill plans the VARIANT as the one column the reader gives, so the
   * directory reads as the union of its files, as VARCHAR JSON and as VARBINARY.
   */
  @Test
  public void aDirectoryOfDifferentlyShreddedFilesReadsAsOneColumn() throws Exception {
    java.nio.file.Path dir = dirTestWatcher.getRootDir().toPath().resolve("shredded_dir");
    Files.createDirectories(dir);
    List<List<String>> json = new ArrayList<>();
    List<List<String>> binary = new ArrayList<>();
    int files = 0;
    for (Case c : ShreddedVariantCases.all()) {
      if (c.errorPhrase() == null) {
        Files.copy(c.file(), dir.resolve(c.file().getFileName()));
        files++;
        for (byte[] v : c.rows()) {
          json.add(List.of(String.valueOf(c.number()), v == null ? "null" : VariantJson.of(v)));
          binary.add(List.of(String.valueOf(c.number()), v == null ? "null" : HexFormat.of().formatHex(v)));
        }
      }
    }
    assertTrue("files: " + files, files > 100);
    String query = "select cast(substr(filename, 6, 3) as int) as n, var from table(dfs.`shredded_dir`(type => '"
        + TurboParquetFormatConfig.NAME + "'%s)) order by n, id";
    Result text = Result.of(client, String.format(query, ""));
    assertEquals(sorted(json), text.cells());
    assertTrue(text.schema().toString(), text.schema().get(1).contains("minor_type: VARCHAR"));
    Result bytes = Result.of(client, String.format(query, ", variantAsBinary => true"));
    assertEquals(sorted(binary), bytes.cells());
    assertTrue(bytes.schema().toString(), bytes.schema().get(1).contains("minor_type: VARBINARY"));
  }

  /** Rows in the query's order: by case number (numerically), then by row within a file. */
  private static List<List<String>> sorted(List<List<String>> rows) {
    List<List<String>> out = new ArrayList<>(rows);
    out.sort(java.util.Comparator.comparingInt(r -> Integer.parseInt(r.get(0))));
    return out;
  }

  @Test
  public void convertFromJsonMakesAMap() throws Exception {
    Case c = ShreddedVariantCases.all().stream().filter(x -> x.number() == 134).findFirst().orElseThrow();
    Result r = Result.of(client, "select t.v.b as b, t.v.d as d, t.v.a as a from (select convert_fromJSON(var) as v from "
        + table(c, "") + ") t");
    assertEquals(List.of(List.of("iceberg", "2024-01-30", "null")), r.cells());
  }

  @Test
  public void variantAsBinaryGivesTheVariantBytes() throws Exception {
    for (Case c : ShreddedVariantCases.all()) {
      if (c.number() != 83 && c.number() != 136) {
        continue;
      }
      Result r = Result.of(client, "select id, var from " + table(c, ", variantAsBinary => true"));
      List<List<String>> cells = r.cells();
      assertEquals(c.name(), c.rows().size(), cells.size());
      for (int i = 0; i < cells.size(); i++) {
        byte[] v = c.rows().get(i);
        assertEquals(c.name() + " row " + i, v == null ? "null" : HexFormat.of().formatHex(v), cells.get(i).get(1));
      }
      assertTrue(r.schema().toString(), r.schema().get(1).contains("minor_type: VARBINARY"));
    }
  }
}
