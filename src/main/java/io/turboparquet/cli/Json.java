package io.turboparquet.cli;

import io.turboparquet.format.VariantJson;
import java.util.Map;

/** Just enough JSON for the CLI's one-object-per-line output. */
final class Json {
  private Json() {}

  static String object(Map<String, ?> fields) {
    StringBuilder sb = new StringBuilder("{");
    boolean first = true;
    for (Map.Entry<String, ?> e : fields.entrySet()) {
      if (!first) {
        sb.append(", ");
      }
      first = false;
      string(sb, e.getKey());
      sb.append(": ");
      Object v = e.getValue();
      if (v == null) {
        sb.append("null");
      } else if (v instanceof Double d) {
        sb.append(String.format(java.util.Locale.ROOT, "%.3f", d));
      } else if (v instanceof Number || v instanceof Boolean) {
        sb.append(v);
      } else {
        string(sb, v.toString());
      }
    }
    return sb.append('}').toString();
  }

  /** Appends {@code s} as a JSON string, quoted and escaped (the one escaper, Variant JSON's). */
  static void string(StringBuilder sb, String s) {
    VariantJson.string(sb, s);
  }
}
