package io.turboparquet.testing;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rows of {@link VariantFiles118}'s files: VARIANT values nested in a struct ({@code s.v}), a
 * list ({@code vl}) and a map's values ({@code m}), as JSON text in the form our renderer and
 * Spark's {@code to_json} print them (compact, keys sorted), with nulls at every level. Java null is
 * a null group or element; the text {@code null} a Variant null. The writer parses each text with
 * parquet-java's {@code VariantJsonParser}, so the texts are the expected values.
 *
 * <p>Row 6 has a shredded array whose middle element goes to {@code value}: parquet-java 1.18.1's
 * {@code VariantValueWriter} writes it with the bytes of the elements after it (its
 * {@code Variant.getElementAtIndex} slices to the end of the array), which a reader must ignore.
 */
public final class NestedVariantRows {
  private NestedVariantRows() {}

  /** {@code s}: null, or a struct of a name and a VARIANT (null: the group is null). */
  public record Struct(String name, String v) {}

  /** One row: {@code s}, {@code vl} (null list; elements may be null) and {@code m} (null map; values may be null). */
  public record Row(int id, Struct s, List<String> vl, Map<String, String> m) {}

  public static final List<Row> ROWS = List.of(
      new Row(0, new Struct("a", "{\"a\":\"hello\",\"b\":true,\"c\":[1,2,3]}"),
          List.of("{\"a\":\"p\",\"b\":false}", "7", "\"q\"", "[\"r\",\"s\"]"),
          map("k1", "{\"z\":[1,{\"y\":null}]}", "k2", "12.25")),
      new Row(1, null, null, null),
      new Row(2, new Struct(null, null), List.of(), map()),
      new Row(3, new Struct("d", "null"), Arrays.asList(null, "\"x\"", "null"), map("k", null)),
      new Row(4, new Struct("e", "{\"a\":\"only a\",\"d\":-5}"), List.of("[]", "{}", "[7]"), map("k", "\"s\"")),
      new Row(5, new Struct("f", "\"just a string\""), null, null),
      new Row(6, new Struct("g", "[{\"a\":\"in array\"}]"), List.of("[\"t\",1,null]", "{\"a\":{\"b\":\"c\"}}"),
          map("a", "true", "b", "[]")));

  private static Map<String, String> map(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  /**
   * The schema: each VARIANT group shredded ({@code typed_value} for {@code s.v} an object of a
   * string {@code a} and a boolean {@code b}, for list elements an array of strings, for map values a
   * string) or not (metadata and value only).
   */
  public static String schema(boolean shredded) {
    String sv = shredded ? "optional group typed_value { optional group a { optional binary value; "
        + "optional binary typed_value (STRING); } optional group b { optional binary value; "
        + "optional boolean typed_value; } }" : "";
    String ev = shredded ? "optional group typed_value (LIST) { repeated group list { required group element { "
        + "optional binary value; optional binary typed_value (STRING); } } }" : "";
    String mv = shredded ? "optional binary typed_value (STRING);" : "";
    return "message m { required int32 id; "
        + "optional group s { optional binary name (STRING); "
        + "optional group v (VARIANT(1)) { required binary metadata; optional binary value; " + sv + " } } "
        + "optional group vl (LIST) { repeated group list { "
        + "optional group element (VARIANT(1)) { required binary metadata; optional binary value; " + ev + " } } } "
        + "optional group m (MAP) { repeated group key_value { required binary key (STRING); "
        + "optional group value (VARIANT(1)) { required binary metadata; optional binary value; " + mv + " } } } }";
  }
}
