package io.turboparquet.drill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.DrillBuf;
import io.turboparquet.filter.LikePattern;
import io.turboparquet.filter.Literal;
import io.turboparquet.filter.Predicate;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import org.apache.drill.common.parser.LogicalExpressionParser;
import org.apache.drill.exec.expr.fn.impl.CharSequenceWrapper;
import org.apache.drill.exec.expr.fn.impl.RegexpUtil;
import org.apache.drill.exec.expr.fn.impl.SqlPatternFactory;
import org.apache.drill.exec.memory.BufferAllocator;
import org.apache.drill.exec.memory.RootAllocator;
import org.junit.jupiter.api.Test;

/**
 * {@code like} and {@code ilike} ({@code %} and {@code _}) as the scan judges them (the predicate {@link DrillPredicates}
 * translates them to) against Drill's own functions on the same bytes in a {@code DrillBuf}: its
 * byte matchers and regular expressions exactly as {@code StringFunctions.Like} and {@code ILike}
 * build them. Values mix letters of either case, characters Java's case folding would touch with
 * {@code UNICODE_CASE} (the Kelvin sign, the long s, accented letters), every line terminator, and
 * byte sequences that are not UTF-8, on which Drill's decoder fails: the scan must keep those rows
 * for both LIKE and NOT LIKE. A row the scan rules out must be one Drill rules out.
 */
class LikeAsDrillTest {
  private static final String[] PIECES = {"a", "A", "b", "B", "go", "GO", "oG", "k", "K", "\u212A", "s", "\u017F",
      "é", "É", "€", "😀", "%", "x", "", "[", ".", "(", "+", "^", "$", "_", "_", "z", "Z", "@", "`", "{"};
  /** What a value may hold where the pattern has {@code _}. */
  private static final String[] ONE = {"a", "Z", "é", "😀", "_", "%", "\n", "", "ab"};
  private static final String[] VALUE_ONLY = {"\n", "\r", "\r\n", "\u0085", "\u2028", "\u2029"};
  private static final byte[][] NOT_UTF8 = {{(byte) 0x80}, {(byte) 0xC0, (byte) 0x80}, {(byte) 0xE0, (byte) 0x80,
      (byte) 0x80}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
      {(byte) 0xF5}, {(byte) 0xE2, (byte) 0x82}, {(byte) 0xFF}, {(byte) 0xF0, (byte) 0x8F, (byte) 0xBF, (byte) 0xBF},
      {(byte) 0xC1, (byte) 0xBF}, {(byte) 0xF0, (byte) 0x9F, (byte) 0x98}};
  /** ASCII for runs long enough for the word-at-a-time loops. */
  private static final String ASCII = "abzAZ@`{[ \r\n";

  @Test
  void theScanRulesOutOnlyRowsDrillRulesOut() {
    SplittableRandom r = new SplittableRandom(1234);
    int[] outcomes = new int[3]; // Drill: no, yes, fails
    int regexPatterns = 0;
    try (BufferAllocator allocator = new RootAllocator(Long.MAX_VALUE);
        DrillBuf buf = allocator.buffer(1 << 16)) {
      for (int i = 0; i < 40_000; i++) {
        boolean ilike = r.nextBoolean();
        String pattern = pattern(r);
        String function = (ilike ? "ilike" : "like") + "(`s`, '" + pattern.replace("'", "''") + "')";
        Predicate like = DrillPredicates.of(LogicalExpressionParser.parse(function), DrillPredicatesTest.SCHEMA,
            DrillPredicatesTest.READING);
        Predicate notLike = DrillPredicates.of(LogicalExpressionParser.parse("not(" + function + ")"),
            DrillPredicatesTest.SCHEMA, DrillPredicatesTest.READING);
        assertTrue(like != null && notLike != null, function);
        regexPatterns += like.toString().contains("(line-bound)") ? 1 : 0;
        for (int j = 0; j < 4; j++) {
          byte[] value = value(r, pattern);
          buf.setBytes(0, value);
          int drill = drill(ilike, pattern, buf, value.length);
          outcomes[drill < 0 ? 2 : drill]++;
          String what = function + " on " + Arrays.toString(value) + " '" + new String(value, StandardCharsets.UTF_8)
              + "': Drill " + drill;
          // Drill keeps the row (1), drops it (0), or fails the query on it (-1, the scan must hand it on).
          assertTrue(drill == 0 || holds(like, value), what + ", the scan drops it under LIKE");
          assertTrue(drill == 1 || holds(notLike, value), what + ", the scan drops it under NOT LIKE");
          if (drill >= 0) { // and the scan is exact where Drill answers
            assertEquals(drill == 1, holds(like, value), what);
            assertEquals(drill == 0, holds(notLike, value), what);
          }
        }
      }
    }
    String seen = "Drill no/yes/fails " + Arrays.toString(outcomes) + ", regular-expression patterns " + regexPatterns;
    assertTrue(outcomes[0] > 20_000 && outcomes[1] > 20_000 && outcomes[2] > 2_000 && regexPatterns > 20_000, seen);
  }

  /** Drill's answer: 1 or 0, or -1 where its function throws (it cannot decode the value). */
  private static int drill(boolean ilike, String pattern, DrillBuf buf, int length) {
    RegexpUtil.SqlPatternInfo info = RegexpUtil.sqlToRegexLike(pattern);
    try {
      if (ilike) { // StringFunctions.ILike
        return Pattern.compile(info.getJavaPatternString(), Pattern.CASE_INSENSITIVE)
            .matcher(new CharSequenceWrapper(0, length, buf)).matches() ? 1 : 0;
      }
      return SqlPatternFactory.getSqlPatternMatcher(info).match(0, length, buf); // StringFunctions.Like
    } catch (RuntimeException e) {
      return -1;
    }
  }

  /** A translated LIKE: comparisons of strings (UTF-8 bytes, unsigned), their AND and OR, and LIKE itself. */
  private static boolean holds(Predicate p, byte[] value) {
    if (p instanceof Predicate.And a) {
      return a.terms().stream().allMatch(t -> holds(t, value));
    }
    if (p instanceof Predicate.Or o) {
      return o.terms().stream().anyMatch(t -> holds(t, value));
    }
    if (p instanceof Predicate.Like l) {
      int judged = l.pattern().judge(value, 0, value.length);
      return judged == LikePattern.UNKNOWN || (judged == LikePattern.YES) != l.negated();
    }
    Predicate.Compare c = (Predicate.Compare) p;
    assertEquals(Literal.Kind.STRING, c.value().kind());
    return c.op().holds(Arrays.compareUnsigned(value, c.value().text().getBytes(StandardCharsets.UTF_8)));
  }

  private static String pattern(SplittableRandom r) {
    StringBuilder b = new StringBuilder();
    for (int n = r.nextInt(5); n > 0; n--) {
      b.append(PIECES[r.nextInt(PIECES.length)]);
    }
    return b.toString();
  }

  /** A value: pieces, often the pattern's own with its wildcards filled in, some line terminators and bytes not UTF-8. */
  private static byte[] value(SplittableRandom r, String pattern) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    if (r.nextInt(3) > 0) {
      String[] parts = pattern.split("%", -1);
      for (int i = 0; i < parts.length; i++) {
        String part = r.nextInt(4) == 0 ? swapCase(parts[i]) : parts[i];
        while (part.contains("_") && r.nextInt(5) > 0) {
          part = part.replaceFirst("_", java.util.regex.Matcher.quoteReplacement(ONE[r.nextInt(ONE.length)]));
        }
        out.writeBytes(part.getBytes(StandardCharsets.UTF_8));
        if (i < parts.length - 1) {
          fill(r, out, r.nextInt(3));
        }
      }
    } else {
      fill(r, out, r.nextInt(6));
    }
    if (r.nextInt(4) == 0) { // a long ASCII run before or after, line ends in it now and then
      StringBuilder run = new StringBuilder();
      for (int n = 8 + r.nextInt(24); n > 0; n--) {
        run.append(ASCII.charAt(r.nextInt(r.nextInt(8) == 0 ? ASCII.length() : ASCII.length() - 2)));
      }
      byte[] bytes = out.toByteArray();
      out.reset();
      boolean before = r.nextBoolean();
      out.writeBytes(before ? run.toString().getBytes(StandardCharsets.US_ASCII) : bytes);
      out.writeBytes(before ? bytes : run.toString().getBytes(StandardCharsets.US_ASCII));
    }
    return out.toByteArray();
  }

  private static void fill(SplittableRandom r, ByteArrayOutputStream out, int pieces) {
    for (int i = 0; i < pieces; i++) {
      int pick = r.nextInt(20);
      if (pick == 0) {
        out.writeBytes(NOT_UTF8[r.nextInt(NOT_UTF8.length)]);
      } else if (pick < 3) {
        out.writeBytes(VALUE_ONLY[r.nextInt(VALUE_ONLY.length)].getBytes(StandardCharsets.UTF_8));
      } else {
        out.writeBytes(PIECES[r.nextInt(PIECES.length)].replace("%", "").getBytes(StandardCharsets.UTF_8));
      }
    }
  }

  private static String swapCase(String s) {
    StringBuilder b = new StringBuilder();
    s.codePoints().forEach(c -> b.appendCodePoint(Character.isUpperCase(c) ? Character.toLowerCase(c)
        : Character.toUpperCase(c)));
    return b.toString();
  }
}
