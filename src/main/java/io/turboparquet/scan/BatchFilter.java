package io.turboparquet.scan;

import io.netty.buffer.ByteBuf;
import io.turboparquet.decode.Dictionary;
import io.turboparquet.decode.HalfFloat;
import io.turboparquet.decode.ValueSink;
import io.turboparquet.filter.Filter;
import io.turboparquet.filter.LikePattern;
import io.turboparquet.filter.Predicate.Op;
import io.turboparquet.filter.ValueOrder;
import io.turboparquet.format.ColumnDescriptor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The scan's row test of a filter, judged from the decoded values of the filter's columns only:
 * which rows of a batch it hands on ({@link #select}), and, for late materialization, whether a
 * batch has any row that may match, so that the scan decodes the other columns of a batch only
 * when it has a candidate row. A necessary condition, like every other use of the filter: a value
 * it cannot judge (NaN, a column whose order the filter does not know) counts as a match, and a
 * null never compares true; the engine still evaluates its filter on what the scan returns. Each
 * literal is turned once, by the column's {@link ValueOrder}, into the stored form it is compared
 * with ({@link ValueOrder#stored}: where it falls among the stored integers, a double, bytes), and
 * the rows are compared with it in loops over primitives that follow that order. Rows are judged
 * in blocks of {@link #BLOCK}, each node of the filter in one loop over its column's buffer without
 * a branch on the values (a lookup judges every row of the row group); the search for the first
 * and last candidate stops at the block that holds it. A column whose batch was read from one
 * dictionary's ids is judged once per dictionary entry, and each row by a lookup of its id.
 */
final class BatchFilter {
  /** Rows judged at once. */
  static final int BLOCK = 1024;

  /** A node of the filter, judged on a block of rows of the decoded filter columns. */
  private abstract static class Test {
    /** Sets {@code out[r - from]}, for every row {@code r} in {@code [from, to)}, to whether it may match. */
    abstract void judge(ColumnBatch[] columns, int from, int to, boolean[] out);
  }

  /** Projection positions of the filter's columns (each decoded first). */
  private final int[] filterColumns;
  private final Test root;
  /** The judgement of the block last judged. */
  private final boolean[] mask = new boolean[BLOCK];

  private BatchFilter(int[] filterColumns, Test root) {
    this.filterColumns = filterColumns;
    this.root = root;
  }

  /**
   * The test of {@code filter} over batches of {@code projection} that hold {@code rows} rows in
   * all (a row group, or the part of it a page selection reads), or null when rows cannot be
   * judged or dropped: a filter column not projected, or a projected column that is not flat (rows
   * of nested columns are neither skipped nor compacted).
   */
  static BatchFilter of(Filter filter, List<ColumnDescriptor> projection, long rows) {
    if (filter == null || projection.stream().anyMatch(c -> !c.isFlat())) {
      return null;
    }
    List<Integer> positions = new ArrayList<>();
    for (int leaf : filter.columns().keySet()) {
      int at = -1;
      for (int i = 0; i < projection.size(); i++) {
        if (projection.get(i).index() == leaf) {
          at = i;
        }
      }
      if (at < 0) {
        return null;
      }
      positions.add(at);
    }
    Test root = test(filter.root(), projection, rows);
    return new BatchFilter(positions.stream().mapToInt(Integer::intValue).toArray(), root);
  }

  /** Projection positions of the columns to decode first. */
  int[] filterColumns() {
    return filterColumns;
  }

  /**
   * Judges rows {@code [0, rows)} of {@code columns} (which hold at least the filter's columns)
   * into {@code selection}: the rows that may match.
   */
  void select(ColumnBatch[] columns, int rows, RowSelection selection) {
    selection.clear(rows);
    for (int block = 0; block < rows; block += BLOCK) {
      int end = Math.min(rows, block + BLOCK);
      root.judge(columns, block, end, mask);
      selection.add(block, mask, end - block);
    }
  }

  /**
   * The first row in {@code [from, rows)} that may match, or {@code rows} when none may;
   * {@code columns} holds (at least) the filter's columns.
   */
  int firstMatch(ColumnBatch[] columns, int from, int rows) {
    for (int block = from; block < rows; block += BLOCK) {
      int end = Math.min(rows, block + BLOCK);
      root.judge(columns, block, end, mask);
      for (int r = block; r < end; r++) {
        if (mask[r - block]) {
          return r;
        }
      }
    }
    return rows;
  }

  /** The last row before {@code rows} that may match, searched down to {@code first}, a row that may. */
  int lastMatch(ColumnBatch[] columns, int first, int rows) {
    for (int end = rows; end > first + 1; end -= BLOCK) {
      int block = Math.max(first + 1, end - BLOCK);
      root.judge(columns, block, end, mask);
      for (int r = end - 1; r >= block; r--) {
        if (mask[r - block]) {
          return r;
        }
      }
    }
    return first;
  }

  private static Test test(Filter.Node node, List<ColumnDescriptor> projection, long rows) {
    if (node instanceof Filter.All all) {
      return new Combined(all.terms().stream().map(t -> test(t, projection, rows)).toArray(Test[]::new), true);
    }
    if (node instanceof Filter.Any any) {
      return new Combined(any.terms().stream().map(t -> test(t, projection, rows)).toArray(Test[]::new), false);
    }
    Filter.Leaf leaf = (Filter.Leaf) node;
    int at = 0;
    while (projection.get(at).index() != leaf.column().index()) {
      at++;
    }
    switch (leaf.kind()) {
      case IS_NULL:
        return new NullTest(at, true);
      case NOT_NULL:
        return new NullTest(at, false);
      case LIKE:
      case NOT_LIKE:
        return new LikeTest(at, rows, (LikePattern) leaf.values().get(0), leaf.kind() == Filter.Kind.NOT_LIKE);
      default:
        break;
    }
    if (leaf.order() == null) {
      return MAY_MATCH; // an order we do not know
    }
    ValueOrder order = leaf.order();
    Value[] values = leaf.values().stream().map(v -> Value.of(order.stored(v))).toArray(Value[]::new);
    if (values.length == 0 || Arrays.stream(values).anyMatch(v -> v == null)) {
      return MAY_MATCH;
    }
    Op op = leaf.op();
    return new Comparison(at, rows, values, new boolean[] {op.holds(-1), op.holds(0), op.holds(1)});
  }

  /** Every row may match. */
  private static final Test MAY_MATCH = new Test() {
    @Override
    void judge(ColumnBatch[] columns, int from, int to, boolean[] out) {
      Arrays.fill(out, 0, to - from, true);
    }
  };

  /** AND (all) or OR of terms, each judged over the whole block. */
  private static final class Combined extends Test {
    private final Test[] terms;
    private final boolean all;
    private final boolean[] term = new boolean[BLOCK];

    Combined(Test[] terms, boolean all) {
      this.terms = terms;
      this.all = all;
    }

    @Override
    void judge(ColumnBatch[] columns, int from, int to, boolean[] out) {
      int n = to - from;
      if (terms.length == 0) {
        Arrays.fill(out, 0, n, all);
        return;
      }
      terms[0].judge(columns, from, to, out);
      for (int t = 1; t < terms.length; t++) {
        terms[t].judge(columns, from, to, term);
        if (all) {
          for (int i = 0; i < n; i++) {
            out[i] &= term[i];
          }
        } else {
          for (int i = 0; i < n; i++) {
            out[i] |= term[i];
          }
        }
      }
    }
  }

  /** IS NULL / IS NOT NULL. */
  private static final class NullTest extends Test {
    private final int column;
    private final boolean wantNull;

    NullTest(int column, boolean wantNull) {
      this.column = column;
      this.wantNull = wantNull;
    }

    @Override
    void judge(ColumnBatch[] columns, int from, int to, boolean[] out) {
      ByteBuf validity = columns[column].validity();
      if (validity == null) {
        Arrays.fill(out, 0, to - from, !wantNull);
        return;
      }
      ByteBuffer defined = view(validity, to);
      for (int r = from; r < to; r++) {
        out[r - from] = (defined.get(r) == 0) == wantNull;
      }
    }
  }

  /**
   * A test of one column's values; a null never passes. When every value of the batch is an id
   * into one dictionary ({@link ValueSink#idDictionary}) of no more entries than the test judges
   * rows in all, the test judges the dictionary's entries once and each row by its id; otherwise each
   * row's value.
   */
  private abstract static class ValueTest extends Test {
    private final int column;
    /** Rows this test judges in all: a dictionary of more entries would cost more to judge than they do. */
    private final long rows;
    /** The dictionary last judged, and its entries' judgements. */
    private Dictionary judged;
    private boolean[] entries;

    ValueTest(int column, long rows) {
      this.column = column;
      this.rows = rows;
    }

    /**
     * Sets {@code out[i - from]}, for every value {@code i} in {@code [from, to)}, to whether it
     * may match: values of {@code width} bytes in {@code data}, or, with {@code offsets} (int32
     * little-endian, one more than the values), variable-width ones.
     */
    abstract void mark(ByteBuf data, ByteBuf offsets, int width, int from, int to, boolean[] out);

    @Override
    final void judge(ColumnBatch[] columns, int from, int to, boolean[] out) {
      ColumnBatch batch = columns[column];
      ValueSink values = batch.values();
      Dictionary dictionary = values.idDictionary();
      if (dictionary != null && (dictionary == judged || dictionary.size() <= rows)) {
        if (dictionary != judged) {
          entries = new boolean[dictionary.size()];
          mark(dictionary.values(), dictionary.offsets(), dictionary.width(), 0, dictionary.size(), entries);
          judged = dictionary;
        }
        boolean[] entries = this.entries;
        ByteBuffer ids = view(values.ids(), 4 * to);
        for (int r = from; r < to; r++) {
          out[r - from] = entries[ids.getInt(r << 2)];
        }
      } else {
        mark(values.values(), values.isVariableWidth() ? values.offsets() : null, values.width(), from, to, out);
      }
      ByteBuf validity = batch.validity();
      if (validity != null) {
        ByteBuffer defined = view(validity, to);
        for (int r = from; r < to; r++) {
          out[r - from] &= defined.get(r) != 0;
        }
      }
    }
  }

  /**
   * LIKE, or NOT LIKE, on a BYTE_ARRAY column's bytes; a value the pattern cannot judge passes
   * both. The values are copied to the heap a run at a time, where the pattern's search reads them a
   * word at a time.
   */
  private static final class LikeTest extends ValueTest {
    /** Bytes of values copied at once (a longer value is copied alone, into an array of its own). */
    private static final int RUN_BYTES = 1 << 16;

    private final LikePattern pattern;
    private final boolean negated;
    private final byte[] run = new byte[RUN_BYTES];

    LikeTest(int column, long rows, LikePattern pattern, boolean negated) {
      super(column, rows);
      this.pattern = pattern;
      this.negated = negated;
    }

    @Override
    void mark(ByteBuf data, ByteBuf offsetBuf, int width, int from, int to, boolean[] out) {
      ByteBuffer offsets = view(offsetBuf, 4 * (to + 1));
      for (int r = from; r < to; ) {
        int base = offsets.getInt(r << 2);
        int end = r + 1; // values [r, end) are copied: at least one, then as many as fit
        while (end < to && offsets.getInt((end + 1) << 2) - base <= RUN_BYTES) {
          end++;
        }
        int length = offsets.getInt(end << 2) - base;
        byte[] bytes = length <= RUN_BYTES ? run : new byte[length];
        data.getBytes(base, bytes, 0, length);
        for (; r < end; r++) {
          int start = offsets.getInt(r << 2) - base;
          int judged = pattern.judge(bytes, start, offsets.getInt((r + 1) << 2) - base - start);
          out[r - from] = judged == LikePattern.UNKNOWN || (judged == LikePattern.YES) != negated;
        }
      }
    }
  }

  /** A comparison with one literal, or with any of an IN list's. */
  private static final class Comparison extends ValueTest {
    private final Value[] values;
    /** Whether the comparison holds when the row's value is below, equal to, above the literal. */
    private final boolean[] accept;

    Comparison(int column, long rows, Value[] values, boolean[] accept) {
      super(column, rows);
      this.values = values;
      this.accept = accept;
    }

    @Override
    void mark(ByteBuf data, ByteBuf offsets, int width, int from, int to, boolean[] out) {
      Arrays.fill(out, 0, to - from, false);
      for (Value v : values) {
        v.mark(data, offsets, width, from, to, accept, out);
      }
    }
  }

  /**
   * The first {@code bytes} bytes of a buffer as a little-endian NIO view (a copy when the buffer
   * has no single one): indexed reads the JIT compiles to plain loads, without netty's per-call
   * reference-count check.
   */
  private static ByteBuffer view(ByteBuf buf, int bytes) {
    if (buf.nioBufferCount() == 1) {
      return buf.nioBuffer(0, bytes).order(ByteOrder.LITTLE_ENDIAN);
    }
    ByteBuffer copy = ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
    buf.getBytes(0, copy);
    copy.clear();
    return copy;
  }

  /** A literal in the stored form of its column, compared with the rows' values. */
  private abstract static class Value {
    /**
     * Sets {@code out[r - from]} for each value {@code r} in {@code [from, to)} (laid out as
     * {@link ValueTest#mark} says) that may satisfy the comparison: below, equal to or above this
     * literal with {@code accept[0]}, {@code accept[1]} or {@code accept[2]} true, or a value that
     * cannot be judged (NaN). Leaves the other entries as they are.
     */
    abstract void mark(ByteBuf data, ByteBuf offsets, int width, int from, int to, boolean[] accept, boolean[] out);

    /**
     * The row test of a literal in its stored form, or null when rows are not judged here: NaN
     * literals; decimals stored as bytes, which late materialization has never judged (their order is
     * {@link ValueOrder.TwosComplementLiteral#compareWith}).
     */
    static Value of(ValueOrder.Stored stored) {
      if (stored instanceof ValueOrder.IntegerLiteral i) {
        return new Scaled(i);
      }
      if (stored instanceof ValueOrder.FloatingLiteral f) {
        return Double.isNaN(f.value()) ? null : new Floating(f.width(), f.value());
      }
      if (stored instanceof ValueOrder.BytesLiteral b) {
        return new Bytes(b);
      }
      return null; // every row may match
    }
  }

  /**
   * INT32, INT64, BOOLEAN (one byte), DATE and integer-stored DECIMAL: the stored integer, signed or
   * unsigned, against the literal's place among the longs ({@link ValueOrder.IntegerLiteral#compareWith},
   * here without a branch on the value). Unsigned values and the floor compare with their sign bits
   * flipped, which orders 0 .. 2<sup>64</sup>-1 as signed longs; an unsigned INT32 is zero-extended first.
   */
  private static final class Scaled extends Value {
    private final int width;
    /** The greatest long at or below the literal, its sign bit flipped when unsigned, and whether it is exactly that integer. */
    private final long floor;
    private final boolean exact;
    /** -1 / 1 when the literal is below / above every long; 0 otherwise. */
    private final int outside;
    /** Long.MIN_VALUE for unsigned values (the sign flip), else 0. */
    private final long flip;
    /** The bits of an INT32 kept: all (sign-extended) or the low 32 (zero-extended, unsigned). */
    private final long mask;

    Scaled(ValueOrder.IntegerLiteral literal) {
      this.width = literal.width();
      this.flip = literal.unsigned() ? Long.MIN_VALUE : 0;
      this.mask = literal.unsigned() ? 0xFFFF_FFFFL : -1L;
      this.floor = literal.floor() ^ flip;
      this.exact = literal.exact();
      this.outside = literal.outside();
    }

    @Override
    void mark(ByteBuf data, ByteBuf offsets, int valueWidth, int from, int to, boolean[] accept, boolean[] out) {
      if (outside != 0) {
        // Every value is above a literal below every long, and the other way round.
        if (accept[1 - outside]) {
          Arrays.fill(out, 0, to - from, true);
        }
        return;
      }
      boolean below = accept[0];
      boolean equal = accept[exact ? 1 : 0]; // x == floor(literal) < literal when it is not an integer
      boolean above = accept[2];
      long f = floor;
      long flip = this.flip;
      ByteBuffer b = view(data, to * width);
      // One loop per width, each without a branch on the value.
      if (width == 8) {
        for (int r = from; r < to; r++) {
          long x = b.getLong(r << 3) ^ flip;
          out[r - from] |= (x < f & below) | (x > f & above) | (x == f & equal);
        }
      } else if (width == 4) {
        long mask = this.mask;
        for (int r = from; r < to; r++) {
          long x = (b.getInt(r << 2) & mask) ^ flip;
          out[r - from] |= (x < f & below) | (x > f & above) | (x == f & equal);
        }
      } else {
        for (int r = from; r < to; r++) {
          long x = b.get(r);
          out[r - from] |= (x < f & below) | (x > f & above) | (x == f & equal);
        }
      }
    }
  }

  /**
   * FLOAT, DOUBLE and FLOAT16 (widened exactly), compared as doubles in {@link ValueOrder#compareDoubles}'s
   * order for numbers (-0.0 equals 0.0); a NaN value is not judged and may match whatever the comparison
   * (Drill's order would put it above every number: kept as before, see {@link ValueOrder}).
   */
  private static final class Floating extends Value {
    /** Stored bytes of a value: 2 (FLOAT16, little-endian), 4 or 8. */
    private final int width;
    private final double literal;

    Floating(int width, double literal) {
      this.width = width;
      this.literal = literal;
    }

    @Override
    void mark(ByteBuf data, ByteBuf offsets, int valueWidth, int from, int to, boolean[] accept, boolean[] out) {
      boolean below = accept[0];
      boolean equal = accept[1];
      boolean above = accept[2];
      double l = literal;
      ByteBuffer b = view(data, to * width);
      for (int r = from; r < to; r++) {
        double x = width == 8 ? b.getDouble(r << 3) : width == 4 ? b.getFloat(r << 2) : HalfFloat.toFloat(b.getShort(r << 1));
        boolean lt = x < l;
        boolean gt = x > l;
        boolean eq = x == l;
        out[r - from] |= (lt & below) | (gt & above) | (eq & equal) | !(lt | gt | eq); // NaN: not judged, may match
      }
    }
  }

  /** BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY (not DECIMAL): unsigned lexicographic ({@link ValueOrder.BytesLiteral}). */
  private static final class Bytes extends Value {
    private final ValueOrder.BytesLiteral literal;

    Bytes(ValueOrder.BytesLiteral literal) {
      this.literal = literal;
    }

    @Override
    void mark(ByteBuf dataBuf, ByteBuf offsetBuf, int width, int from, int to, boolean[] accept, boolean[] out) {
      ValueOrder.BytesLiteral l = literal;
      ByteBuffer offsets = offsetBuf != null ? view(offsetBuf, 4 * (to + 1)) : null;
      ByteBuffer data = view(dataBuf, offsets != null ? offsets.getInt(4 * to) : to * width);
      for (int r = from; r < to; r++) {
        int start;
        int length;
        if (offsets != null) {
          start = offsets.getInt(r << 2);
          length = offsets.getInt((r + 1) << 2) - start;
        } else {
          start = width * r;
          length = width;
        }
        out[r - from] |= accept[l.compareWith(data, start, length) + 1];
      }
    }
  }
}
