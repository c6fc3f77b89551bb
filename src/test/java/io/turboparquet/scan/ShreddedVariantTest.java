package io.turboparquet.scan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.io.TrackingBufferSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * parquet-testing's {@code shredded_variant/} suite through the scan core's {@link VariantColumn}:
 * every valid case's rows rebuild to its {@code .variant.bin} files byte for byte (null where the
 * case has no file), every error case is refused naming file, row group, column and what is wrong.
 * Cases the suite marks "INVALID" (readers may refuse or read them) are refused when a key is both
 * shredded and in the residual object, and read otherwise.
 */
class ShreddedVariantTest {
  static final Path DIR = Path.of("/work/shared/data/parquet-testing/shredded_variant");

  /** The suite's cases, as cases.json lists them (those with a Parquet file). */
  static List<JsonNode> cases() throws IOException {
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode c : new ObjectMapper().readTree(DIR.resolve("cases.json").toFile())) {
      if (c.has("parquet_file")) {
        out.add(c);
      }
    }
    return out;
  }

  /** The phrase our error must contain for one of the suite's error messages. */
  static String expectedPhrase(JsonNode c) {
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
    if (c.get("parquet_file").asText().contains("INVALID") && c.get("test").asText().contains("FieldConflict")) {
      return "in both value and typed_value";
    }
    return null;
  }

  /** The expected Variant binaries, one per row (null for a null variant). */
  static List<byte[]> expected(JsonNode c) throws IOException {
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

  /** Every row of the file's {@code var} column. */
  static List<byte[]> read(Path file) throws IOException {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file.toUri());
    ScanOptions options = ScanOptions.builder().scanThreads(1).decodeThreads(1).build();
    List<byte[]> rows = new ArrayList<>();
    try (ScanPools pools = ScanPools.forOptions(options)) {
      ScanContext context = new ScanContext(path.getFileSystem(new Configuration()), options,
          new TrackingBufferSource(), pools.scanPool(), pools.decodePool(), new ScanMetrics());
      try (ParquetFileScanner scanner = ParquetFileScanner.open(context, path, List.of())) {
        List<VariantColumn> variants = VariantColumn.of(path.toString(), scanner.metadata().schema().root(),
            scanner.projection());
        assertEquals(1, variants.size(), "one VARIANT column");
        assertEquals("var", variants.get(0).path());
        for (Batch b; (b = scanner.next()) != null; ) {
          rows.addAll(Arrays.asList(variants.get(0).values(b)));
        }
      }
    }
    return rows;
  }

  @TestFactory
  Stream<DynamicTest> everyCase() throws IOException {
    List<JsonNode> cases = cases();
    assertTrue(cases.size() >= 130, "the suite has its cases: " + cases.size());
    return cases.stream().map(c -> DynamicTest.dynamicTest("case " + c.get("case_number") + " " + c.get("test").asText(),
        () -> check(c)));
  }

  private static void check(JsonNode c) throws IOException {
    String name = c.get("parquet_file").asText();
    Path file = DIR.resolve(name);
    String phrase = expectedPhrase(c);
    if (phrase != null) {
      ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class, () -> read(file));
      String m = e.getMessage();
      assertTrue(m.contains(name) && m.contains("row group 0") && m.contains("column var") && m.contains(phrase), m);
      return;
    }
    List<byte[]> expected = expected(c);
    List<byte[]> rows = read(file);
    assertEquals(expected.size(), rows.size(), "rows");
    for (int r = 0; r < rows.size(); r++) {
      assertArrayEquals(expected.get(r), rows.get(r), "row " + r);
    }
  }
}
