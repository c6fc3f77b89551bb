package io.turboparquet.cli;

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

  /** Appends {@code s} as a JSON string, quoted and escaped. */
  static void string(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\t' -> sb.append("\\t");
        case '\r' -> sb.append("\\r");
        default -> {
          if (c < 0x20) {
            sb.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }
}
