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

    /** Whether x op y holds, given the sign of x compared with y. */
    public boolean holds(int cmp) {
      return switch (this) {
        case EQ -> cmp == 0;
        case NE -> cmp != 0;
        case LT -> cmp < 0;
        case LE -> cmp <= 0;
        case GT -> cmp > 0;
        case GE -> cmp >= 0;
      };
    }

    /** The op of NOT (x op y), for non-null x and y. */
    public Op negated() {
      return switch (this) {
        case EQ -> NE;
        case NE -> EQ;
        case LT -> GE;
        case LE -> GT;
        case GT -> LE;
        case GE -> LT;
      };
    }

    /** The op with its operands swapped: x op y is y mirrored() x. */
    public Op mirrored() {
      return switch (this) {
        case LT -> GT;
        case LE -> GE;
        case GT -> LT;
        case GE -> LE;
        case EQ, NE -> this;
      };
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
   * {@code column LIKE 'pattern'} on a string column, or {@code NOT LIKE} when negated (ILIKE when
   * the pattern ignores case); {@code %} the wildcard, and {@code _} in line-bound patterns
   * ({@link LikePattern}); escapes are refused (an engine's translation leaves such patterns out). A value the pattern
   * judges unknown passes both LIKE and NOT LIKE. Build it with {@link #like}, which adds what the
   * statistics can use.
   */
  record Like(String column, LikePattern pattern, boolean negated) implements Predicate {
    public Like {
      if (pattern.pattern().indexOf('\\') >= 0) {
        throw new IllegalArgumentException("LIKE " + pattern + ": escapes are not taken");
      }
    }

    public Like(String column, LikePattern pattern) {
      this(column, pattern, false);
    }

    @Override
    public String toString() {
      return column + (negated ? " NOT" : "") + (pattern.ignoreCase() ? " ILIKE " : " LIKE ") + pattern
          + (pattern.lineBound() ? " (line-bound)" : "");
    }
  }

  /** {@code column LIKE 'pattern'} on bytes, case as it is: {@link #like(String, LikePattern)}. */
  static Predicate like(String column, String pattern) {
    return like(column, new LikePattern(pattern));
  }

  /**
   * {@code column LIKE 'pattern'} as the predicate the scan uses in full.
   * Matched on bytes, case as it is: an equality without a wildcard; else the range of strings that
   * start with the pattern's prefix (in UTF-8 byte order, which is code point order, so that
   * statistics and page indexes prune it), and the pattern itself unless it is that prefix and one
   * trailing {@code %}. Line-bound or ignoring case, the pattern alone: a range would drop values the
   * pattern judges unknown, and the prefix's letters may be of either case.
   */
  static Predicate like(String column, LikePattern p) {
    Predicate like = new Like(column, p);
    if (p.ignoreCase() || p.lineBound()) {
      return like;
    }
    String pattern = p.pattern();
    String prefix = p.prefix();
    if (prefix.equals(pattern)) {
      return new Compare(column, Op.EQ, new Literal(Literal.Kind.STRING, pattern));
    }
    List<Predicate> terms = new java.util.ArrayList<>();
    boolean bounded = prefix.isEmpty();
    if (!prefix.isEmpty()) {
      terms.add(new Compare(column, Op.GE, new Literal(Literal.Kind.STRING, prefix)));
      int last = prefix.codePointBefore(prefix.length());
      if (last != Character.MAX_CODE_POINT) {
        int next = last + 1 == Character.MIN_SURROGATE ? Character.MAX_SURROGATE + 1 : last + 1;
        String above = prefix.substring(0, prefix.length() - Character.charCount(last)) + Character.toString(next);
        terms.add(new Compare(column, Op.LT, new Literal(Literal.Kind.STRING, above)));
        bounded = true;
      }
    }
    // The terms must be the pattern exactly, for NOT: a prefix without an upper bound keeps the pattern.
    if (!pattern.equals(prefix + "%") || !bounded) {
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

  /**
   * NOT {@code p}, exactly, in SQL's three-valued logic, where a null value makes a comparison, IN
   * and LIKE unknown and NOT of unknown is unknown: De Morgan's laws down to the leaves, each leaf
   * negated ({@code =} and {@code <>}, {@code <} and {@code >=}, IN and the conjunction of
   * {@code <>}s, IS NULL and IS NOT NULL, LIKE and NOT LIKE). A row whose value is null passes
   * neither a leaf nor its negation, as in SQL. Null when {@code p} has no such negation
   * (INTERSECTS).
   */
  static Predicate not(Predicate p) {
    if (p instanceof Compare c) {
      return new Compare(c.column(), c.op().negated(), c.value());
    }
    if (p instanceof In in) {
      List<Predicate> terms = in.values().stream().map(v -> (Predicate) new Compare(in.column(), Op.NE, v)).toList();
      return terms.size() == 1 ? terms.get(0) : new And(terms);
    }
    if (p instanceof IsNull n) {
      return new IsNull(n.column(), !n.negated());
    }
    if (p instanceof Like l) {
      return new Like(l.column(), l.pattern(), !l.negated());
    }
    if (p instanceof And || p instanceof Or) {
      List<Predicate> terms = p instanceof And a ? a.terms() : ((Or) p).terms();
      List<Predicate> negated = new java.util.ArrayList<>();
      for (Predicate t : terms) {
        Predicate n = not(t);
        if (n == null) {
          return null;
        }
        negated.add(n);
      }
      return p instanceof And ? new Or(negated) : new And(negated);
    }
    return null;
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
