package io.turboparquet.filter;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A row filter over columns named by dotted path, as parsed ({@link FilterParser}), not yet bound
 * to a file's schema ({@link Filter#bind}). A value that is null never compares true.
 */
public sealed interface Predicate {
  enum Op {
    EQ("="), NE("<>"), LT("<"), LE("<="), GT(">"), GE(">=");

    private final String symbol;

    Op(String symbol) {
      this.symbol = symbol;
    }

    @Override
    public String toString() {
      return symbol;
    }
  }

  /** {@code column op value}. */
  record Compare(String column, Op op, Literal value) implements Predicate {
    @Override
    public String toString() {
      return column + " " + op + " " + value;
    }
  }

  /** {@code column IN (values)}. */
  record In(String column, List<Literal> values) implements Predicate {
    public In {
      values = List.copyOf(values);
    }

    @Override
    public String toString() {
      return column + " IN (" + values.stream().map(Literal::toString).collect(Collectors.joining(", ")) + ")";
    }
  }

  /** {@code column IS NULL}, or {@code IS NOT NULL} when negated. */
  record IsNull(String column, boolean negated) implements Predicate {
    @Override
    public String toString() {
      return column + (negated ? " IS NOT NULL" : " IS NULL");
    }
  }

  /**
   * {@code column INTERSECTS BOX(xmin, ymin, xmax, ymax)}: a GEOMETRY or GEOGRAPHY value with a
   * point in the box (X spanning the antimeridian where {@code xmin > xmax}).
   */
  record Intersects(String column, double xmin, double ymin, double xmax, double ymax) implements Predicate {
    public Intersects {
      if (Double.isNaN(xmin) || Double.isNaN(ymin) || Double.isNaN(xmax) || Double.isNaN(ymax) || ymin > ymax) {
        throw new IllegalArgumentException("BOX(" + xmin + ", " + ymin + ", " + xmax + ", " + ymax
            + ") is not a box: numbers, and ymin <= ymax");
      }
    }

    @Override
    public String toString() {
      return column + " INTERSECTS BOX(" + xmin + ", " + ymin + ", " + xmax + ", " + ymax + ")";
    }
  }

  /**
   * {@code column LIKE 'pattern'} on a string column, {@code %} the only wildcard ({@link LikePattern});
   * {@code _} and escapes are refused (an engine's translation leaves such patterns out). Build it
   * with {@link #like}, which adds what the statistics can use.
   */
  record Like(String column, LikePattern pattern) implements Predicate {
    public Like {
      if (pattern.pattern().indexOf('_') >= 0 || pattern.pattern().indexOf('\\') >= 0) {
        throw new IllegalArgumentException("LIKE " + pattern + ": only % is taken as a wildcard, not _ or escapes");
      }
    }

    @Override
    public String toString() {
      return column + " LIKE " + pattern;
    }
  }

  /**
   * {@code column LIKE 'pattern'} ({@code %} the only wildcard) as the predicate the scan uses in full:
   * an equality without a wildcard; else the range of strings that start with the pattern's prefix
   * (in UTF-8 byte order, which is code point order, so that statistics and page indexes prune it),
   * and the pattern itself unless it is that prefix and one trailing {@code %}.
   */
  static Predicate like(String column, String pattern) {
    LikePattern p = new LikePattern(pattern);
    Predicate like = new Like(column, p);
    String prefix = p.prefix();
    if (prefix.equals(pattern)) {
      return new Compare(column, Op.EQ, new Literal(Literal.Kind.STRING, pattern));
    }
    List<Predicate> terms = new java.util.ArrayList<>();
    if (!prefix.isEmpty()) {
      terms.add(new Compare(column, Op.GE, new Literal(Literal.Kind.STRING, prefix)));
      int last = prefix.codePointBefore(prefix.length());
      if (last != Character.MAX_CODE_POINT) {
        int next = last + 1 == Character.MIN_SURROGATE ? Character.MAX_SURROGATE + 1 : last + 1;
        String above = prefix.substring(0, prefix.length() - Character.charCount(last)) + Character.toString(next);
        terms.add(new Compare(column, Op.LT, new Literal(Literal.Kind.STRING, above)));
      }
    }
    if (!pattern.equals(prefix + "%")) {
      terms.add(like);
    }
    return terms.size() == 1 ? terms.get(0) : new And(terms);
  }

  record And(List<Predicate> terms) implements Predicate {
    public And {
      terms = List.copyOf(terms);
    }

    @Override
    public String toString() {
      return terms.stream().map(t -> t instanceof Or ? "(" + t + ")" : t.toString()).collect(Collectors.joining(" AND "));
    }
  }

  record Or(List<Predicate> terms) implements Predicate {
    public Or {
      terms = List.copyOf(terms);
    }

    @Override
    public String toString() {
      return terms.stream().map(t -> t instanceof And ? "(" + t + ")" : t.toString()).collect(Collectors.joining(" OR "));
    }
  }

  /** Parses the SQL-like text form; see {@link FilterParser}. */
  static Predicate parse(String text) {
    return FilterParser.parse(text);
  }

  /** The columns this predicate names, in order of appearance. */
  default Set<String> columns() {
    Set<String> out = new LinkedHashSet<>();
    collect(this, out);
    return out;
  }

  private static void collect(Predicate p, Set<String> out) {
    if (p instanceof Compare c) {
      out.add(c.column());
    } else if (p instanceof In i) {
      out.add(i.column());
    } else if (p instanceof IsNull n) {
      out.add(n.column());
    } else if (p instanceof Intersects g) {
      out.add(g.column());
    } else if (p instanceof Like l) {
      out.add(l.column());
    } else if (p instanceof And a) {
      a.terms().forEach(t -> collect(t, out));
    } else if (p instanceof Or o) {
      o.terms().forEach(t -> collect(t, out));
    }
  }
}
