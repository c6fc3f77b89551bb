package io.turboparquet.drill;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.turboparquet.format.VariantJson;
import io.turboparquet.testing.NestedVariantRows;
import io.turboparquet.testing.NestedVariantRows.Row;
import io.turboparquet.testing.ParquetJava118;
import io.turboparquet.testing.ShreddedVariantCases;
import io.turboparquet.testing.ShreddedVariantCases.Case;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.drill.test.ClusterTest;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * VARIANTs nested in a struct ({@code s.v}), a list ({@code vl}) and a map's values ({@code m}) in
 * Drill, in files parquet-java 1.18.1 writes from {@link NestedVariantRows}' JSON, shredded and
 * not: each reads as VARCHAR holding exactly that JSON (as {@code head} prints it), null where the
 * group is null; list elements line up with Drill's list (null elements dropped, as Drill drops
 * them from every list); {@code convert_fromJSON} makes maps of them; {@code variantAsBinary} gives
 * VARBINARY Variants of the same values; an invalid one fails naming file and column.
 */
public class NestedVariantDrillTest extends ClusterTest {
  private static final List<String> FILES = List.of("nested_unshredded.parquet", "nested_shredded.parquet");

  @BeforeClass
  public static void setup() throws Exception {
    startCluster(EmbeddedDrill.builder(dirTestWatcher).maxParallelization(1));
    // One child JVM writes them all.
    ParquetJava118.runAll(List.of(
        ParquetJava118.writeNestedVariantArgs(dirTestWatcher.getRootDir().toPath().resolve(FILES.get(0)), false),
        ParquetJava118.writeNestedVariantArgs(dirTestWatcher.getRootDir().toPath().resolve(FILES.get(1)), true),
        ParquetJava118.writeInvalidNestedVariantArgs(dirTestWatcher.getRootDir().toPath().resolve("nested_invalid.parquet"))));
  }

  private static String table(String file, String properties) {
    return "table(dfs.`" + file + "`(type => '" + TurboParquetFormatConfig.NAME + "'" + properties + ")) t";
  }

  @Test
  public void structFieldReadsAsJson() throws Exception {
    for (String file : FILES) {
      Result r = Result.of(client, "select id, t.s.v as v, t.s.v is null as n from " + table(file, ""));
      List<List<String>> expected = new ArrayList<>();
      for (Row row : NestedVariantRows.ROWS) {
        String v = row.s() == null ? null : row.s().v();
        expected.add(List.of(String.valueOf(row.id()), String.valueOf(v), String.valueOf(v == null)));
      }
      assertEquals(file, expected, r.cells());
      assertTrue(r.schema().toString(), r.schema().get(1).contains("minor_type: VARCHAR"));
    }
  }

  @Test
  public void listElementsLineUpWithDrillsList() throws Exception {
    for (String file : FILES) {
      List<List<String>> expected = new ArrayList<>();
      List<List<String>> counts = new ArrayList<>();
      for (Row row : NestedVariantRows.ROWS) {
        int n = 0;
        for (String e : row.vl() == null ? List.<String>of() : row.vl()) {
          if (e != null) { // Drill's lists hold no nulls: its converters drop null elements
            expected.add(List.of(String.valueOf(row.id()), e));
            n++;
          }
        }
        counts.add(List.of(String.valueOf(row.id()), String.valueOf(n)));
      }
      assertEquals(file, expected, Result.of(client, "select id, flatten(t.vl) as e from " + table(file, "")).cells());
      assertEquals(file, counts, Result.of(client, "select id, repeated_count(t.vl) as n from " + table(file, ""))
          .cells());
      // An element by index: row 0's second.
      assertEquals(file, List.of(List.of("7")), Result.of(client, "select t.vl[1] as e from " + table(file, "")
          + " where t.id = 0").cells());
    }
  }

  @Test
  public void mapValuesReadAsJson() throws Exception {
    for (String file : FILES) {
      List<List<String>> expected = new ArrayList<>();
      for (Row row : NestedVariantRows.ROWS) {
        String k = row.m() == null ? null : row.m().get("k");
        expected.add(List.of(String.valueOf(row.id()), String.valueOf(k)));
      }
      assertEquals(file, expected, Result.of(client, "select id, t.m['k'] as k from " + table(file, "")).cells());
    }
  }

  @Test
  public void convertFromJsonMakesMaps() throws Exception {
    for (String file : FILES) {
      Result r = Result.of(client, "select j.v.a as a, j.v.c[2] as c2, j.e.a as ea from (select convert_fromJSON(t.s.v)"
          + " as v, convert_fromJSON(t.vl[0]) as e from " + table(file, "") + " where t.id = 0) j");
      assertEquals(file, List.of(List.of("hello", "3", "p")), r.cells());
    }
  }

  @Test
  public void starQueryTypesEachVariantAsVarchar() throws Exception {
    for (String file : FILES) {
      Result r = Result.of(client, "select * from " + table(file, ""));
      assertEquals(file, NestedVariantRows.ROWS.size(), r.cells().size());
      List<String> schema = r.schema();
      assertTrue(schema.toString(), schema.get(0).startsWith("id ") && schema.get(1).startsWith("s ")
          && schema.get(1).contains("minor_type: MAP") && schema.get(2).startsWith("vl ")
          && schema.get(2).contains("minor_type: VARCHAR") && schema.get(2).contains("mode: REPEATED")
          && schema.get(3).startsWith("m ") && schema.get(3).contains("minor_type: DICT"));
      // The struct's members, name and v: its VARIANT a string, not a map of metadata, value and typed_value.
      Row first = NestedVariantRows.ROWS.get(0);
      assertEquals(file, "[" + first.s().name() + ", " + first.s().v() + "]", r.cells().get(0).get(1));
    }
  }

  @Test
  public void variantAsBinaryGivesVariants() throws Exception {
    for (String file : FILES) {
      Result r = Result.of(client, "select id, t.s.v as v from " + table(file, ", variantAsBinary => true"));
      assertTrue(r.schema().toString(), r.schema().get(1).contains("minor_type: VARBINARY"));
      for (int i = 0; i < NestedVariantRows.ROWS.size(); i++) {
        Row row = NestedVariantRows.ROWS.get(i);
        String v = row.s() == null ? null : row.s().v();
        String cell = r.cells().get(i).get(1);
        assertEquals(file + " row " + i, String.valueOf(v), v == null ? cell : VariantJson.of(HexFormat.of().parseHex(cell)));
      }
      List<String> elements = new ArrayList<>();
      for (List<String> cells : Result.of(client, "select flatten(t.vl) as e from "
          + table(file, ", variantAsBinary => true")).cells()) {
        elements.add(VariantJson.of(HexFormat.of().parseHex(cells.get(0))));
      }
      List<String> expected = new ArrayList<>();
      NestedVariantRows.ROWS.stream().filter(x -> x.vl() != null)
          .forEach(x -> x.vl().stream().filter(e -> e != null).forEach(expected::add));
      assertEquals(file, expected, elements);
    }
  }

  /**
   * parquet-testing's shredded_variant cases, each case's VARIANT columns copied verbatim into
   * {@code s.v} and both elements of {@code vl}: every value reads as the JSON of the case's
   * expected {@code .variant.bin}, in both places; every error case fails naming the nested column.
   */
  @Test
  public void everyShreddedVariantCaseNested() throws Exception {
    java.nio.file.Path dir = dirTestWatcher.getRootDir().toPath().resolve("nested_cases");
    java.nio.file.Files.createDirectories(dir);
    List<Case> cases = ShreddedVariantCases.all();
    ParquetJava118.nestVariantCases(dir, cases.stream().map(Case::file).toList());
    int values = 0;
    int refused = 0;
    for (Case c : cases) {
      String t = table("nested_cases/" + c.file().getFileName(), "");
      String struct = "select id, t.s.v as v, t.s.v is null as n from " + t;
      String list = "select id, flatten(t.vl) as e from " + t;
      if (c.errorPhrase() != null) {
        for (String[] q : new String[][] {{struct, "column s.v"}, {list, "column vl.list.element"}}) {
          Exception e = assertThrows(c.name(), Exception.class, () -> Result.of(client, q[0]));
          assertTrue(c.name() + ": " + e.getMessage(), e.getMessage().contains(c.file().getFileName().toString())
              && e.getMessage().contains(q[1]) && e.getMessage().contains(c.errorPhrase()));
        }
        refused++;
        continue;
      }
      // One query per case: the struct's VARIANT, its null test, and the list of its two copies
      // (Drill drops null elements from lists, so a null VARIANT leaves an empty list).
      List<List<String>> rows = new ArrayList<>();
      for (int i = 0; i < c.rows().size(); i++) {
        byte[] v = c.rows().get(i);
        String json = v == null ? null : VariantJson.of(v);
        rows.add(List.of(String.valueOf(i), String.valueOf(json), String.valueOf(json == null),
            (json == null ? List.of() : List.of(json, json)).toString()));
        values += json == null ? 0 : 1;
      }
      rows.add(List.of(String.valueOf(c.rows().size()), "null", "true", "[]")); // s and vl null
      assertEquals(c.name(), rows, Result.of(client, "select id, t.s.v as v, t.s.v is null as n, t.vl as l from "
          + t).cells());
    }
    assertEquals(8, refused);
    assertTrue(String.valueOf(values), values >= 129);
  }

  @Test
  public void invalidNestedVariantFailsNamingFileAndColumn() {
    Exception e = assertThrows(Exception.class, () -> Result.of(client, "select t.s.v from "
        + table("nested_invalid.parquet", "")));
    assertTrue(e.getMessage(), e.getMessage().contains("nested_invalid.parquet") && e.getMessage().contains("row group 0")
        && e.getMessage().contains("column s.v") && e.getMessage().contains("row 1"));
  }
}
