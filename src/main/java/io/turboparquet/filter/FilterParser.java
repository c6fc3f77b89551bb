package io.turboparquet.filter;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses the filter text of the command line, a small SQL-like form:
 *
 * <pre>
 * expr    := and (OR and)*
 * and     := atom (AND atom)*
 * atom    := NOT atom | '(' expr ')' | column op literal | column [NOT] BETWEEN literal AND literal
 *          | column [NOT] IN '(' literal (',' literal)* ')' | column IS [NOT] NULL
 *          | column INTERSECTS BOX '(' number ',' number ',' number ',' number ')'
 *          | column [NOT] LIKE 'pattern' | column [NOT] ILIKE 'pattern'
 * op      := = | <> | != | < | <= | > | >=
 * literal := number | 'string' | DATE 'yyyy-mm-dd' | TRUE | FALSE
 * column  := name(.name)* | "quoted name"
 * </pre>
 *
 * Keywords are case-insensitive. {@code BETWEEN a AND b} is {@code >= a AND <= b}; NOT is SQL's,
 * in three-valued logic ({@link Predicate#not}; not of INTERSECTS). A LIKE pattern's only wildcard is {@code %} ({@link Predicate#like}); ILIKE folds the ASCII letters only. {@code BOX(xmin, ymin, xmax, ymax)} is a box in the column's coordinates
 * (longitude and latitude for the default CRS); xmin above xmax spans the antimeridian. Errors are {@link IllegalArgumentException}s naming the position and
 * what was expected.
 */
public final class FilterParser {
  private final String text;
  private int pos;

  private FilterParser(String text) {
    this.text = text;
  }

  public static Predicate parse(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("filter is empty");
    }
    FilterParser p = new FilterParser(text);
    Predicate out = p.or();
    p.space();
    if (p.pos < text.length()) {
      throw p.error("expected AND, OR or the end");
    }
    return out;
  }

  private Predicate or() {
    List<Predicate> terms = new ArrayList<>();
    terms.add(and());
    while (keyword("OR")) {
      terms.add(and());
    }
    return terms.size() == 1 ? terms.get(0) : new Predicate.Or(terms);
  }

  private Predicate and() {
    List<Predicate> terms = new ArrayList<>();
    terms.add(atom());
    while (keyword("AND")) {
      terms.add(atom());
    }
    return terms.size() == 1 ? terms.get(0) : new Predicate.And(terms);
  }

  private Predicate atom() {
    space();
    if (keyword("NOT")) {
      return negated(atom());
    }
    if (peek('(')) {
      pos++;
      Predicate inner = or();
      expect(')');
      return inner;
    }
    String column = column();
    if (keyword("IS")) {
      boolean not = keyword("NOT");
      if (!keyword("NULL")) {
        throw error("expected NULL after IS" + (not ? " NOT" : ""));
      }
      return new Predicate.IsNull(column, not);
    }
    if (keyword("NOT")) {
      if (!lookingAt("IN") && !lookingAt("LIKE") && !lookingAt("ILIKE") && !lookingAt("BETWEEN")) {
        throw error("expected IN, LIKE, ILIKE or BETWEEN after NOT");
      }
      return negated(rest(column));
    }
    return rest(column);
  }

  private Predicate negated(Predicate p) {
    Predicate not = Predicate.not(p);
    if (not == null) {
      throw error("NOT of " + p + " is not supported");
    }
    return not;
  }

  /** The rest of an atom after its column, when it is not IS [NOT] NULL and NOT is taken. */
  private Predicate rest(String column) {
    if (keyword("IN")) {
      expect('(');
      List<Literal> values = new ArrayList<>();
      do {
        values.add(literal());
      } while (accept(','));
      expect(')');
      return new Predicate.In(column, values);
    }
    if (keyword("INTERSECTS")) {
      if (!keyword("BOX")) {
        throw error("expected BOX after INTERSECTS");
      }
      expect('(');
      double[] box = new double[4];
      for (int i = 0; i < 4; i++) {
        if (i > 0) {
          expect(',');
        }
        Literal n = literal();
        if (n.kind() != Literal.Kind.NUMBER) {
          throw error("expected a number in BOX");
        }
        box[i] = Double.parseDouble(n.text());
      }
      expect(')');
      try {
        return new Predicate.Intersects(column, box[0], box[1], box[2], box[3]);
      } catch (IllegalArgumentException e) {
        throw error(e.getMessage());
      }
    }
    boolean ignoreCase = keyword("ILIKE");
    if (ignoreCase || keyword("LIKE")) {
      Literal pattern = literal();
      if (pattern.kind() != Literal.Kind.STRING) {
        throw error("expected a 'pattern' after " + (ignoreCase ? "ILIKE" : "LIKE"));
      }
      try {
        return Predicate.like(column, new LikePattern(pattern.text(), ignoreCase, false));
      } catch (IllegalArgumentException e) {
        throw error(e.getMessage());
      }
    }
    if (keyword("BETWEEN")) {
      Literal low = literal();
      if (!keyword("AND")) {
        throw error("expected AND in BETWEEN");
      }
      Literal high = literal();
      return new Predicate.And(List.of(new Predicate.Compare(column, Predicate.Op.GE, low),
          new Predicate.Compare(column, Predicate.Op.LE, high)));
    }
    Predicate.Op op = op();
    return new Predicate.Compare(column, op, literal());
  }

  private String column() {
    space();
    if (peek('"')) {
      int end = text.indexOf('"', pos + 1);
      if (end < 0) {
        throw error("unterminated quoted column name");
      }
      String name = text.substring(pos + 1, end);
      pos = end + 1;
      if (name.isEmpty()) {
        throw error("empty column name");
      }
      return name;
    }
    int start = pos;
    while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_'
        || text.charAt(pos) == '.' && pos > start)) {
      pos++;
    }
    if (pos == start || Character.isDigit(text.charAt(start))) {
      pos = start;
      throw error("expected a column name");
    }
    return text.substring(start, pos);
  }

  private Predicate.Op op() {
    space();
    for (String[] o : new String[][] {{"<>", "NE"}, {"!=", "NE"}, {"<=", "LE"}, {">=", "GE"}, {"=", "EQ"},
        {"<", "LT"}, {">", "GT"}}) {
      if (text.startsWith(o[0], pos)) {
        pos += o[0].length();
        return Predicate.Op.valueOf(o[1]);
      }
    }
    throw error("expected a comparison (=, <>, <, <=, >, >=), IN, BETWEEN or IS [NOT] NULL");
  }

  private Literal literal() {
    space();
    if (peek('\'')) {
      return new Literal(Literal.Kind.STRING, string());
    }
    int start = pos;
    if (keyword("DATE")) {
      space();
      if (!peek('\'')) {
        throw error("expected 'yyyy-mm-dd' after DATE");
      }
      int at = pos;
      String date = string();
      if (!date.matches("-?\\d{4,}-\\d{2}-\\d{2}")) {
        pos = at;
        throw error("DATE wants 'yyyy-mm-dd', not '" + date + "'");
      }
      return new Literal(Literal.Kind.DATE, date);
    }
    if (keyword("TRUE")) {
      return new Literal(Literal.Kind.BOOLEAN, "true");
    }
    if (keyword("FALSE")) {
      return new Literal(Literal.Kind.BOOLEAN, "false");
    }
    pos = start;
    while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) {
      pos++;
    }
    String number = text.substring(start, pos);
    try {
      new java.math.BigDecimal(number);
    } catch (NumberFormatException e) {
      pos = start;
      throw error("expected a literal: a number, 'string', DATE 'yyyy-mm-dd', TRUE or FALSE");
    }
    return new Literal(Literal.Kind.NUMBER, number);
  }

  /** A quoted string at pos; '' inside stands for one quote. */
  private String string() {
    StringBuilder sb = new StringBuilder();
    int start = pos;
    pos++;
    while (true) {
      if (pos >= text.length()) {
        pos = start;
        throw error("unterminated string");
      }
      char c = text.charAt(pos++);
      if (c == '\'') {
        if (peek('\'')) {
          sb.append('\'');
          pos++;
        } else {
          return sb.toString();
        }
      } else {
        sb.append(c);
      }
    }
  }

  /** Whether {@code word} comes next, without taking it. */
  private boolean lookingAt(String word) {
    int at = pos;
    boolean found = keyword(word);
    pos = at;
    return found;
  }

  /** Consumes a keyword (whole word, any case) if it is next. */
  private boolean keyword(String word) {
    space();
    int end = pos + word.length();
    if (text.regionMatches(true, pos, word, 0, word.length())
        && (end == text.length() || !Character.isLetterOrDigit(text.charAt(end)) && text.charAt(end) != '_')) {
      pos = end;
      return true;
    }
    return false;
  }

  private boolean accept(char c) {
    space();
    if (peek(c)) {
      pos++;
      return true;
    }
    return false;
  }

  private void expect(char c) {
    if (!accept(c)) {
      throw error("expected '" + c + "'");
    }
  }

  private boolean peek(char c) {
    return pos < text.length() && text.charAt(pos) == c;
  }

  private void space() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private IllegalArgumentException error(String what) {
    String rest = pos >= text.length() ? "the end" : "'" + text.substring(pos, Math.min(text.length(), pos + 20)) + "'";
    return new IllegalArgumentException("filter: " + what + " at position " + (pos + 1) + " (found " + rest + ") in: "
        + text);
  }
}
