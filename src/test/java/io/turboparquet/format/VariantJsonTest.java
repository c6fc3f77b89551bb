package io.turboparquet.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import io.turboparquet.testing.ShreddedVariantCases;
import org.junit.jupiter.api.Test;

/**
 * {@link VariantJson} (Spark's {@code to_json} conventions) and the checks of {@link VariantMetadata}
 * and {@link VariantValue}: the JSON of every {@code .variant.bin} of parquet-testing's
 * {@code shredded_variant/} equals the JSON derived from the case's own description in cases.json
 * (Iceberg's {@code Variant.toString}); values the corpus lacks; and hostile bytes.
 */
class VariantJsonTest {
  static final Path DIR = ShreddedVariantCases.DIR;

  @Test
  void corpusValuesRenderAsTheirDescriptionsSay() throws Exception {
    int checked = 0;
    for (JsonNode c : new ObjectMapper().readTree(DIR.resolve("cases.json").toFile())) {
      List<String> files = new ArrayList<>();
      List<String> descriptions = new ArrayList<>();
      if (c.has("variant_file")) {
        files.add(c.get("variant_file").asText());
        descriptions.add(c.get("variant").asText());
      } else if (c.has("variant_files")) {
        Description all = new Description(c.get("variants").asText());
        List<String> parts = all.list();
        for (int i = 0; i < c.get("variant_files").size(); i++) {
          JsonNode f = c.get("variant_files").get(i);
          if (!f.isNull()) {
            files.add(f.asText());
            descriptions.add(parts.get(i));
          }
        }
      }
      for (int i = 0; i < files.size(); i++) {
        byte[] bin = Files.readAllBytes(DIR.resolve(files.get(i)));
        String want = new Description(descriptions.get(i)).variant();
        assertEquals(want, VariantJson.of(bin), files.get(i) + ": " + descriptions.get(i));
        checked++;
      }
    }
    long bins;
    try (var list = Files.list(DIR)) {
      bins = list.filter(f -> f.toString().endsWith(".variant.bin")).count();
    }
    assertEquals(bins, checked, "every .variant.bin is checked");
  }

  /**
   * Iceberg's text of a variant, parsed into the JSON we render: {@code Variant(metadata=..., value=V)}
   * where V is {@code Variant(type=T, value=x)}, {@code VariantArray([V, ...])} or
   * {@code VariantObject(fields={k: V, ...})}.
   */
  static final class Description {
    private final String s;
    private int at;

    Description(String s) {
      this.s = s;
    }

    /** The list of a multi-row case: "[V, null, V]", each element's text. */
    List<String> list() {
      List<String> out = new ArrayList<>();
      int depth = 0;
      int start = 1;
      for (int i = 1; i < s.length() - 1; i++) {
        char ch = s.charAt(i);
        depth += ch == '(' || ch == '[' || ch == '{' ? 1 : ch == ')' || ch == ']' || ch == '}' ? -1 : 0;
        if (depth == 0 && ch == ',') {
          out.add(s.substring(start, i).trim());
          start = i + 1;
        }
      }
      out.add(s.substring(start, s.length() - 1).trim());
      return out;
    }

    String variant() {
      expect("Variant(metadata=VariantMetadata(dict={");
      at = s.indexOf("}), value=", at) + "}), value=".length();
      String v = value();
      expect(")");
      return v;
    }

    private String value() {
      if (s.startsWith("VariantArray([", at)) {
        at += "VariantArray([".length();
        StringBuilder out = new StringBuilder("[");
        while (!s.startsWith("])", at)) {
          if (out.length() > 1) {
            expect(", ");
            out.append(',');
          }
          out.append(value());
        }
        at += 2;
        return out.append(']').toString();
      }
      if (s.startsWith("VariantObject(fields={", at)) {
        at += "VariantObject(fields={".length();
        StringBuilder out = new StringBuilder("{");
        while (!s.startsWith("})", at)) {
          if (out.length() > 1) {
            expect(", ");
            out.append(',');
          }
          int colon = s.indexOf(": ", at);
          out.append('"').append(s, at, colon).append("\":");
          at = colon + 2;
          out.append(value());
        }
        at += 2;
        return out.append('}').toString();
      }
      expect("Variant(type=");
      int comma = s.indexOf(", value=", at);
      String type = s.substring(at, comma);
      at = comma + ", value=".length();
      int end = s.indexOf(')', at);
      String x = s.substring(at, end);
      at = end + 1;
      return switch (type) {
        case "NULL" -> "null";
        case "BOOLEAN_TRUE", "BOOLEAN_FALSE", "INT8", "INT16", "INT32", "INT64", "FLOAT", "DOUBLE" -> x;
        case "DECIMAL4", "DECIMAL8", "DECIMAL16" -> new java.math.BigDecimal(x).stripTrailingZeros().toPlainString();
        case "STRING", "DATE", "TIME", "UUID" -> '"' + x + '"';
        case "TIMESTAMPTZ", "TIMESTAMPNTZ", "TIMESTAMPTZ_NANOS", "TIMESTAMPNTZ_NANOS" -> '"' + x.replace('T', ' ') + '"';
        case "BINARY" -> '"' + Base64.getEncoder().encodeToString(HexFormat.of().parseHex(x)) + '"';
        default -> throw new AssertionError("type " + type + " in " + s);
      };
    }

    private void expect(String text) {
      assertTrue(s.startsWith(text, at), "'" + text + "' at " + at + " of " + s);
      at += text.length();
    }
  }

  private static final byte[] EMPTY_METADATA = {1, 0, 0};

  private static String json(byte[] value) {
    byte[] b = new byte[EMPTY_METADATA.length + value.length];
    System.arraycopy(EMPTY_METADATA, 0, b, 0, EMPTY_METADATA.length);
    System.arraycopy(value, 0, b, EMPTY_METADATA.length, value.length);
    return VariantJson.of(b);
  }

  @Test
  void valuesTheCorpusLacks() {
    assertEquals("\"NaN\"", json(VariantWriter.fixed(7, Double.doubleToLongBits(Double.NaN), 8)));
    assertEquals("\"-Infinity\"", json(VariantWriter.fixed(14, Float.floatToIntBits(Float.NEGATIVE_INFINITY), 4)));
    assertEquals("1.5", json(VariantWriter.decimal(BigInteger.valueOf(150), 2, 9)));
    assertEquals("100", json(VariantWriter.decimal(BigInteger.valueOf(100), 0, 20)));
    assertEquals("-0.000001", json(VariantWriter.decimal(BigInteger.valueOf(-1), 6, 18)));
    // One microsecond before the epoch: floor division, not truncation toward zero.
    assertEquals("\"1969-12-31 23:59:59.999999+00:00\"", json(VariantWriter.fixed(12, -1, 8)));
    assertEquals("\"1970-01-01 00:00:00.000000\"", json(VariantWriter.fixed(13, 0, 8)));
    assertEquals("\"a\\\"b\\\\c\\n\\u0001\"", json(VariantWriter.string("a\"b\\c\n\u0001".getBytes(StandardCharsets.UTF_8))));
    String longString = "x".repeat(100);
    assertEquals('"' + longString + '"', json(VariantWriter.string(longString.getBytes(StandardCharsets.UTF_8))));
    List<byte[]> many = new ArrayList<>();
    StringBuilder want = new StringBuilder("[");
    for (int i = 0; i < 300; i++) {
      many.add(VariantWriter.fixed(5, i, 4));
      want.append(i == 0 ? "" : ",").append(i);
    }
    assertEquals(want.append(']').toString(), json(VariantWriter.array(many)), "a large array (4-byte count)");
  }

  @Test
  void malformedBytesAreRefusedAsVariantErrors() throws Exception {
    byte[] bin = Files.readAllBytes(DIR.resolve("case-134_row-0.variant.bin"));
    int refused = 0;
    for (int cut = 0; cut < bin.length; cut++) { // every truncation
      byte[] b = java.util.Arrays.copyOf(bin, cut);
      assertThrows(VariantException.class, () -> VariantJson.of(b), "cut at " + cut);
      refused++;
    }
    for (int i = 0; i < bin.length; i++) { // every byte, every value: refused or rendered, nothing else
      for (int v = 0; v < 256; v++) {
        byte[] b = bin.clone();
        b[i] = (byte) v;
        try {
          VariantJson.of(b);
        } catch (VariantException e) {
          refused++;
        }
      }
    }
    assertTrue(refused > bin.length * 100, "refused " + refused);
    // A dictionary size far beyond the bytes fails before anything is allocated for it.
    byte[] huge = {(byte) 0xC1, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x7f, 0};
    VariantException e = assertThrows(VariantException.class, () -> VariantJson.of(huge));
    assertTrue(e.getMessage().contains("dictionary size"), e.getMessage());
  }
}
