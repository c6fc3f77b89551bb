package io.turboparquet.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * LIKE with {@code %}: the byte matcher against Java's regular expressions on the decoded
 * characters (with DOTALL: {@code %} spans line ends too), over random strings of ASCII, multi-byte
 * and supplementary characters and patterns built from their pieces; and the predicate
 * {@link Predicate#like} builds, whose prefix range must keep exactly the strings that start with
 * the prefix.
 */
class LikePatternTest {
  private static final String[] PIECES = {"a", "b", "ab", "é", "ü", "€", "😀", "\n", "%", "google", "x", ""};

  @Test
  void bytesMatchAsCharactersDo() {
    SplittableRandom r = new SplittableRandom(34);
    int matched = 0;
    for (int i = 0; i < 20_000; i++) {
      String value = random(r, r.nextInt(6), false);
      String pattern = random(r, r.nextInt(5), true);
      boolean expected = regex(pattern).matcher(value).matches();
      byte[] bytes = ("~~" + value).getBytes(StandardCharsets.UTF_8); // at an offset inside a buffer
      assertEquals(expected, new LikePattern(pattern).judge(bytes, 2, bytes.length - 2) == LikePattern.YES,
          "'" + value + "' LIKE '" + pattern + "'");
      matched += expected ? 1 : 0;
    }
    assertEquals(true, matched > 1_000 && matched < 19_000, "matches: " + matched);
  }

  /**
   * Values long enough for the search eight starts at a time (and its byte-wise end), with the
   * pattern's pieces placed at random points (around the word edges too).
   */
  @Test
  void longValuesMatchAsCharactersDo() {
    SplittableRandom r = new SplittableRandom(36);
    int matched = 0;
    for (int i = 0; i < 20_000; i++) {
      String value = random(r, r.nextInt(40), false);
      if (r.nextInt(3) == 0) { // the pattern's pieces placed at a random point
        int at = r.nextInt(value.length() + 1);
        value = value.substring(0, at) + (r.nextBoolean() ? "google" : "gogle") + value.substring(at);
      }
      String pattern = r.nextInt(4) == 0 ? random(r, 1 + r.nextInt(6), true)
          : "%" + PIECES[r.nextInt(PIECES.length)] + (r.nextBoolean() ? "gle" : "%" + "oo") + "%";
      boolean expected = regex(pattern).matcher(value).matches();
      byte[] bytes = ("~~~" + value + "~~~~~~~~~").getBytes(StandardCharsets.UTF_8);
      int length = value.getBytes(StandardCharsets.UTF_8).length;
      assertEquals(expected, new LikePattern(pattern).judge(bytes, 3, length) == LikePattern.YES, "'" + value + "' LIKE '" + pattern + "'");
      matched += expected ? 1 : 0;
    }
    assertEquals(true, matched > 2_000 && matched < 18_000, "matches: " + matched);
  }

  /**
   * ILIKE folds the ASCII letters only, as a regular expression with {@code CASE_INSENSITIVE} and
   * without {@code UNICODE_CASE}: over long values whose other characters have UTF-8 bytes that
   * look like capitals below their high bit (U+00C1 to U+00DA lead with 0xC3, Cyrillic with 0xD0),
   * for the search eight starts at a time, on bytes and line-bound (where a wildcard matches no
   * line terminator, and a value that is not UTF-8 is unknown).
   */
  @Test
  void ignoringCaseFoldsAsciiLettersOnly() {
    String[] pieces = {"G", "g", "oO", "Oo", "LE", "\u00c1", "\u00e1", "\u00da", "\u0414", "\u0434", "\u212a", "k", "[",
        "z", "Z", "@", "`", "{", "\n", "\r", "\u2028", "%"};
    SplittableRandom r = new SplittableRandom(37);
    int[] seen = new int[3];
    for (int i = 0; i < 30_000; i++) {
      boolean lineBound = r.nextBoolean();
      StringBuilder pattern = new StringBuilder();
      for (int n = 1 + r.nextInt(4); n > 0; n--) {
        String p = pieces[r.nextInt(pieces.length)];
        pattern.append(lineBound && p.chars().anyMatch(LikePattern::lineTerminator) ? "%" : p);
      }
      StringBuilder value = new StringBuilder();
      for (int n = r.nextInt(30); n > 0; n--) {
        value.append(pieces[r.nextInt(pieces.length - 1)]);
      }
      if (r.nextBoolean()) { // the pattern's pieces inside, in a case of their own
        int at = r.nextInt(value.length() + 1);
        String inside = pattern.toString().replace("%", pieces[r.nextInt(pieces.length - 1)]);
        inside = r.nextBoolean() ? inside.toUpperCase(java.util.Locale.ROOT) : inside.toLowerCase(java.util.Locale.ROOT);
        value.insert(at, inside);
      }
      String like = r.nextInt(3) > 0 ? "%" + pattern + "%" : pattern.toString();
      int flags = Pattern.CASE_INSENSITIVE | (lineBound ? 0 : Pattern.DOTALL);
      boolean expected = regex(like, flags).matcher(value).matches();
      byte[] bytes = ("~" + value + "~~~~~~~~").getBytes(StandardCharsets.UTF_8);
      int length = value.toString().getBytes(StandardCharsets.UTF_8).length;
      int judged = new LikePattern(like, true, lineBound).judge(bytes, 1, length);
      assertEquals(expected ? LikePattern.YES : LikePattern.NO, judged, "'" + value + "' ILIKE '" + like + "'"
          + (lineBound ? " line-bound" : ""));
      seen[judged]++;
    }
    assertEquals(true, seen[LikePattern.YES] > 3_000 && seen[LikePattern.NO] > 3_000, java.util.Arrays.toString(seen));
    // Not UTF-8: unknown when line-bound, matched on bytes otherwise.
    byte[] cut = {'G', 'o', (byte) 0xC3};
    assertEquals(LikePattern.UNKNOWN, new LikePattern("g%", true, true).judge(cut, 0, 3));
    assertEquals(LikePattern.UNKNOWN, new LikePattern("x%", true, true).judge(cut, 0, 3));
    assertEquals(LikePattern.YES, new LikePattern("g%", true, false).judge(cut, 0, 3));
    assertThrows(IllegalArgumentException.class, () -> new LikePattern("a\rb%", false, true));
  }

  /**
   * {@code _} (line-bound patterns) takes one character, as a regular expression's {@code .}: a
   * whole multi-byte or supplementary character, never a line terminator; {@code %} before it gives
   * back characters, not bytes, when the rest does not match.
   */
  @Test
  void underscoreTakesOneCharacter() {
    String[] pieces = {"_", "%", "a", "Z", "\u00e9", "\uffff", "\ud83d\ude00", "ab", "\n"};
    SplittableRandom r = new SplittableRandom(38);
    int[] seen = new int[2];
    for (int i = 0; i < 30_000; i++) {
      boolean ignoreCase = r.nextBoolean();
      StringBuilder pattern = new StringBuilder();
      for (int n = 1 + r.nextInt(5); n > 0; n--) {
        pattern.append(pieces[r.nextInt(pieces.length - 1)]);
      }
      String like = pattern.toString();
      StringBuilder value = new StringBuilder(); // mostly the pattern with its wildcards filled in
      boolean fill = r.nextInt(3) > 0;
      for (int n = fill ? like.codePointCount(0, like.length()) : r.nextInt(12), k = 0; n > 0; n--) {
        int c = fill ? like.codePointAt(k) : '%';
        k += fill ? Character.charCount(c) : 0;
        String p = c == '_' ? pieces[2 + r.nextInt(pieces.length - 3)].substring(0, 1)
            : c == '%' ? (r.nextBoolean() ? "" : pieces[2 + r.nextInt(pieces.length - 2)]) : Character.toString(c);
        p = c == '_' && p.charAt(0) == '\ud83d' ? "\ud83d\ude00" : p;
        value.append(ignoreCase && r.nextBoolean() ? p.toLowerCase(java.util.Locale.ROOT) : p);
      }
      StringBuilder regex = new StringBuilder();
      like.codePoints().forEach(c -> regex.append(c == '%' ? ".*" : c == '_' ? "." : Pattern.quote(Character.toString(c))));
      boolean expected = Pattern.compile(regex.toString(), ignoreCase ? Pattern.CASE_INSENSITIVE : 0).matcher(value)
          .matches();
      byte[] bytes = value.toString().getBytes(StandardCharsets.UTF_8);
      int judged = new LikePattern(like, ignoreCase, true).judge(bytes, 0, bytes.length);
      assertEquals(expected ? LikePattern.YES : LikePattern.NO, judged, "'" + value + "' LIKE '" + like + "'");
      seen[judged]++;
    }
    assertEquals(true, seen[LikePattern.YES] > 3_000 && seen[LikePattern.NO] > 3_000, java.util.Arrays.toString(seen));
    byte[] wide = {(byte) 0xEF, (byte) 0xBF, (byte) 0xBF, 'Z', '_', 'A'}; // U+FFFF Z _ A: the % gives back a whole character
    assertEquals(LikePattern.NO, new LikePattern("%__Z%", true, true).judge(wide, 0, wide.length));
    assertEquals(LikePattern.YES, new LikePattern("%_Z%", true, true).judge(wide, 0, wide.length));
    assertThrows(IllegalArgumentException.class, () -> new LikePattern("a_c", false, false));
  }

  @Test
  void likeKeepsThePrefixRangeAndThePatternWhereNeeded() {
    assertEquals("s = 'abc'", Predicate.like("s", "abc").toString());
    assertEquals("s >= 'abc' AND s < 'abd'", Predicate.like("s", "abc%").toString());
    assertEquals("s >= 'ab' AND s < 'ac' AND s LIKE 'ab%c'", Predicate.like("s", "ab%c").toString());
    assertEquals("s LIKE '%google%'", Predicate.like("s", "%google%").toString());
    assertEquals("s >= 'a\uD7FF' AND s < 'a\uE000'", Predicate.like("s", "a\uD7FF%").toString());
    // No string bounds this prefix from above: the pattern stays, so that the terms are exactly it (NOT negates them).
    assertEquals("s >= 'a\uDBFF\uDFFF' AND s LIKE 'a\uDBFF\uDFFF%'", Predicate.like("s", "a\uDBFF\uDFFF%").toString());
    assertEquals(Predicate.like("s", "ab%c"), FilterParser.parse("s LIKE 'ab%c'"));
    assertEquals("s NOT ILIKE 'Ab%'", FilterParser.parse("s NOT ILIKE 'Ab%'").toString(), "no range: either case");
    assertEquals("s LIKE 'ab%c' (line-bound)", Predicate.like("s", new LikePattern("ab%c", false, true)).toString());
    assertThrows(IllegalArgumentException.class, () -> FilterParser.parse("s LIKE 'a_c'"));
    assertThrows(IllegalArgumentException.class, () -> FilterParser.parse("s LIKE 5"));
    // The range keeps exactly the strings with the prefix, in UTF-8 byte order.
    SplittableRandom r = new SplittableRandom(35);
    for (int i = 0; i < 5_000; i++) {
      String prefix = random(r, 1 + r.nextInt(3), false);
      String value = random(r, r.nextInt(5), false);
      if (prefix.isEmpty()) {
        continue;
      }
      List<Predicate> range = ((Predicate.And) Predicate.like("s", prefix + "%")).terms();
      byte[] v = value.getBytes(StandardCharsets.UTF_8);
      boolean inRange = true;
      for (Predicate t : range) {
        Predicate.Compare c = (Predicate.Compare) t;
        int cmp = java.util.Arrays.compareUnsigned(v, c.value().text().getBytes(StandardCharsets.UTF_8));
        inRange &= c.op() == Predicate.Op.GE ? cmp >= 0 : cmp < 0;
      }
      assertEquals(value.startsWith(prefix), inRange, "'" + value + "' against " + range);
    }
  }

  private static String random(SplittableRandom r, int pieces, boolean wildcards) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < pieces; i++) {
      String p = PIECES[r.nextInt(PIECES.length)];
      if (!wildcards && p.equals("%")) {
        p = "a";
      }
      s.append(p);
    }
    return s.toString();
  }

  private static Pattern regex(String like) {
    return regex(like, Pattern.DOTALL);
  }

  private static Pattern regex(String like, int flags) {
    StringBuilder out = new StringBuilder();
    for (String piece : like.split("%", -1)) {
      out.append(Pattern.quote(piece)).append(".*");
    }
    out.setLength(out.length() - 2);
    return Pattern.compile(out.toString(), flags);
  }
}
