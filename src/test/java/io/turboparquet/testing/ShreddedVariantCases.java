package io.turboparquet.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * parquet-testing's {@code shredded_variant/} suite as its cases.json describes it: each case's
 * file, its rows' expected Variant binaries, or the phrase our refusal must contain. Cases marked
 * "INVALID" (readers may refuse or read them) are refused when a key is both shredded and in the
 * residual object (we refuse; reading would drop one of the two), and read otherwise.
 */
public final class ShreddedVariantCases {
  public static final Path DIR = CorpusFiles.dir().resolve("shredded_variant");

  /** One case: its number, test name, file, and either expected rows or an error phrase. */
  public record Case(int number, String test, Path file, List<byte[]> rows, String errorPhrase) {
    public String name() {
      return "case " + number + " " + test;
    }
  }

  private ShreddedVariantCases() {}

  /** Every case with a Parquet file, in cases.json's order. */
  public static List<Case> all() {
    try {
      List<Case> out = new ArrayList<>();
      for (JsonNode c : new ObjectMapper().readTree(DIR.resolve("cases.json").toFile())) {
        if (c.has("parquet_file")) {
          String phrase = errorPhrase(c);
          out.add(new Case(c.get("case_number").asInt(), c.get("test").asText(),
              DIR.resolve(c.get("parquet_file").asText()), phrase == null ? expected(c) : null, phrase));
        }
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String errorPhrase(JsonNode c) {
    String m = c.has("error_message") ? c.get("error_message").asText() : "";
    if (m.contains("conflicting value and typed_value")) {
      return "conflicting value and typed_value";
    }
    if (m.contains("non-object value with shredded fields")) {
      return "non-object value with shredded fields";
    }
    if (m.startsWith("Unsupported shredded value type")) {
      return "unsupported shredded type";
    }
    if (!m.isEmpty()) {
      throw new AssertionError("an error case this suite does not know: " + m);
    }
    if (c.get("parquet_file").asText().contains("INVALID") && c.get("test").asText().contains("FieldConflict")) {
      return "in both value and typed_value";
    }
    return null;
  }

  private static List<byte[]> expected(JsonNode c) throws IOException {
    List<byte[]> out = new ArrayList<>();
    if (c.has("variant_file")) {
      out.add(Files.readAllBytes(DIR.resolve(c.get("variant_file").asText())));
    } else {
      for (JsonNode f : c.get("variant_files")) {
        out.add(f.isNull() ? null : Files.readAllBytes(DIR.resolve(f.asText())));
      }
    }
    return out;
  }
}
