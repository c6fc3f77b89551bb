package io.turboparquet.scan;

import io.netty.buffer.ByteBuf;
import io.turboparquet.decode.ValueSink;
import io.turboparquet.filter.Filter;
import io.turboparquet.filter.Predicate.Op;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.PhysicalType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * Late materialization's test: whether any row of a batch may match a filter, judged from the
 * decoded values of the filter's columns only, so that the scan decodes the other columns of a
 * batch only when it has a candidate row. A necessary condition, like every other use of the
 * filter: a value it cannot judge (NaN, a column whose order the filter does not know) counts as
 * a match, and a null never compares true. Literals are turned once into the stored form they are
 * compared with (a scaled long, a double, unsigned bytes), so the test per row is a primitive
 * comparison.
 */
final class BatchFilter {
  /** A node of the filter, evaluated on one row of the decoded filter columns. */
  private interface Test {
    boolean test(ColumnBatch[] columns, int row);
  }

  /** Projection positions of the filter's columns (each decoded first). */
  private final int[] filterColumns;
  private final Test root;

  private BatchFilter(int[] filterColumns, Test root) {
    this.filterColumns = filterColumns;
    this.root = root;
  }

  /**
   * The test of {@code filter} over batches of {@code projection}, or null when late
   * materialization would not pay or cannot be done: a filter column not projected, a projected
   * column that is not flat (rows of nested columns are not skipped), or no column outside the
   * filter's to save.
   */
  static BatchFilter of(Filter filter, List<ColumnDescriptor> projection) {
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
    if (positions.size() >= projection.size()) {
      return null;
    }
    Test root = test(filter.root(), projection);
    return new BatchFilter(positions.stream().mapToInt(Integer::intValue).toArray(), root);
  }

  /** Projection positions of the columns to decode first. */
  int[] filterColumns() {
    return filterColumns;
  }

  /**
   * The first of the first {@code rows} rows that may match, or {@code rows} when none may;
   * {@code columns} holds (at least) the filter's columns.
   */
  int firstMatch(ColumnBatch[] columns, int rows) {
    for (int r = 0; r < rows; r++) {
      if (root.test(columns, r)) {
        return r;
      }
    }
    return rows;
  }

  /** The last row before {@code rows} that may match, searched down to {@code first}, a row that may. */
  int lastMatch(ColumnBatch[] columns, int first, int rows) {
    for (int r = rows - 1; r > first; r--) {
      if (root.test(columns, r)) {
        return r;
      }
    }
    return first;
  }

  private static Test test(Filter.Node node, List<ColumnDescriptor> projection) {
    if (node instanceof Filter.All all) {
      Test[] terms = all.terms().stream().map(t -> test(t, projection)).toArray(Test[]::new);
      return (c, r) -> {
        for (Test t : terms) {
          if (!t.test(c, r)) {
            return false;
          }
        }
        return true;
      };
    }
    if (node instanceof Filter.Any any) {
      Test[] terms = any.terms().stream().map(t -> test(t, projection)).toArray(Test[]::new);
      return (c, r) -> {
        for (Test t : terms) {
          if (t.test(c, r)) {
            return true;
          }
        }
        return false;
      };
    }
    Filter.Leaf leaf = (Filter.Leaf) node;
    int at = 0;
    while (projection.get(at).index() != leaf.column().index()) {
      at++;
    }
    int column = at;
    switch (leaf.kind()) {
      case IS_NULL:
        return (c, r) -> isNull(c[column], r);
      case NOT_NULL:
        return (c, r) -> !isNull(c[column], r);
      default:
        break;
    }
    if (leaf.order() == null) {
      return (c, r) -> true; // an order we do not know: may match
    }
    Value[] values = leaf.values().stream().map(v -> Value.of(leaf.column(), leaf.order().scale(), v))
        .toArray(Value[]::new);
    if (values.length == 0 || java.util.Arrays.stream(values).anyMatch(v -> v == null)) {
      return (c, r) -> true;
    }
    Op op = leaf.op();
    return (c, r) -> {
      ColumnBatch batch = c[column];
      if (isNull(batch, r)) {
        return false;
      }
      for (Value v : values) {
        int cmp = v.compareRow(batch.values(), r);
        if (cmp == Value.UNKNOWN || holds(op, cmp)) {
          return true;
        }
      }
      return false;
    };
  }

  private static boolean isNull(ColumnBatch batch, int row) {
    ByteBuf validity = batch.validity();
    return validity != null && validity.getByte(row) == 0;
  }

  private static boolean holds(Op op, int cmp) {
    return switch (op) {
      case EQ -> cmp == 0;
      case NE -> cmp != 0;
      case LT -> cmp < 0;
      case LE -> cmp <= 0;
      case GT -> cmp > 0;
      case GE -> cmp >= 0;
    };
  }

  /** A literal in the stored form of its column, compared with one row's value. */
  private abstract static class Value {
    /** The row's value cannot be judged (NaN): it may match. */
    static final int UNKNOWN = Integer.MIN_VALUE;

    /** The sign of (row value - literal), or UNKNOWN. */
    abstract int compareRow(ValueSink values, int row);

    /**
     * The literal {@code v} (as {@link io.turboparquet.filter.ValueOrder#literal} typed it, with the
     * order's decimal {@code scale}), or null when rows are not judged here.
     */
    static Value of(ColumnDescriptor column, int scale, Object v) {
      PhysicalType type = column.physicalType();
      if (v instanceof BigDecimal d && (type == PhysicalType.INT32 || type == PhysicalType.INT64
          || type == PhysicalType.BOOLEAN)) {
        return new Scaled(type, d.movePointRight(scale));
      }
      if (v instanceof Double d && (type == PhysicalType.FLOAT || type == PhysicalType.DOUBLE)) {
        return Double.isNaN(d) ? null : new Floating(type == PhysicalType.FLOAT, d);
      }
      if (v instanceof byte[] b && (type == PhysicalType.BYTE_ARRAY || type == PhysicalType.FIXED_LEN_BYTE_ARRAY)) {
        return new Bytes(b);
      }
      return null; // e.g. decimals stored as bytes: not judged, every row may match
    }
  }

  /** INT32, INT64, BOOLEAN (one byte), DATE and integer-stored DECIMAL: the unscaled stored integer. */
  private static final class Scaled extends Value {
    private final int width;
    /** The literal's floor as a long (clamped), and whether it is exactly that integer. */
    private final long floor;
    private final boolean exact;
    /** -1 / 1 when the literal is below / above every long; 0 otherwise. */
    private final int outside;

    Scaled(PhysicalType type, BigDecimal literal) {
      this.width = type == PhysicalType.INT64 ? 8 : type == PhysicalType.INT32 ? 4 : 1;
      BigDecimal f = literal.setScale(0, RoundingMode.FLOOR);
      if (f.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) < 0) {
        outside = -1;
        floor = Long.MIN_VALUE;
      } else if (f.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
        outside = 1;
        floor = Long.MAX_VALUE;
      } else {
        outside = 0;
        floor = f.longValueExact();
      }
      this.exact = outside == 0 && f.compareTo(literal) == 0;
    }

    @Override
    int compareRow(ValueSink values, int row) {
      if (outside != 0) {
        return -outside; // every value is above a literal below every long, and the other way round
      }
      ByteBuf b = values.values();
      long x = width == 8 ? b.getLongLE(8 * row)
          : width == 4 ? b.getIntLE(4 * row) : b.getByte(row);
      if (x != floor) {
        return x < floor ? -1 : 1;
      }
      return exact ? 0 : -1; // x == floor(literal) < literal
    }
  }

  /** FLOAT and DOUBLE, compared as doubles; NaN values may match anything, -0.0 equals 0.0. */
  private static final class Floating extends Value {
    private final boolean single;
    private final double literal;

    Floating(boolean single, double literal) {
      this.single = single;
      this.literal = literal;
    }

    @Override
    int compareRow(ValueSink values, int row) {
      ByteBuf b = values.values();
      double x = single ? Float.intBitsToFloat(b.getIntLE(4 * row)) : Double.longBitsToDouble(b.getLongLE(8 * row));
      if (Double.isNaN(x)) {
        return UNKNOWN;
      }
      return x < literal ? -1 : x > literal ? 1 : 0;
    }
  }

  /** BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY (not DECIMAL): unsigned lexicographic. */
  private static final class Bytes extends Value {
    private final byte[] literal;

    Bytes(byte[] literal) {
      this.literal = literal;
    }

    @Override
    int compareRow(ValueSink values, int row) {
      ByteBuf data = values.values();
      int from;
      int length;
      if (values.isVariableWidth()) {
        ByteBuf offsets = values.offsets();
        from = offsets.getIntLE(4 * row);
        length = offsets.getIntLE(4 * row + 4) - from;
      } else {
        from = values.width() * row;
        length = values.width();
      }
      int n = Math.min(length, literal.length);
      for (int i = 0; i < n; i++) {
        int a = data.getByte(from + i) & 0xFF;
        int b = literal[i] & 0xFF;
        if (a != b) {
          return a < b ? -1 : 1;
        }
      }
      return Integer.compare(length, literal.length);
    }
  }
}
