package io.turboparquet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.format.VariantJson;
import io.turboparquet.testing.ShreddedVariantCases;
import io.turboparquet.testing.ShreddedVariantCases.Case;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code head} and {@code meta} on parquet-testing's {@code shredded_variant/} suite: {@code head}
 * prints each row's VARIANT as the JSON of the case's expected {@code .variant.bin} (rebuilt by the
 * renderer's own path, from the level ranges of the row), refuses the error cases naming file, row
 * group and column; {@code meta} names the VARIANT group.
 */
class VariantCliTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static List<String> run(String... args) throws IOException {
    return MainTest.run(args);
  }

  @Test
  void headPrintsEachVariantAsJson() throws IOException {
    int rows = 0;
    int refused = 0;
    for (Case c : ShreddedVariantCases.all()) {
      if (c.errorPhrase() != null) {
        ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class,
            () -> run("head", c.file().toString()), c.name());
        assertTrue(e.getMessage().contains(c.file().getFileName().toString()) && e.getMessage().contains("row group 0")
            && e.getMessage().contains("column var") && e.getMessage().contains(c.errorPhrase()), e.getMessage());
        refused++;
        continue;
      }
      List<String> lines = run("head", c.file().toString(), "-n", "100");
      assertEquals(c.rows().size(), lines.size(), c.name());
      for (int r = 0; r < lines.size(); r++) {
        JsonNode var = JSON.readTree(lines.get(r)).get("var");
        byte[] want = c.rows().get(r);
        assertEquals(want == null ? JSON.nullNode() : JSON.readTree(VariantJson.of(want)), var, c.name() + " row " + r);
        rows++;
      }
    }
    // 129 cases read (three of them several rows); 6 error cases and the 2 INVALID ones we refuse.
    assertEquals(136, rows, "rows printed");
    assertEquals(8, refused, "cases refused");
  }

  @Test
  void metaNamesTheVariantGroup() throws IOException {
    List<String> lines = run("meta", ShreddedVariantCases.DIR.resolve("case-134.parquet").toString());
    int group = lines.indexOf("  var  VARIANT(1)  OPTIONAL  group read as one shredded Variant value (head: JSON)");
    assertTrue(group > 0, String.join("\n", lines));
    assertTrue(lines.get(group + 1).startsWith("  var.metadata  BYTE_ARRAY"), "the group's line comes before its leaves");
    List<String> unshredded = run("meta", ShreddedVariantCases.DIR.resolve("case-047.parquet").toString());
    assertTrue(unshredded.contains("  var  VARIANT(1)  REQUIRED  group read as one Variant value (head: JSON)"),
        String.join("\n", unshredded));
  }
}
