package io.turboparquet.drill;

import io.turboparquet.filter.Filter;
import io.turboparquet.filter.Literal;
import io.turboparquet.filter.LikePattern;
import io.turboparquet.filter.Predicate;
import io.turboparquet.filter.Predicate.Op;
import io.turboparquet.filter.ValueOrder;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.Schema;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.drill.common.expression.FunctionCall;
import org.apache.drill.common.expression.FunctionHolderExpression;
import org.apache.drill.common.expression.LogicalExpression;
import org.apache.drill.common.expression.SchemaPath;
import org.apache.drill.common.expression.TypedFieldExpr;
import org.apache.drill.common.expression.ValueExpressions;
import org.apache.drill.common.types.TypeProtos.MajorType;
import org.apache.drill.common.types.TypeProtos.MinorType;
import org.apache.drill.exec.ExecConstants;
import org.apache.drill.exec.server.options.OptionManager;
import org.apache.drill.exec.store.ColumnExplorer;
import org.apache.drill.exec.store.parquet.ParquetReaderUtility.DateCorruptionStatus;

/**
 * The filter Drill pushes into the scan ({@code TurboParquetRowGroupScan.getFilter()}) as the core's
 * {@link Predicate} on the columns of one file. The predicate is a necessary condition: every row
 * that satisfies Drill's filter satisfies it, so skipping what it rules out loses nothing (Drill
 * still evaluates its filter on every row returned). What cannot be translated exactly is left out:
 * a term of an AND is dropped, an OR with such a term is dropped whole, and a filter with nothing
 * left gives null.
 *
 * <p>Translated: {@code equal}, {@code not_equal}, {@code less_than(_or_equal_to)},
 * {@code greater_than(_or_equal_to)} of a top-level column and a literal, in either order;
 * {@code isnull}, {@code isnotnull}; {@code istrue}, {@code isfalse} and a bare BOOLEAN column;
 * {@code booleanAnd}, {@code booleanOr} (an OR of equalities of one column becomes IN); {@code like}
 * and {@code ilike} of a VARCHAR column with a constant pattern ({@link #like}); {@code not} of
 * anything translated exactly (nothing of it dropped), negated by De Morgan's laws down to its
 * leaves ({@link Predicate#not}), and {@code isnottrue}, {@code isnotfalse}.
 *
 * <p>The scan gets the filter in one of two forms, and Drill's answer differs between them: the
 * planner's own expression in the root fragment (a one-fragment query), where a decimal literal is
 * a VARDECIMAL and a date a DATE constant; parsed back from the plan's text in any other fragment,
 * where the decimal has become a DOUBLE and the date {@code cast(1578009600000 as DATE)}. Each is
 * translated as Drill evaluates it there, on the vectors our reader writes ({@link DrillColumn}):
 * Drill casts both sides to a common type (its resolver's cheapest casts), and the predicate is
 * written in the column's stored values.
 * <ul>
 * <li>INT, BIGINT, DECIMAL against an integer or decimal literal: exactly (bounds between the
 *     column's values move onto them); against a DOUBLE, Drill rounds the column to DOUBLE, so
 *     {@code =} becomes the range of values that round to the literal, {@code <} the values up to
 *     the midpoint below it, and so on.
 * <li>FLOAT, DOUBLE: an integer or decimal literal is rounded to the column's type, as Drill casts
 *     it; against a DOUBLE, a FLOAT column is widened exactly.
 * <li>DATE, TIMESTAMP (milliseconds, or microseconds that Drill truncates), TIME (milliseconds)
 *     against DATE, TIMESTAMP and TIME constants, and against strings Drill casts when they are
 *     plain {@code yyyy-mm-dd} (TIMESTAMP: also {@code yyyy-mm-dd hh:mm:ss[.fff]}): the range of
 *     stored values that convert to the literal, and so on.
 * <li>Strings against VARCHAR and VARBINARY columns (bytes, unsigned, as Drill compares them);
 *     BOOLEAN. A literal may sit in the cast Drill writes around it ({@code cast('x' as VARCHAR(1))},
 *     {@code castINT(5)}) when the cast changes nothing or is one of the above.
 * </ul>
 * Left out: columns under a group or a repeated field, columns the core does not order
 * ({@link ValueOrder#of} null: INT96, INTERVAL, GEOMETRY, GEOGRAPHY), unsigned integers and FLOAT16
 * under the built-in reader's typing (UINT4, UINT8, VARBINARY), TIME in microseconds, columns
 * the file lacks, Drill's implicit and partition columns ({@code filename}, {@code dir0}, ...,
 * which hide a file's column of the name), a column inside any function or cast, NOT of what has
 * no exact translation, LIKE and ILIKE patterns with an escape, every other function,
 * and other pairs of column and literal types (a string against a number, a number against a date,
 * a FLOAT literal against an integer column, ...).
 */
final class DrillPredicates {
  private static final BigDecimal HALF = new BigDecimal("0.5");
  private static final Map<String, Op> COMPARISONS = Map.ofEntries(
      Map.entry("equal", Op.EQ), Map.entry("==", Op.EQ), Map.entry("=", Op.EQ),
      Map.entry("not_equal", Op.NE), Map.entry("<>", Op.NE), Map.entry("!=", Op.NE),
      Map.entry("less_than", Op.LT), Map.entry("<", Op.LT),
      Map.entry("less_than_or_equal_to", Op.LE), Map.entry("<=", Op.LE),
      Map.entry("greater_than", Op.GT), Map.entry(">", Op.GT),
      Map.entry("greater_than_or_equal_to", Op.GE), Map.entry(">=", Op.GE));


  /**
   * How Drill reads a file's columns: the session options and the file's date correction that
   * {@link DrillColumn#of} takes (they decide the types and values Drill compares), and the names
   * Drill takes for its implicit, internal and partition columns, which hide a file's column of the
   * same name (ignoring case).
   *
   * @param dates the file's DRILL-4203 date status ({@link DateCorrection}): unless the file's dates
   *     are read as stored, no predicate judges them (their order differs from the values Drill sees)
   */
  record Reading(boolean timestampMicrosAsInt64, boolean timeMicrosAsInt64, boolean int96AsTimestamp,
      boolean builtInTypes, java.util.function.Predicate<String> implicit, DateCorruptionStatus dates) {
    /** As the session's options and the format's config say, for a file whose dates are read as stored. */
    static Reading of(OptionManager options, TurboParquetFormatConfig config) {
      Set<String> names = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
      names.addAll(ColumnExplorer.initImplicitFileColumns(options).keySet());
      names.addAll(ColumnExplorer.initImplicitInternalFileColumns(options).keySet());
      String partition = options.getString(ExecConstants.FILESYSTEM_PARTITION_COLUMN_LABEL);
      return new Reading(options.getBoolean(ExecConstants.PARQUET_READER_TIMESTAMP_MICROS_AS_INT64),
          options.getBoolean(ExecConstants.PARQUET_READER_TIME_MICROS_AS_INT64),
          options.getBoolean(ExecConstants.PARQUET_READER_INT96_AS_TIMESTAMP),
          config.readsBuiltInTypes(),
          name -> names.contains(name) || ColumnExplorer.isPartitionColumn(partition, name),
          DateCorruptionStatus.META_SHOWS_NO_CORRUPTION);
    }

    /** The same reading of a file with the given date status. */
    Reading withDates(DateCorruptionStatus status) {
      return status == dates ? this
          : new Reading(timestampMicrosAsInt64, timeMicrosAsInt64, int96AsTimestamp, builtInTypes, implicit, status);
    }

    /** Whether the file's DATE values reach Drill as stored. */
    boolean datesAsStored() {
      return dates == DateCorruptionStatus.META_SHOWS_NO_CORRUPTION;
    }
  }

  private final Schema schema;
  private final Reading reading;

  private DrillPredicates(Schema schema, Reading reading) {
    this.schema = schema;
    this.reading = reading;
  }

  /**
   * Drill's {@code filter}, in the form the scan got it, as a predicate on {@code schema}'s columns
   * (named as the file names them) that every row matching the filter satisfies, or null when
   * nothing of it can be translated. The result binds to {@code schema} ({@link Filter#bind});
   * nothing is thrown for any expression.
   */
  static Predicate of(LogicalExpression filter, Schema schema, Reading reading) {
    if (filter == null || schema == null || reading == null) {
      return null;
    }
    try {
      return new DrillPredicates(schema, reading).translate(filter);
    } catch (RuntimeException e) { // a shape nobody foresaw: read everything rather than fail the query
      return null;
    }
  }

  private Predicate translate(LogicalExpression e) {
    return translate(e, false);
  }

  /**
   * {@code e} as a necessary condition, or with {@code exact} as an equivalent one in SQL's
   * three-valued logic (what NOT needs): then nothing is dropped from an AND, and IS [NOT]
   * TRUE / FALSE, which are never unknown, become a null test and a comparison.
   */
  private Predicate translate(LogicalExpression e, boolean exact) {
    if (e instanceof SchemaPath || e instanceof TypedFieldExpr) { // a BOOLEAN column as the condition
      return comparison(Op.EQ, e, ValueExpressions.BooleanExpression.TRUE, exact);
    }
    String name = name(e);
    List<LogicalExpression> args = args(e);
    if (name == null) {
      return null;
    }
    return switch (name.toLowerCase(Locale.ROOT)) {
      case "booleanand", "and" -> and(args, exact);
      case "booleanor", "or" -> or(args, exact);
      case "not" -> args.size() == 1 ? negation(args.get(0)) : null;
      case "like" -> like(args, false);
      case "ilike" -> like(args, true);
      case "isnull", "is null" -> nullTest(args, false);
      case "isnotnull", "is not null" -> nullTest(args, true);
      case "istrue", "is true" -> truth(args, true, exact);
      case "isfalse", "is false" -> truth(args, false, exact);
      case "isnottrue", "is not true" -> args.size() == 1 ? negation(truth(args, true, true)) : null;
      case "isnotfalse", "is not false" -> args.size() == 1 ? negation(truth(args, false, true)) : null;
      default -> {
        Op op = COMPARISONS.get(name.toLowerCase(Locale.ROOT));
        yield op == null || args.size() != 2 ? null : comparison(op, args.get(0), args.get(1), exact);
      }
    };
  }

  /**
   * NOT {@code e} ({@code not} is null when its argument is, as Drill's function): the negation of
   * {@code e}'s exact translation, or null when it has none.
   */
  private Predicate negation(LogicalExpression e) {
    return negation(translate(e, true));
  }

  private static Predicate negation(Predicate exact) {
    return exact == null ? null : Predicate.not(exact);
  }

  /**
   * IS TRUE / IS FALSE of a BOOLEAN column: the comparison with the value, which as a filter keeps
   * the same rows; exactly, also IS NOT NULL, since IS TRUE of a null is false, not unknown.
   */
  private Predicate truth(List<LogicalExpression> args, boolean value, boolean exact) {
    if (args.size() != 1) {
      return null;
    }
    Predicate p = comparison(Op.EQ, args.get(0),
        value ? ValueExpressions.BooleanExpression.TRUE : ValueExpressions.BooleanExpression.FALSE, exact);
    if (p == null || !exact) {
      return p;
    }
    Predicate defined = nullTest(args, true);
    return defined == null ? null : new Predicate.And(List.of(defined, p));
  }

  static String name(LogicalExpression e) {
    return e instanceof FunctionCall f ? f.getName() : e instanceof FunctionHolderExpression h ? h.getName() : null;
  }

  static List<LogicalExpression> args(LogicalExpression e) {
    return e instanceof FunctionCall f ? f.args() : e instanceof FunctionHolderExpression h ? h.args : List.of();
  }

  /** The translatable terms (none: null); with {@code exact}, every term or null. */
  private Predicate and(List<LogicalExpression> args, boolean exact) {
    List<Predicate> terms = new ArrayList<>();
    for (LogicalExpression arg : args) {
      Predicate p = translate(arg, exact);
      if (p == null && exact) {
        return null;
      }
      if (p instanceof Predicate.And a) {
        terms.addAll(a.terms());
      } else if (p != null) {
        terms.add(p);
      }
    }
    return terms.isEmpty() ? null : terms.size() == 1 ? terms.get(0) : new Predicate.And(terms);
  }

  /** Every term, or null; equalities of one column become IN. */
  private Predicate or(List<LogicalExpression> args, boolean exact) {
    List<Predicate> terms = new ArrayList<>();
    for (LogicalExpression arg : args) {
      Predicate p = translate(arg, exact);
      if (p == null) {
        return null;
      }
      if (p instanceof Predicate.Or o) {
        terms.addAll(o.terms());
      } else if (p instanceof Predicate.In in) { // folded again below, with the other terms
        in.values().forEach(v -> terms.add(new Predicate.Compare(in.column(), Op.EQ, v)));
      } else {
        terms.add(p);
      }
    }
    if (terms.isEmpty()) {
      return null;
    }
    if (terms.size() == 1) {
      return terms.get(0);
    }
    String column = terms.get(0) instanceof Predicate.Compare c && c.op() == Op.EQ ? c.column() : null;
    List<Literal> values = new ArrayList<>();
    for (Predicate t : terms) {
      if (column != null && t instanceof Predicate.Compare c && c.op() == Op.EQ && c.column().equals(column)) {
        values.add(c.value());
      } else {
        return new Predicate.Or(terms);
      }
    }
    return new Predicate.In(column, values);
  }

  private Predicate nullTest(List<LogicalExpression> args, boolean negated) {
    ColumnDescriptor c = args.size() == 1 ? column(args.get(0)) : null;
    return c == null ? null : new Predicate.IsNull(c.dottedPath(), negated);
  }

  /**
   * {@code like(column, 'pattern')} or {@code ilike(column, 'pattern')} on a VARCHAR column. Drill
   * matches LIKE's simple kinds ({@code %} only first or last, no {@code _}) on the value's bytes:
   * the same test on the same bytes. ILIKE, and LIKE's other patterns, Drill matches as a Java
   * regular expression on the decoded value, ILIKE folding only the ASCII letters: the line-bound
   * pattern ({@link LikePattern}). Left to Drill: a backslash, NUL (Drill's two-argument LIKE takes
   * it as the escape), and in regular expressions a line terminator.
   */
  private Predicate like(List<LogicalExpression> args, boolean ignoreCase) {
    ColumnDescriptor c = args.size() == 2 ? column(args.get(0)) : null;
    DrillConstant v = c == null ? null : DrillConstant.of(args.get(1));
    if (v == null || v.type() != MinorType.VARCHAR) {
      return null;
    }
    String pattern = (String) v.value();
    if (pattern.indexOf('\\') >= 0 || pattern.indexOf('\0') >= 0) {
      return null;
    }
    int inner = pattern.indexOf('%', 1);
    boolean regex = ignoreCase || pattern.indexOf('_') >= 0 || inner >= 0 && inner < pattern.length() - 1;
    if (regex && pattern.chars().anyMatch(LikePattern::lineTerminator)) {
      return null;
    }
    try {
      if (DrillColumn.of(c, reading).type().getMinorType() != MinorType.VARCHAR) {
        return null;
      }
    } catch (RuntimeException e) { // a column our reader does not read: the query fails anyway
      return null;
    }
    Predicate p = Predicate.like(c.dottedPath(), new LikePattern(pattern, ignoreCase, regex));
    return binds(p) ? p : null;
  }

  /** {@code left op right}, a column and a literal; with {@code exact}, only where it is not a necessary condition alone. */
  private Predicate comparison(Op op, LogicalExpression left, LogicalExpression right, boolean exact) {
    ColumnDescriptor c = column(left);
    DrillConstant v = DrillConstant.of(right);
    if (c == null || v == null) {
      c = column(right);
      v = DrillConstant.of(left);
      op = op.mirrored();
    }
    if (c == null || v == null || ValueOrder.of(c) == null) {
      return null;
    }
    MajorType type;
    try {
      type = DrillColumn.of(c, reading).type();
    } catch (RuntimeException e) { // a column our reader does not read: the query fails anyway
      return null;
    }
    Predicate p = switch (type.getMinorType()) {
      case INT, BIGINT -> numeric(c, op, v, 0, exact);
      case VARDECIMAL -> numeric(c, op, v, type.getScale(), exact);
      case FLOAT4, FLOAT8 -> floating(c, op, v, type.getMinorType());
      case BIT -> v.type() == MinorType.BIT
          ? compare(c, op, new Literal(Literal.Kind.BOOLEAN, v.value().toString())) : null;
      case VARCHAR, VARBINARY -> v.type() == MinorType.VARCHAR // bytes, compared unsigned by both
          ? compare(c, op, new Literal(Literal.Kind.STRING, (String) v.value())) : null;
      case DATE -> reading.datesAsStored() ? temporal(c, op, v, MinorType.DATE) : null;
      case TIMESTAMP, TIME -> temporal(c, op, v, type.getMinorType());
      default -> null;
    };
    return p != null && binds(p) ? p : null;
  }

  /** The file's flat top-level leaf the expression names (Drill's names ignore case), or null. */
  private ColumnDescriptor column(LogicalExpression e) {
    SchemaPath path = e instanceof SchemaPath p ? p : e instanceof TypedFieldExpr t ? t.getPath() : null;
    if (path == null || !path.isLeaf()) {
      return null;
    }
    String name = path.getRootSegment().getPath();
    if (reading.implicit().test(name)) {
      return null; // Drill's filename, dir0, ...: not the file's column of that name
    }
    ColumnDescriptor found = null;
    for (ColumnDescriptor c : schema.columns()) {
      if (c.path().get(0).equalsIgnoreCase(name)) {
        if (found != null || c.path().size() != 1) {
          return null; // two columns of that name, or a group
        }
        found = c;
      }
    }
    return found != null && found.isFlat() && schema.column(found.dottedPath()) == found ? found : null;
  }

  /**
   * An INT, BIGINT or DECIMAL column: values on a grid of {@code scale} decimals, compared exactly.
   * Against a DOUBLE, {@link #roundedToDouble} keeps values at a rounding tie, and its {@code <>}
   * only implies Drill's: left out where an {@code exact} translation is wanted.
   */
  private static Predicate numeric(ColumnDescriptor c, Op op, DrillConstant v, int scale, boolean exact) {
    return switch (v.type()) {
      case INT, BIGINT, VARDECIMAL -> exact(c, op, (BigDecimal) v.value(), scale);
      case FLOAT8 -> exact ? null : roundedToDouble(c, op, (Double) v.value(), scale);
      default -> null; // FLOAT4 would round the column to FLOAT; strings and dates Drill casts
    };
  }

  /** {@code column op x} for exact values on the grid: bounds off the grid move onto it. */
  private static Predicate exact(ColumnDescriptor c, Op op, BigDecimal x, int scale) {
    boolean onGrid = x.stripTrailingZeros().scale() <= scale;
    Literal below = number(x.setScale(scale, RoundingMode.FLOOR));
    Literal above = number(x.setScale(scale, RoundingMode.CEILING));
    return switch (op) {
      case EQ -> compare(c, op, number(x)); // off the grid nothing equals it, which the core decides exactly
      case NE -> onGrid ? compare(c, op, number(x)) : null; // off the grid: always true
      case LT -> onGrid ? compare(c, op, number(x)) : compare(c, Op.LE, below);
      case LE -> compare(c, op, below);
      case GT -> onGrid ? compare(c, op, number(x)) : compare(c, Op.GE, above);
      case GE -> compare(c, op, above);
    };
  }

  /**
   * {@code double(column) op d}, Drill's comparison of a BIGINT or DECIMAL column (INT too: exact,
   * but the same holds) with a DOUBLE: the column rounds to nearest, so {@code = d} holds only for
   * values from the midpoint to d's lower neighbour to the midpoint to its upper one (ties
   * included), {@code <= d} up to the upper midpoint, {@code < d} up to the lower one, and so on;
   * {@code <> d} implies that the exact value is not d.
   */
  private static Predicate roundedToDouble(ColumnDescriptor c, Op op, double d, int scale) {
    BigDecimal x = new BigDecimal(d);
    double down = Math.nextDown(d);
    double up = Math.nextUp(d);
    BigDecimal lowMid = Double.isInfinite(down) ? null : x.add(new BigDecimal(down)).multiply(HALF);
    BigDecimal highMid = Double.isInfinite(up) ? null : x.add(new BigDecimal(up)).multiply(HALF);
    BigDecimal low = lowMid == null ? null : lowMid.setScale(scale, RoundingMode.CEILING);
    BigDecimal high = highMid == null ? null : highMid.setScale(scale, RoundingMode.FLOOR);
    return switch (op) {
      case EQ -> range(c, low == null ? null : number(low), high == null ? null : number(high),
          low != null && high != null && low.compareTo(high) == 0);
      case LE -> high == null ? null : compare(c, op, number(high));
      case GE -> low == null ? null : compare(c, op, number(low));
      case LT -> lowMid == null ? exact(c, op, x, scale)
          : compare(c, Op.LE, number(lowMid.setScale(scale, RoundingMode.FLOOR)));
      case GT -> highMid == null ? exact(c, op, x, scale)
          : compare(c, Op.GE, number(highMid.setScale(scale, RoundingMode.CEILING)));
      case NE -> exact(c, op, x, scale);
    };
  }

  /**
   * A FLOAT or DOUBLE column: Drill casts an integer or decimal literal to the column's type
   * (rounding to nearest, as Java's conversions), a FLOAT column to DOUBLE against a DOUBLE literal
   * (exactly); the literal is written as the double it compares as.
   */
  private static Predicate floating(ColumnDescriptor c, Op op, DrillConstant v, MinorType column) {
    double d;
    switch (v.type()) {
      case INT, BIGINT -> {
        long n = ((BigDecimal) v.value()).longValueExact();
        d = column == MinorType.FLOAT4 ? (float) n : (double) n;
      }
      case VARDECIMAL -> { // castFLOAT4 / castFLOAT8 of a VARDECIMAL: BigDecimal's conversions
        BigDecimal x = (BigDecimal) v.value();
        d = column == MinorType.FLOAT4 ? x.floatValue() : x.doubleValue();
        if (Double.isInfinite(d)) {
          return null;
        }
      }
      case FLOAT4 -> d = (Float) v.value();
      case FLOAT8 -> d = (Double) v.value();
      default -> {
        return null;
      }
    }
    return compare(c, op, new Literal(Literal.Kind.NUMBER, Double.toString(d)));
  }

  /**
   * A DATE, TIMESTAMP or TIME column against a literal in milliseconds: Drill's value is a
   * non-decreasing function of the stored one (days times a day, milliseconds, microseconds
   * truncated to milliseconds), so each comparison is one on the stored values from the least
   * stored value at or above the literal and the greatest at or below it.
   */
  private static Predicate temporal(ColumnDescriptor c, Op op, DrillConstant v, MinorType column) {
    String logical = c.logicalType() == null ? "" : c.logicalType().toUpperCase(Locale.ROOT);
    Long millis = switch (column) {
      case DATE -> v.type() == MinorType.VARCHAR ? DrillConstant.date((String) v.value())
          : v.type() == MinorType.DATE || v.type() == MinorType.TIMESTAMP ? (Long) v.value() : null;
      case TIMESTAMP -> v.type() == MinorType.VARCHAR ? DrillConstant.timestamp((String) v.value())
          : v.type() == MinorType.DATE || v.type() == MinorType.TIMESTAMP ? (Long) v.value() : null;
      default -> v.type() == MinorType.TIME && logical.contains("MILLIS") ? (Long) v.value() : null;
    };
    if (millis == null) {
      return null;
    }
    long t = millis;
    long least;
    long greatest;
    try {
      if (column == MinorType.DATE) {
        least = Math.negateExact(Math.floorDiv(Math.negateExact(t), DrillConstant.MILLIS_PER_DAY)); // ceiling
        greatest = Math.floorDiv(t, DrillConstant.MILLIS_PER_DAY);
      } else if (logical.contains("MILLIS")) {
        least = t;
        greatest = t;
      } else if (column == MinorType.TIMESTAMP && logical.contains("MICROS")) { // raw / 1000, toward zero
        least = t > 0 ? Math.multiplyExact(t, 1000) : Math.subtractExact(Math.multiplyExact(t, 1000), 999);
        greatest = t >= 0 ? Math.addExact(Math.multiplyExact(t, 1000), 999) : Math.multiplyExact(t, 1000);
      } else {
        return null;
      }
    } catch (ArithmeticException e) {
      return null;
    }
    Literal low = stored(column, least);
    Literal high = stored(column, greatest);
    return switch (op) {
      case EQ -> range(c, low, high, least == greatest);
      case NE -> least == greatest ? compare(c, op, low) : null;
      case LT -> compare(c, op, low);
      case LE -> compare(c, op, high);
      case GT -> compare(c, op, high);
      case GE -> compare(c, op, low);
    };
  }

  private static Literal stored(MinorType column, long value) {
    return column == MinorType.DATE ? new Literal(Literal.Kind.DATE, LocalDate.ofEpochDay(value).toString())
        : new Literal(Literal.Kind.NUMBER, Long.toString(value));
  }

  /** {@code low <= column <= high} (either may be absent: unbounded), or {@code column = low} when {@code single}. */
  private static Predicate range(ColumnDescriptor c, Literal low, Literal high, boolean single) {
    if (single) {
      return compare(c, Op.EQ, low);
    }
    if (low == null || high == null) {
      return low == null && high == null ? null : low == null ? compare(c, Op.LE, high) : compare(c, Op.GE, low);
    }
    return new Predicate.And(List.of(compare(c, Op.GE, low), compare(c, Op.LE, high)));
  }

  private static Predicate compare(ColumnDescriptor c, Op op, Literal literal) {
    return new Predicate.Compare(c.dottedPath(), op, literal);
  }

  private static Literal number(BigDecimal x) {
    return new Literal(Literal.Kind.NUMBER, x.signum() == 0 ? "0" : x.stripTrailingZeros().toPlainString());
  }

  /** Whether the core types every literal of {@code p} for the file (what is built here does; this keeps it so). */
  private boolean binds(Predicate p) {
    try {
      Filter.bind(p, schema);
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }
}
