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
      assertEquals(expected, new LikePattern(pattern).matches(bytes, 2, bytes.length - 2),
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
      assertEquals(expected, new LikePattern(pattern).matches(bytes, 3, length), "'" + value + "' LIKE '" + pattern + "'");
      matched += expected ? 1 : 0;
    }
    assertEquals(true, matched > 2_000 && matched < 18_000, "matches: " + matched);
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
    StringBuilder out = new StringBuilder();
    for (String piece : like.split("%", -1)) {
      out.append(Pattern.quote(piece)).append(".*");
    }
    out.setLength(out.length() - 2);
    return Pattern.compile(out.toString(), Pattern.DOTALL);
  }
}
