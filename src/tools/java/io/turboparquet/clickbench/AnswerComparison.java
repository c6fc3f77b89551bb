package io.turboparquet.clickbench;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Whether two engines' answers to one query are the same answer. Values are compared normalised:
 * numbers by value whatever their Java type (exactly, or with a relative tolerance of 1e-9 when
 * either is floating: averages are summed in different orders), dates and timestamps as ISO text,
 * bytes as hex. Rows are compared in order where the sort keys differ and as multisets where they
 * are equal (a sort leaves ties in any order); of the last group of ties, when a LIMIT may have cut
 * it, only the sort-key columns are compared (either engine may keep any of the tied rows).
 *
 * <p>The expected answer may carry sort keys after the actual answer's columns (hidden keys: the
 * query orders by a column it does not return); they group the expected rows into ties, and the
 * actual rows are grouped by the same positions.
 */
public final class AnswerComparison {
  static final double RELATIVE_TOLERANCE = 1e-9;

  private AnswerComparison() {}

  /**
   * Empty when {@code actual} is the same answer as {@code expected}, else what differs.
   *
   * @param sortKeys columns of {@code expected} the query sorts by; null when it has no ORDER BY
   *     (the answer is a multiset); empty for a LIMIT without ORDER BY (any rows)
   * @param limit the query's LIMIT, or -1
   */
  public static Optional<String> difference(List<List<Object>> expected, List<List<Object>> actual, int[] sortKeys,
      int limit) {
    List<List<Object>> e = normalised(expected);
    List<List<Object>> a = normalised(actual);
    if (e.size() != a.size()) {
      return Optional.of(a.size() + " rows, expected " + e.size() + sample(e, a, 0, Math.min(e.size(), a.size())));
    }
    if (a.isEmpty()) {
      return Optional.empty();
    }
    int width = a.get(0).size();
    if (e.get(0).size() < width) {
      return Optional.of(width + " columns, expected " + e.get(0).size());
    }
    if (sortKeys == null) {
      return multisetDifference(project(e, 0, e.size(), all(width)), project(a, 0, a.size(), all(width)), 0);
    }
    int start = 0;
    while (start < e.size()) {
      int end = start + 1;
      while (end < e.size() && sameKeys(e.get(start), e.get(end), sortKeys)) {
        end++;
      }
      boolean cut = end == e.size() && limit > 0 && e.size() == limit;
      int[] columns = cut ? visible(sortKeys, width) : all(width);
      Optional<String> d = multisetDifference(project(e, start, end, columns), project(a, start, end, columns), start);
      if (d.isPresent()) {
        return d;
      }
      start = end;
    }
    return Optional.empty();
  }

  private static boolean sameKeys(List<Object> x, List<Object> y, int[] keys) {
    for (int k : keys) {
      if (!same(x.get(k), y.get(k))) {
        return false;
      }
    }
    return true;
  }

  /** The rows [from, to) as multisets: sorted, then pairwise (tolerance keeps hashing out). */
  private static Optional<String> multisetDifference(List<List<Object>> e, List<List<Object>> a, int from) {
    e.sort(ROWS);
    a.sort(ROWS);
    for (int i = 0; i < e.size(); i++) {
      for (int c = 0; c < e.get(i).size(); c++) {
        if (!same(e.get(i).get(c), a.get(i).get(c))) {
          return Optional.of("rows from " + from + ": " + a.get(i) + ", expected " + e.get(i));
        }
      }
    }
    return Optional.empty();
  }

  private static List<List<Object>> project(List<List<Object>> rows, int from, int to, int[] columns) {
    List<List<Object>> projected = new ArrayList<>(to - from);
    for (List<Object> row : rows.subList(from, to)) {
      List<Object> p = new ArrayList<>(columns.length);
      for (int c : columns) {
        p.add(row.get(c));
      }
      projected.add(p);
    }
    return projected;
  }

  private static int[] all(int width) {
    int[] columns = new int[width];
    for (int i = 0; i < width; i++) {
      columns[i] = i;
    }
    return columns;
  }

  /** The sort keys among the first {@code width} columns (hidden keys have no counterpart to compare). */
  private static int[] visible(int[] keys, int width) {
    return java.util.Arrays.stream(keys).filter(k -> k < width).toArray();
  }

  private static String sample(List<List<Object>> e, List<List<Object>> a, int from, int to) {
    return to > from ? "; first rows " + a.get(from) + ", expected " + e.get(from) : "";
  }

  /** A normalised number: its value, and whether it came from a floating type. */
  record Num(BigDecimal value, boolean floating) {}

  static List<List<Object>> normalised(List<List<Object>> rows) {
    List<List<Object>> out = new ArrayList<>(rows.size());
    for (List<Object> row : rows) {
      List<Object> r = new ArrayList<>(row.size());
      for (Object v : row) {
        r.add(normalised(v));
      }
      out.add(r);
    }
    return out;
  }

  static Object normalised(Object v) {
    if (v == null) {
      return "NULL";
    }
    if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      return Double.isFinite(d) ? new Num(new BigDecimal(d), true) : Double.toString(d);
    }
    if (v instanceof BigDecimal b) {
      return new Num(b, false);
    }
    if (v instanceof BigInteger b) {
      return new Num(new BigDecimal(b), false);
    }
    if (v instanceof Number n) { // Byte, Short, Integer, Long
      return new Num(BigDecimal.valueOf(n.longValue()), false);
    }
    if (v instanceof java.sql.Timestamp t) {
      return DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(t.toLocalDateTime());
    }
    if (v instanceof java.sql.Date d) {
      return d.toLocalDate().toString();
    }
    if (v instanceof Instant i) {
      return DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(LocalDateTime.ofInstant(i, ZoneOffset.UTC));
    }
    if (v instanceof LocalDateTime t) {
      return DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(t);
    }
    if (v instanceof LocalDate d) {
      return d.toString();
    }
    if (v instanceof TemporalAccessor) {
      return v.toString();
    }
    if (v instanceof byte[] b) {
      return HexFormat.of().formatHex(b);
    }
    return v.toString();
  }

  static boolean same(Object x, Object y) {
    if (x instanceof Num a && y instanceof Num b) {
      if (a.floating() || b.floating()) {
        double p = a.value().doubleValue();
        double q = b.value().doubleValue();
        return Math.abs(p - q) <= RELATIVE_TOLERANCE * Math.max(Math.abs(p), Math.abs(q));
      }
      return a.value().compareTo(b.value()) == 0;
    }
    return x.equals(y);
  }

  /** Numbers by value before any text; text by its characters. */
  private static final Comparator<Object> VALUES = (x, y) -> {
    if (x instanceof Num a && y instanceof Num b) {
      return a.value().compareTo(b.value());
    }
    if (x instanceof Num || y instanceof Num) {
      return x instanceof Num ? -1 : 1;
    }
    return x.toString().compareTo(y.toString());
  };

  private static final Comparator<List<Object>> ROWS = (x, y) -> {
    for (int c = 0; c < Math.min(x.size(), y.size()); c++) {
      int d = VALUES.compare(x.get(c), y.get(c));
      if (d != 0) {
        return d;
      }
    }
    return Integer.compare(x.size(), y.size());
  };
}
