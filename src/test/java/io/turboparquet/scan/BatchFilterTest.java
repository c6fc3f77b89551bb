package io.turboparquet.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.turboparquet.decode.ValueSink;
import io.turboparquet.filter.Filter;
import io.turboparquet.filter.Predicate;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.format.Repetition;
import io.turboparquet.format.Schema;
import io.turboparquet.io.TrackingBufferSource;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Late materialization's row test. On integer columns, the first and last row of a batch that may
 * match (where a batch is cut) equal an exact decimal comparison of every row with the literal,
 * for every operator, literals between integers and at and beyond the ends of the longs, nulls,
 * and windows of the batch. On doubles (NaN, signed zeros), strings (unsigned bytes, prefixes,
 * empty values), IN lists, IS NULL and AND / OR of them, every row's judgement equals a
 * comparison of that row's value.
 */
class BatchFilterTest {
  private static final ColumnDescriptor I64 =
      new ColumnDescriptor(0, List.of("i64"), PhysicalType.INT64, 0, Repetition.OPTIONAL, 1, 0, null);
  private static final ColumnDescriptor I32 =
      new ColumnDescriptor(1, List.of("i32"), PhysicalType.INT32, 0, Repetition.REQUIRED, 0, 0, null);
  private static final ColumnDescriptor OTHER =
      new ColumnDescriptor(2, List.of("other"), PhysicalType.INT32, 0, Repetition.REQUIRED, 0, 0, null);
  private static final Schema SCHEMA = new Schema(null, List.of(I64, I32, OTHER));
  private static final List<String> OPS = List.of("=", "<>", "<", "<=", ">", ">=");
  private static final List<String> LITERALS = List.of("-3", "0", "5", "4.5", "-0.5", "2147483647", "-2147483648",
      "9223372036854775807", "-9223372036854775808", "9223372036854775806.5", "-9223372036854775807.5",
      "1e30", "-1e30");

  @Test
  void firstAndLastMatchEqualAnExactComparisonOfEveryRow() {
    SplittableRandom random = new SplittableRandom(5);
    int rows = 300;
    Long[] longs = new Long[rows];
    long[] ints = new long[rows];
    long[] edges = {Long.MIN_VALUE, Long.MIN_VALUE + 1, -3, -1, 0, 4, 5, 6, Long.MAX_VALUE - 1, Long.MAX_VALUE};
    for (int r = 0; r < rows; r++) {
      longs[r] = random.nextInt(6) == 0 ? null : random.nextBoolean() ? edges[random.nextInt(edges.length)]
          : (long) random.nextInt(-8, 9);
      ints[r] = random.nextBoolean() ? random.nextInt(-8, 9)
          : random.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE;
    }
    TrackingBufferSource source = new TrackingBufferSource();
    try (ValueSink a = new ValueSink(source, 8);
        ValueSink b = new ValueSink(source, 4);
        ValueSink c = new ValueSink(source, 4)) {
      ByteBuf validity = source.buffer(rows);
      ByteBuf av = a.reserve(rows);
      ByteBuf bv = b.reserve(rows);
      c.reserve(rows);
      for (int r = 0; r < rows; r++) {
        validity.setByte(r, longs[r] == null ? 0 : 1);
        av.setLongLE(8 * r, longs[r] == null ? 0 : longs[r]);
        bv.setIntLE(4 * r, (int) ints[r]);
      }
      a.advance(rows);
      b.advance(rows);
      c.advance(rows);
      ColumnBatch[] columns = {new ColumnBatch(I64, a), new ColumnBatch(I32, b), new ColumnBatch(OTHER, c)};
      columns[0].set(rows, rows, rows, validity, null, null);
      columns[1].set(rows, rows, rows, null, null, null);
      columns[2].set(rows, rows, rows, null, null, null);
      int checked = 0;
      for (String column : List.of("i64", "i32")) {
        for (String op : OPS) {
          for (String literal : LITERALS) {
            BatchFilter filter = BatchFilter.of(Filter.bind(Predicate.parse(column + " " + op + " " + literal), SCHEMA),
                List.of(I64, I32, OTHER));
            List<Boolean> expected = new ArrayList<>();
            for (int r = 0; r < rows; r++) {
              Long v = column.equals("i64") ? longs[r] : (Long) ints[r];
              expected.add(v != null && holds(op, new BigDecimal(v).compareTo(new BigDecimal(literal))));
            }
            for (int window : new int[] {rows, 1, 7, 150}) {
              int first = filter.firstMatch(columns, 0, window);
              assertEquals(expected.subList(0, window).indexOf(true) < 0 ? window
                  : expected.subList(0, window).indexOf(true), first, column + " " + op + " " + literal + " first of "
                  + window);
              if (first < window) {
                assertEquals(expected.subList(0, window).lastIndexOf(true), filter.lastMatch(columns, first, window),
                    column + " " + op + " " + literal + " last of " + window);
              }
              checked++;
            }
          }
        }
      }
      assertEquals(2 * OPS.size() * LITERALS.size() * 4, checked);
      validity.release();
    }
    assertEquals(0, source.outstanding());
  }

  @Test
  void everyRowsJudgementEqualsAComparisonOfItsValueOnDoublesStringsAndCombinations() {
    ColumnDescriptor dbl = new ColumnDescriptor(0, List.of("d"), PhysicalType.DOUBLE, 0, Repetition.OPTIONAL, 1, 0, null);
    ColumnDescriptor str = new ColumnDescriptor(1, List.of("s"), PhysicalType.BYTE_ARRAY, 0, Repetition.OPTIONAL, 1, 0,
        "STRING");
    Schema schema = new Schema(null, List.of(dbl, str, OTHER));
    List<ColumnDescriptor> projection = List.of(dbl, str, OTHER);
    SplittableRandom random = new SplittableRandom(9);
    int rows = 500;
    double[] doubleChoices = {Double.NaN, -0.0, 0.0, 1.5, -2, 2.5, 1e300, Double.NEGATIVE_INFINITY};
    String[] stringChoices = {"", "a", "ab", "abc", "b", "\u00e9t\u00e9", "\u00ff", "a\u0000", "zz"};
    Double[] doubles = new Double[rows];
    String[] strings = new String[rows];
    for (int r = 0; r < rows; r++) {
      doubles[r] = random.nextInt(7) == 0 ? null : doubleChoices[random.nextInt(doubleChoices.length)];
      strings[r] = random.nextInt(7) == 0 ? null : stringChoices[random.nextInt(stringChoices.length)];
    }
    TrackingBufferSource source = new TrackingBufferSource();
    try (ValueSink d = new ValueSink(source, 8);
        ValueSink s = new ValueSink(source, ValueSink.VARIABLE);
        ValueSink o = new ValueSink(source, 4)) {
      ByteBuf dValid = source.buffer(rows);
      ByteBuf sValid = source.buffer(rows);
      ByteBuf dv = d.reserve(rows);
      o.reserve(rows);
      for (int r = 0; r < rows; r++) {
        dValid.setByte(r, doubles[r] == null ? 0 : 1);
        dv.setLongLE(8 * r, doubles[r] == null ? 0 : Double.doubleToRawLongBits(doubles[r]));
        sValid.setByte(r, strings[r] == null ? 0 : 1);
        byte[] bytes = strings[r] == null ? new byte[0] : strings[r].getBytes(StandardCharsets.UTF_8);
        s.appendBinary(bytes, 0, bytes.length);
      }
      d.advance(rows);
      o.advance(rows);
      ColumnBatch[] columns = {new ColumnBatch(dbl, d), new ColumnBatch(str, s), new ColumnBatch(OTHER, o)};
      int dDefined = (int) Arrays.stream(doubles).filter(v -> v != null).count();
      int sDefined = (int) Arrays.stream(strings).filter(v -> v != null).count();
      columns[0].set(rows, rows, dDefined, dValid, null, null);
      columns[1].set(rows, rows, sDefined, sValid, null, null);
      columns[2].set(rows, rows, rows, null, null, null);
      Map<String, IntPredicate> cases = new LinkedHashMap<>();
      for (String op : OPS) {
        for (String literal : List.of("0", "-0.0", "1.5", "2", "-1e308")) {
          cases.put("d " + op + " " + literal, r -> doubles[r] != null
              && (doubles[r].isNaN() || holds(op, compareDoubles(doubles[r], Double.parseDouble(literal)))));
        }
        for (String literal : List.of("", "a", "ab", "b", "\u00e9", "\u00ff", "zzz")) {
          byte[] l = literal.getBytes(StandardCharsets.UTF_8);
          cases.put("s " + op + " '" + literal + "'", r -> strings[r] != null
              && holds(op, Integer.signum(Arrays.compareUnsigned(strings[r].getBytes(StandardCharsets.UTF_8), l))));
        }
      }
      cases.put("d IN (1.5, -2, 7)", r -> doubles[r] != null
          && (doubles[r].isNaN() || doubles[r] == 1.5 || doubles[r] == -2));
      cases.put("s IN ('ab', 'zz', 'q')", r -> strings[r] != null
          && (strings[r].equals("ab") || strings[r].equals("zz")));
      cases.put("d IS NULL", r -> doubles[r] == null);
      cases.put("s IS NOT NULL", r -> strings[r] != null);
      cases.put("d > 0 AND s < 'b'", r -> doubles[r] != null && (doubles[r].isNaN() || doubles[r] > 0)
          && strings[r] != null && Arrays.compareUnsigned(strings[r].getBytes(StandardCharsets.UTF_8),
          "b".getBytes(StandardCharsets.UTF_8)) < 0);
      cases.put("d = 2.5 OR s = 'abc' OR d IS NULL", r -> doubles[r] == null || doubles[r].isNaN()
          || doubles[r] == 2.5 || "abc".equals(strings[r]));
      // NOT in three-valued logic: a null passes neither a leaf nor its negation; NaN is not judged.
      cases.put("s NOT LIKE '%b%'", r -> strings[r] != null && !strings[r].contains("b"));
      cases.put("NOT (d > 0 AND s < 'b')", r -> doubles[r] != null && (doubles[r].isNaN()
          || compareDoubles(doubles[r], 0) <= 0) || strings[r] != null && Arrays.compareUnsigned(
          strings[r].getBytes(StandardCharsets.UTF_8), "b".getBytes(StandardCharsets.UTF_8)) >= 0);
      cases.put("s NOT IN ('ab', 'zz')", r -> strings[r] != null && !strings[r].equals("ab") && !strings[r].equals("zz"));
      cases.put("NOT d IS NULL", r -> doubles[r] != null);
      for (Map.Entry<String, IntPredicate> c : cases.entrySet()) {
        BatchFilter filter = BatchFilter.of(Filter.bind(Predicate.parse(c.getKey()), schema), projection);
        for (int window : new int[] {rows, 1, 64, 333}) {
          int first = filter.firstMatch(columns, 0, window);
          int expectedFirst = window;
          int expectedLast = -1;
          for (int r = 0; r < window; r++) {
            boolean expected = c.getValue().test(r);
            assertEquals(expected, filter.firstMatch(columns, r, r + 1) == r, c.getKey() + " row " + r + " (" + doubles[r] + ", " + strings[r] + ")");
            if (expected) {
              expectedFirst = Math.min(expectedFirst, r);
              expectedLast = r;
            }
          }
          assertEquals(expectedFirst, first, c.getKey() + " first of " + window);
          if (first < window) {
            assertEquals(expectedLast, filter.lastMatch(columns, first, window), c.getKey() + " last of " + window);
          }
        }
      }
      assertEquals(6 * 12 + 10, cases.size());
      dValid.release();
      sValid.release();
    }
    assertEquals(0, source.outstanding());
  }

  /**
   * LIKE over values from empty to past the run of bytes copied at once (64 KiB): every row's
   * judgement, through {@code select}, equals Java's search of the value's characters.
   */
  @Test
  void likeJudgesLongValuesAcrossCopiedRuns() {
    ColumnDescriptor str = new ColumnDescriptor(1, List.of("s"), PhysicalType.BYTE_ARRAY, 0, Repetition.OPTIONAL, 1, 0,
        "STRING");
    Schema schema = new Schema(null, List.of(I64, str));
    SplittableRandom random = new SplittableRandom(34);
    int rows = 3 * BatchFilter.BLOCK + 17;
    String[] strings = new String[rows];
    for (int r = 0; r < rows; r++) {
      int length = random.nextInt(5) == 0 ? random.nextInt(70_000, 140_000) : random.nextInt(300);
      StringBuilder b = new StringBuilder();
      while (b.length() < length) {
        b.append(random.nextInt(500) == 0 ? "google" : random.nextBoolean() ? "go\u00e9" : "ogle.x");
      }
      strings[r] = random.nextInt(9) == 0 ? null : b.toString();
    }
    TrackingBufferSource source = new TrackingBufferSource();
    try (ValueSink i = new ValueSink(source, 8); ValueSink s = new ValueSink(source, ValueSink.VARIABLE)) {
      i.reserve(rows);
      i.advance(rows);
      ByteBuf valid = source.buffer(rows);
      for (int r = 0; r < rows; r++) {
        valid.setByte(r, strings[r] == null ? 0 : 1);
        byte[] bytes = strings[r] == null ? new byte[0] : strings[r].getBytes(StandardCharsets.UTF_8);
        s.appendBinary(bytes, 0, bytes.length);
      }
      ColumnBatch[] columns = {new ColumnBatch(I64, i), new ColumnBatch(str, s)};
      int defined = (int) Arrays.stream(strings).filter(v -> v != null).count();
      columns[0].set(rows, rows, rows, null, null, null);
      columns[1].set(rows, rows, defined, valid, null, null);
      for (String pattern : List.of("%google%", "%gle.x", "go%", "%oogl%e.%")) {
        for (boolean negated : new boolean[] {false, true}) {
          String like = "s " + (negated ? "NOT " : "") + "LIKE '" + pattern + "'";
          java.util.regex.Pattern regex = java.util.regex.Pattern.compile(
              pattern.replace(".", "\\.").replace("%", ".*"), java.util.regex.Pattern.DOTALL);
          BatchFilter filter = BatchFilter.of(Filter.bind(Predicate.parse(like), schema), List.of(I64, str));
          RowSelection selection = new RowSelection();
          filter.select(columns, rows, selection);
          List<Integer> expected = new ArrayList<>();
          for (int r = 0; r < rows; r++) {
            if (strings[r] != null && regex.matcher(strings[r]).matches() != negated) {
              expected.add(r);
            }
          }
          assertEquals(true, expected.size() > 50 && expected.size() < rows - 50, like + ": " + expected.size());
          List<Integer> kept = new ArrayList<>();
          for (int k = 0; k < selection.selected(); k++) {
            kept.add(selection.rowAt(k));
          }
          assertEquals(expected, kept, like);
        }
      }
      valid.release();
    }
    assertEquals(0, source.outstanding());
  }

  /**
   * Literals whose exponent puts them far beyond every stored value, or far below one unit of the
   * grid, are judged like any literal beyond the longs or between two integers (building the filter
   * used to throw ArithmeticException, failing the scan).
   */
  @Test
  void literalsWithHugeExponentsAreJudged() {
    ColumnDescriptor dec = new ColumnDescriptor(3, List.of("dec"), PhysicalType.INT64, 0, Repetition.REQUIRED, 0, 0,
        "DECIMAL(18,2)");
    Schema schema = new Schema(null, List.of(I64, I32, OTHER, dec));
    List<ColumnDescriptor> projection = List.of(I64, I32, OTHER, dec);
    int rows = 4;
    long[] values = {-5, 0, 3, Long.MAX_VALUE}; // dec: -0.05, 0, 0.03, 92233720368547758.07
    TrackingBufferSource source = new TrackingBufferSource();
    try (ValueSink a = new ValueSink(source, 8);
        ValueSink b = new ValueSink(source, 4);
        ValueSink c = new ValueSink(source, 4);
        ValueSink d = new ValueSink(source, 8)) {
      ByteBuf av = a.reserve(rows);
      ByteBuf dv = d.reserve(rows);
      ByteBuf bv = b.reserve(rows);
      ByteBuf cv = c.reserve(rows);
      for (int r = 0; r < rows; r++) {
        av.setLongLE(8 * r, values[r]);
        dv.setLongLE(8 * r, values[r]);
        bv.setIntLE(4 * r, 0);
        cv.setIntLE(4 * r, 0);
      }
      a.advance(rows);
      b.advance(rows);
      c.advance(rows);
      d.advance(rows);
      ColumnBatch[] columns = {new ColumnBatch(I64, a), new ColumnBatch(I32, b), new ColumnBatch(OTHER, c),
          new ColumnBatch(dec, d)};
      for (ColumnBatch batch : columns) {
        batch.set(rows, rows, rows, null, null, null);
      }
      Map<String, Integer> firstMatch = new LinkedHashMap<>();
      firstMatch.put("i64 = 1e999999999", rows);
      firstMatch.put("i64 < 1e999999999", 0);
      firstMatch.put("i64 > -1e999999999", 0);
      firstMatch.put("i64 = 1e2147483647", rows);
      firstMatch.put("i64 < 1e2147483647", 0);
      firstMatch.put("i64 > 1e-999999999", 2);
      firstMatch.put("i64 >= 1e-999999999", 2);
      firstMatch.put("i64 <= -1e-999999999", 0);
      firstMatch.put("i64 > -1e-999999999", 1);
      firstMatch.put("i64 = 1e-999999999", rows);
      firstMatch.put("i64 = 0e2147483647", 1);
      firstMatch.put("dec < 1e2147483647", 0);
      firstMatch.put("dec > 1e2147483647", rows);
      firstMatch.put("dec = 1e-999999999", rows);
      firstMatch.put("dec > 1e-999999999", 2);
      firstMatch.put("dec > 0.025", 2);
      firstMatch.put("dec > 0.03", 3);
      for (Map.Entry<String, Integer> e : firstMatch.entrySet()) {
        BatchFilter filter = BatchFilter.of(Filter.bind(Predicate.parse(e.getKey()), schema), projection);
        assertEquals(e.getValue(), filter.firstMatch(columns, 0, rows), e.getKey());
      }
    }
    assertEquals(0, source.outstanding());
  }

  /** Double comparison as Parquet orders doubles, NaN aside: -0.0 equals 0.0. */
  private static int compareDoubles(double a, double b) {
    return a < b ? -1 : a > b ? 1 : 0;
  }

  private static boolean holds(String op, int cmp) {
    return switch (op) {
      case "=" -> cmp == 0;
      case "<>" -> cmp != 0;
      case "<" -> cmp < 0;
      case "<=" -> cmp <= 0;
      case ">" -> cmp > 0;
      default -> cmp >= 0;
    };
  }
}
