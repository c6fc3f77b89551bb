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
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Late materialization's row test on integer columns: the first and last row of a batch that may
 * match (where a batch is cut) equal an exact decimal comparison of every row with the literal,
 * for every operator, literals between integers and at and beyond the ends of the longs, nulls,
 * and windows of the batch.
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
              int first = filter.firstMatch(columns, window);
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
