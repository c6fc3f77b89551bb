package io.turboparquet.filter;

/**
 * A literal as written in a filter, untyped until it is bound to a column
 * ({@link ValueOrder#literal}).
 *
 * @param text the number's digits, the string's characters (quotes removed), the date's
 *     {@code yyyy-mm-dd}, or {@code true}/{@code false}
 */
public record Literal(Kind kind, String text) {
  public enum Kind { NUMBER, STRING, DATE, BOOLEAN }

  @Override
  public String toString() {
    return switch (kind) {
      case NUMBER, BOOLEAN -> text;
      case STRING -> "'" + text.replace("'", "''") + "'";
      case DATE -> "DATE '" + text + "'";
    };
  }
}
