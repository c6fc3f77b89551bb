package io.turboparquet.drill;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.drill.common.expression.CastExpression;
import org.apache.drill.common.expression.LogicalExpression;
import org.apache.drill.common.expression.ValueExpressions;
import org.apache.drill.common.types.TypeProtos.MajorType;
import org.apache.drill.common.types.TypeProtos.MinorType;
import org.apache.drill.common.types.Types;

/**
 * A constant of a filter Drill pushes into the scan, as Drill types it: INT, BIGINT, VARDECIMAL a
 * BigDecimal; FLOAT4 a Float; FLOAT8 a Double; VARCHAR a String; BIT a Boolean; DATE, TIMESTAMP,
 * TIME a Long of milliseconds. {@link #of} reads one through the casts Drill writes around
 * constants, as Drill's cast functions compute them; {@link DrillPredicates} compares columns with it.
 */
record DrillConstant(MinorType type, Object value) {
  static final long MILLIS_PER_DAY = 86_400_000L;
  private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
  private static final Pattern TIMESTAMP = Pattern.compile("(\\d{4}-\\d{2}-\\d{2}) (\\d{2}:\\d{2}:\\d{2})(\\.\\d{3})?");

  /** A constant as Drill types it, through the casts Drill writes around constants; null for anything else. */
  static DrillConstant of(LogicalExpression e) {
    if (e instanceof ValueExpressions.IntExpression i) {
      return new DrillConstant(MinorType.INT, BigDecimal.valueOf(i.getInt()));
    }
    if (e instanceof ValueExpressions.LongExpression l) {
      return new DrillConstant(MinorType.BIGINT, BigDecimal.valueOf(l.getLong()));
    }
    if (e instanceof ValueExpressions.VarDecimalExpression d) {
      return new DrillConstant(MinorType.VARDECIMAL, d.getBigDecimal());
    }
    if (e instanceof ValueExpressions.DoubleExpression d) {
      return Double.isFinite(d.getDouble()) ? new DrillConstant(MinorType.FLOAT8, d.getDouble()) : null;
    }
    if (e instanceof ValueExpressions.FloatExpression f) {
      return Float.isFinite(f.getFloat()) ? new DrillConstant(MinorType.FLOAT4, f.getFloat()) : null;
    }
    if (e instanceof ValueExpressions.QuotedString s) {
      return new DrillConstant(MinorType.VARCHAR, s.value);
    }
    if (e instanceof ValueExpressions.BooleanExpression b) {
      return new DrillConstant(MinorType.BIT, b.getBoolean());
    }
    if (e instanceof ValueExpressions.DateExpression d) {
      return new DrillConstant(MinorType.DATE, d.getDate());
    }
    if (e instanceof ValueExpressions.TimeStampExpression t) {
      return new DrillConstant(MinorType.TIMESTAMP, t.getTimeStamp());
    }
    if (e instanceof ValueExpressions.TimeExpression t) {
      return new DrillConstant(MinorType.TIME, (long) t.getTime());
    }
    if (e instanceof CastExpression c) {
      return cast(of(c.getInput()), c.getMajorType());
    }
    String name = DrillPredicates.name(e);
    List<LogicalExpression> args = DrillPredicates.args(e);
    if (name == null || !name.regionMatches(true, 0, "cast", 0, 4) || args.isEmpty()) {
      return null;
    }
    // A cast function as the planner writes it: castINT(x), castVARCHAR(x, length), castVARDECIMAL(x, p, s).
    MinorType to;
    try {
      to = MinorType.valueOf(name.substring(4).toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException unknown) {
      return null;
    }
    MajorType.Builder type = Types.required(to).toBuilder();
    Integer precision = args.size() > 1 ? intConstant(args.get(1)) : null;
    Integer scale = args.size() > 2 ? intConstant(args.get(2)) : null;
    if (to == MinorType.VARCHAR && args.size() == 2 && precision != null) {
      type.setPrecision(precision);
    } else if (to == MinorType.VARDECIMAL && args.size() == 3 && precision != null && scale != null) {
      type.setPrecision(precision).setScale(scale);
    } else if (args.size() != 1) {
      return null;
    }
    return cast(of(args.get(0)), type.build());
  }

  private static Integer intConstant(LogicalExpression e) {
    return e instanceof ValueExpressions.IntExpression i ? i.getInt() : null;
  }

  /** {@code v} cast to {@code to} as Drill's cast functions do it, when the result is exact; else null. */
  private static DrillConstant cast(DrillConstant v, MajorType to) {
    if (v == null) {
      return null;
    }
    MinorType from = v.type();
    boolean integer = from == MinorType.INT || from == MinorType.BIGINT;
    switch (to.getMinorType()) {
      case INT:
        return integer && fits((BigDecimal) v.value(), Integer.MIN_VALUE, Integer.MAX_VALUE)
            ? new DrillConstant(MinorType.INT, v.value()) : null;
      case BIGINT:
        return integer ? new DrillConstant(MinorType.BIGINT, v.value()) : null;
      case VARDECIMAL:
        if (!integer && from != MinorType.VARDECIMAL) {
          return null;
        }
        BigDecimal x = (BigDecimal) v.value();
        if (x.stripTrailingZeros().scale() > to.getScale()) {
          return null; // the cast would round
        }
        BigDecimal scaled = x.setScale(to.getScale(), RoundingMode.UNNECESSARY);
        return scaled.precision() <= to.getPrecision() ? new DrillConstant(MinorType.VARDECIMAL, scaled) : null;
      case FLOAT8:
        return integer ? new DrillConstant(MinorType.FLOAT8, (double) ((BigDecimal) v.value()).longValueExact())
            : from == MinorType.FLOAT4 ? new DrillConstant(MinorType.FLOAT8, (double) (Float) v.value())
            : from == MinorType.FLOAT8 ? v : null;
      case FLOAT4:
        if (integer) {
          return new DrillConstant(MinorType.FLOAT4, (float) ((BigDecimal) v.value()).longValueExact());
        }
        if (from == MinorType.FLOAT8 && Float.isFinite((float) (double) (Double) v.value())) {
          return new DrillConstant(MinorType.FLOAT4, (float) (double) (Double) v.value());
        }
        return from == MinorType.FLOAT4 ? v : null;
      case VARCHAR:
        return from == MinorType.VARCHAR && ((String) v.value()).length() <= to.getPrecision() ? v : null;
      case BIT:
        return from == MinorType.BIT ? v : null;
      case DATE: // castDATE(BIGINT) keeps the milliseconds; a string is parsed
        if (integer) {
          return new DrillConstant(MinorType.DATE, ((BigDecimal) v.value()).longValueExact());
        }
        return from == MinorType.DATE ? v
            : from == MinorType.VARCHAR && date((String) v.value()) != null
            ? new DrillConstant(MinorType.DATE, date((String) v.value())) : null;
      case TIMESTAMP:
        if (integer) {
          return new DrillConstant(MinorType.TIMESTAMP, ((BigDecimal) v.value()).longValueExact());
        }
        if (from == MinorType.DATE || from == MinorType.TIMESTAMP) {
          return new DrillConstant(MinorType.TIMESTAMP, v.value());
        }
        return from == MinorType.VARCHAR && timestamp((String) v.value()) != null
            ? new DrillConstant(MinorType.TIMESTAMP, timestamp((String) v.value())) : null;
      case TIME: // castTIME(INT) keeps the milliseconds
        return from == MinorType.INT || from == MinorType.TIME
            ? new DrillConstant(MinorType.TIME, ((Number) v.value()).longValue()) : null;
      default:
        return null;
    }
  }

  private static boolean fits(BigDecimal x, long min, long max) {
    return x.compareTo(BigDecimal.valueOf(min)) >= 0 && x.compareTo(BigDecimal.valueOf(max)) <= 0;
  }

  /** Milliseconds of a plain {@code yyyy-mm-dd} (as Drill parses it to a DATE or TIMESTAMP), or null. */
  static Long date(String s) {
    if (!DATE.matcher(s).matches()) {
      return null;
    }
    try {
      LocalDate d = LocalDate.parse(s);
      return d.getYear() < 1 ? null : d.toEpochDay() * MILLIS_PER_DAY;
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /** Milliseconds (UTC, as Drill's cast to TIMESTAMP) of {@code yyyy-mm-dd[ hh:mm:ss[.fff]]}, or null. */
  static Long timestamp(String s) {
    Long day = date(s);
    if (day != null) {
      return day;
    }
    Matcher m = TIMESTAMP.matcher(s);
    if (!m.matches() || date(m.group(1)) == null) {
      return null;
    }
    try {
      LocalDateTime t = LocalDateTime.parse(m.group(1) + "T" + m.group(2) + (m.group(3) == null ? "" : m.group(3)));
      return t.toInstant(ZoneOffset.UTC).toEpochMilli();
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
