package io.turboparquet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.format.VariantJson;
import io.turboparquet.testing.NestedVariantRows;
import io.turboparquet.testing.NestedVariantRows.Row;
import io.turboparquet.testing.ParquetJava118;
import io.turboparquet.testing.ShreddedVariantCases;
import io.turboparquet.testing.ShreddedVariantCases.Case;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code head} and {@code meta} on VARIANTs nested in a struct, a list and a map's values, in files
 * parquet-java 1.18.1 writes (shredded and not) from {@link NestedVariantRows}' JSON: each VARIANT
 * prints as exactly that JSON, null groups and elements as null; {@code meta} names every VARIANT group.
 */
class NestedVariantCliTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  private static List<String> run(String... args) throws IOException {
    return MainTest.run(args);
  }

  @Test
  void headPrintsNestedVariantsAsJson() throws Exception {
    // One child JVM writes both files.
    ParquetJava118.runAll(List.of(ParquetJava118.writeNestedVariantArgs(dir.resolve("unshredded.parquet"), false),
        ParquetJava118.writeNestedVariantArgs(dir.resolve("shredded.parquet"), true)));
    for (boolean shredded : new boolean[] {false, true}) {
      Path file = dir.resolve(shredded ? "shredded.parquet" : "unshredded.parquet");
      List<String> lines = run("head", file.toString(), "-n", "100");
      assertEquals(NestedVariantRows.ROWS.size(), lines.size(), file.toString());
      for (int r = 0; r < lines.size(); r++) {
        Row row = NestedVariantRows.ROWS.get(r);
        assertEquals(expected(row), JSON.readTree(lines.get(r)), file + " row " + r);
        if (row.s() != null && row.s().v() != null) { // the very text, not only an equal JSON value
          assertTrue(lines.get(r).contains("\"v\": " + row.s().v() + "}"), lines.get(r));
        }
      }
      if (shredded) { // parquet-java did shred: values in typed_value columns of each VARIANT
        List<String> digest = run("digest", file.toString());
        for (String column : List.of("s.v.typed_value.a.typed_value", "s.v.typed_value.b.typed_value",
            "vl.list.element.typed_value.list.element.typed_value", "m.key_value.value.typed_value")) {
          String line = digest.stream().filter(l -> l.startsWith(column + "\t")).findFirst().orElseThrow();
          assertTrue(Long.parseLong(line.split("\t")[2]) > 0, line);
        }
      }
      List<String> meta = run("meta", file.toString());
      String kind = shredded ? "shredded " : "";
      for (String group : List.of("s.v", "vl.list.element", "m.key_value.value")) {
        assertTrue(meta.contains("  " + group + "  VARIANT(1)  OPTIONAL  group read as one " + kind
            + "Variant value (head: JSON)"), group + "\n" + String.join("\n", meta));
      }
    }
  }

  /**
   * parquet-testing's shredded_variant cases copied into {@code s.v} and both elements of
   * {@code vl} (as NestedVariantDrillTest reads them in Drill): {@code head} prints the JSON of each
   * case's expected {@code .variant.bin} in both places and refuses the error cases naming the
   * nested column.
   */
  @Test
  void headPrintsEveryShreddedVariantCaseNested() throws Exception {
    List<Case> cases = ShreddedVariantCases.all();
    ParquetJava118.nestVariantCases(dir, cases.stream().map(Case::file).toList());
    int refused = 0;
    for (Case c : cases) {
      Path file = dir.resolve(c.file().getFileName());
      if (c.errorPhrase() != null) {
        ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class,
            () -> run("head", file.toString(), "-n", "100"), c.name());
        assertTrue(e.getMessage().contains(file.getFileName().toString()) && e.getMessage().contains("column s.v")
            && e.getMessage().contains(c.errorPhrase()), e.getMessage());
        refused++;
        continue;
      }
      List<String> lines = run("head", file.toString(), "-n", "100");
      assertEquals(c.rows().size() + 1, lines.size(), c.name());
      for (int r = 0; r < c.rows().size(); r++) {
        byte[] want = c.rows().get(r);
        JsonNode v = want == null ? JSON.nullNode() : JSON.readTree(VariantJson.of(want));
        JsonNode row = JSON.readTree(lines.get(r));
        assertEquals(v, row.get("s").get("v"), c.name() + " row " + r);
        ArrayNode vl = JSON.createArrayNode().add(v).add(v);
        assertEquals(vl, row.get("vl"), c.name() + " row " + r);
      }
      JsonNode last = JSON.readTree(lines.get(c.rows().size()));
      assertTrue(last.get("s").isNull() && last.get("vl").isNull(), lines.get(c.rows().size()));
    }
    assertEquals(8, refused);
  }

  /** The row as head prints it: a VARIANT as its JSON, a null group or element as null. */
  private static JsonNode expected(Row row) throws IOException {
    ObjectNode o = JSON.createObjectNode();
    o.put("id", row.id());
    if (row.s() == null) {
      o.putNull("s");
    } else {
      ObjectNode s = o.putObject("s");
      s.put("name", row.s().name());
      s.set("v", json(row.s().v()));
    }
    if (row.vl() == null) {
      o.putNull("vl");
    } else {
      ArrayNode vl = o.putArray("vl");
      for (String e : row.vl()) {
        vl.add(json(e));
      }
    }
    if (row.m() == null) {
      o.putNull("m");
    } else {
      ObjectNode m = o.putObject("m");
      for (Map.Entry<String, String> e : row.m().entrySet()) {
        m.set(e.getKey(), json(e.getValue()));
      }
    }
    return o;
  }

  private static JsonNode json(String text) throws IOException {
    return text == null ? JSON.nullNode() : JSON.readTree(text);
  }
}
