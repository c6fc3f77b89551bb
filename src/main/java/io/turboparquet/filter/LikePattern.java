package io.turboparquet.filter;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A LIKE pattern with {@code %} (any run of characters), matched on a value's UTF-8 bytes: the
 * pieces between the wildcards must appear in order, the first at the start and the last at the
 * end unless a wildcard stands there. Bytes suffice because UTF-8 is self-synchronizing: a piece
 * found in the bytes is found at a character boundary, so this is the character-wise match. A
 * middle piece is searched eight starts at a time: a start is checked whole only where the value
 * holds the piece's first and last bytes at the right distance. {@code _} needs characters counted
 * and is taken in line-bound patterns only (below).
 *
 * <p>Two options serve engines that match some patterns with {@code java.util.regex} ({@code %} as
 * {@code .*}, {@code _} as {@code .}) on the value decoded from UTF-8, as Drill does for ILIKE and
 * for LIKE patterns with {@code _} or a {@code %} inside: <em>ignore case</em> folds the ASCII
 * letters only, as a regular expression with {@code CASE_INSENSITIVE} and without
 * {@code UNICODE_CASE} does; <em>line-bound</em> lets no wildcard match a line terminator
 * ({@code \n}, {@code \r}, U+0085, U+2028, U+2029: what {@code .} does not match), and judges a
 * value that is not valid UTF-8 {@link #UNKNOWN}: the engine's decoder fails on it, so the engine
 * should meet it. A line-bound pattern may hold {@code _} (one character); such a pattern is
 * matched by the usual backtracking glob match, a character at a time.
 */
public final class LikePattern {
  /** {@link #judge}: the value does not match. */
  public static final int NO = 0;
  /** {@link #judge}: the value matches. */
  public static final int YES = 1;
  /** {@link #judge}: the engine cannot read the value (line-bound, not UTF-8); neither LIKE nor NOT LIKE rules it out. */
  public static final int UNKNOWN = -1;

  private final String pattern;
  private final boolean ignoreCase;
  private final boolean lineBound;
  private final byte[] head;
  private final byte[] tail;
  private final byte[][] middle;
  /** Whether the pattern has a wildcard at all (else head is the whole value). */
  private final boolean wild;
  /** With {@code _}: the pattern's bytes (folded when ignoring case), {@link #ONE} and {@link #RUN}; else null. */
  private final int[] glob;
  private static final int ONE = -1;
  private static final int RUN = -2;

  /** {@code pattern} matched on bytes, case as it is. */
  public LikePattern(String pattern) {
    this(pattern, false, false);
  }

  /**
   * @param ignoreCase whether an ASCII letter matches either case (no other character is folded)
   * @param lineBound whether the pattern is matched as a regular expression is (see above); such a
   *     pattern may hold no line terminator
   */
  public LikePattern(String pattern, boolean ignoreCase, boolean lineBound) {
    if (lineBound && pattern.chars().anyMatch(LikePattern::lineTerminator)) {
      throw new IllegalArgumentException("LIKE " + pattern + ": a line-bound pattern may not hold a line terminator");
    }
    if (!lineBound && pattern.indexOf('_') >= 0) {
      throw new IllegalArgumentException("LIKE " + pattern + ": only % is taken as a wildcard, not _");
    }
    this.pattern = pattern;
    this.ignoreCase = ignoreCase;
    this.lineBound = lineBound;
    glob = pattern.indexOf('_') < 0 ? null : glob(pattern);
    List<byte[]> pieces = new ArrayList<>();
    int from = 0;
    for (int at = pattern.indexOf('%'); at >= 0; at = pattern.indexOf('%', from)) {
      pieces.add(bytes(pattern.substring(from, at)));
      from = at + 1;
    }
    pieces.add(bytes(pattern.substring(from)));
    wild = pieces.size() > 1;
    head = pieces.get(0);
    tail = wild ? pieces.get(pieces.size() - 1) : new byte[0];
    middle = wild ? pieces.subList(1, pieces.size() - 1).stream().filter(p -> p.length > 0).toArray(byte[][]::new)
        : new byte[0][];
  }

  private int[] glob(String pattern) {
    int[] out = new int[pattern.getBytes(StandardCharsets.UTF_8).length];
    int n = 0;
    for (int i = 0; i < pattern.length(); ) {
      int c = pattern.codePointAt(i);
      i += Character.charCount(c);
      if (c == '%' || c == '_') {
        out[n++] = c == '%' ? RUN : ONE;
      } else {
        for (byte b : bytes(Character.toString(c))) {
          out[n++] = b & 0xFF;
        }
      }
    }
    return Arrays.copyOf(out, n);
  }

  private byte[] bytes(String piece) {
    byte[] b = piece.getBytes(StandardCharsets.UTF_8);
    if (ignoreCase) {
      for (int i = 0; i < b.length; i++) {
        b[i] = lower(b[i]);
      }
    }
    return b;
  }

  public String pattern() {
    return pattern;
  }

  public boolean ignoreCase() {
    return ignoreCase;
  }

  public boolean lineBound() {
    return lineBound;
  }

  /** The characters every match of a pattern on bytes starts with (the pattern up to its first {@code %}). */
  public String prefix() {
    int at = pattern.indexOf('%');
    return at < 0 ? pattern : pattern.substring(0, at);
  }

  /** Whether the value in {@code data[start, start + length)} matches: {@link #YES}, {@link #NO} or {@link #UNKNOWN}. */
  public int judge(byte[] data, int start, int length) {
    boolean match = matches(data, start, length);
    if (!lineBound) {
      return match ? YES : NO;
    }
    int lines = lines(data, start, start + length);
    return lines == INVALID ? UNKNOWN : match && lines == PLAIN ? YES : NO;
  }

  private boolean matches(byte[] data, int start, int length) {
    boolean fold = ignoreCase;
    if (glob != null) {
      return globMatches(data, start, start + length, fold);
    }
    if (!wild) {
      return length == head.length && at(data, start, head, fold);
    }
    if (length < head.length + tail.length || !at(data, start, head, fold)
        || !at(data, start + length - tail.length, tail, fold)) {
      return false;
    }
    int from = start + head.length;
    int end = start + length - tail.length;
    for (byte[] piece : middle) {
      int found = find(data, from, end, piece, fold);
      if (found < 0) {
        return false;
      }
      from = found + piece.length;
    }
    return true;
  }

  /**
   * The glob match: {@code _} takes one character (a UTF-8 sequence by its lead byte), {@code %} any
   * run; on a mismatch the last {@code %} takes one more character and the rest is tried again. A
   * value that is not UTF-8 may end the walk anywhere; {@link #judge} does not use its answer.
   */
  private boolean globMatches(byte[] data, int start, int end, boolean fold) {
    int[] g = glob;
    int p = 0;
    int v = start;
    int runP = -1;
    int runV = -1;
    while (v < end) {
      int t = p < g.length ? g[p] : RUN - 1; // past the pattern's end: nothing matches
      if (t == ONE) {
        v += sequence(data[v]);
        p++;
      } else if (t == RUN) {
        runP = ++p;
        runV = v;
      } else if (t >= 0 && (fold ? lower(data[v]) : data[v]) == (byte) t) {
        v++;
        p++;
      } else if (runP >= 0) {
        runV += sequence(data[runV]);
        v = runV;
        p = runP;
      } else {
        return false;
      }
    }
    while (p < g.length && g[p] == RUN) {
      p++;
    }
    return v == end && p == g.length;
  }

  /** The length of the UTF-8 sequence {@code lead} starts (1 for a byte that starts none). */
  private static int sequence(byte lead) {
    int b = lead & 0xFF;
    return b < 0xC0 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
  }

  private static boolean at(byte[] data, int start, byte[] piece, boolean fold) {
    for (int i = 0; i < piece.length; i++) {
      byte b = data[start + i];
      if ((fold ? lower(b) : b) != piece[i]) {
        return false;
      }
    }
    return true;
  }

  private static byte lower(byte b) {
    return (byte) ((b - 'A' & 0xFF) < 26 ? b | 0x20 : b);
  }

  /** Whether {@code c} is a line terminator, which a regular expression's {@code .} does not match. */
  public static boolean lineTerminator(int c) {
    return c == '\n' || c == '\r' || c == 0x85 || c == 0x2028 || c == 0x2029;
  }

  /** {@link #lines}: valid UTF-8 without a line terminator. */
  private static final int PLAIN = 0;
  /** {@link #lines}: valid UTF-8 with a line terminator. */
  private static final int LINES = 1;
  /** {@link #lines}: not valid UTF-8 (as Java's decoder judges: overlong forms, surrogates and cut sequences too). */
  private static final int INVALID = 2;

  /** Whether {@code data[start, end)} is UTF-8 ({@link #PLAIN} or {@link #LINES}) or not ({@link #INVALID}). */
  private static int lines(byte[] data, int start, int end) {
    int out = PLAIN;
    int i = start;
    for (; i + 8 <= end; i += 8) { // ASCII eight bytes at a time
      long w = (long) LONGS.get(data, i);
      if ((w & HIGHS) != 0) {
        break;
      }
      if ((zeroBytes(w ^ NEWLINES) | zeroBytes(w ^ RETURNS)) != 0) {
        out = LINES;
      }
    }
    while (i < end) {
      int b = data[i] & 0xFF;
      if (b < 0x80) {
        out = b == '\n' || b == '\r' ? LINES : out;
        i++;
        continue;
      }
      int n = b >= 0xC2 && b <= 0xDF ? 1 : b >= 0xE0 && b <= 0xEF ? 2 : b >= 0xF0 && b <= 0xF4 ? 3 : 0;
      if (n == 0 || end - i <= n) {
        return INVALID;
      }
      int c = b & (0x3F >> n);
      for (int k = 1; k <= n; k++) {
        int next = data[i + k] & 0xFF;
        if ((next & 0xC0) != 0x80) {
          return INVALID;
        }
        c = c << 6 | next & 0x3F;
      }
      if (n == 2 && (c < 0x800 || c >= 0xD800 && c <= 0xDFFF) || n == 3 && (c < 0x10000 || c > 0x10FFFF)) {
        return INVALID;
      }
      out = lineTerminator(c) ? LINES : out;
      i += n + 1;
    }
    return out;
  }

  private static final long ONES = 0x0101_0101_0101_0101L;
  private static final long HIGHS = 0x8080_8080_8080_8080L;
  private static final long NEWLINES = '\n' * ONES;
  private static final long RETURNS = '\r' * ONES;
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** The first place in {@code [from, end)} where {@code piece} starts and fits, or -1. */
  private static int find(byte[] data, int from, int end, byte[] piece, boolean fold) {
    int k = piece.length;
    int last = end - k; // the last start at which the piece fits
    long firsts = (piece[0] & 0xFFL) * ONES;
    long lasts = (piece[k - 1] & 0xFFL) * ONES;
    if (last - from < 7) { // fewer than eight starts
      for (int i = from; i <= last; i++) {
        if (at(data, i, piece, fold)) {
          return i;
        }
      }
      return -1;
    }
    // Eight starts at a time; the last eight end at the last start (again over some starts, none a match).
    for (int i = from; ; i = Math.min(i + 8, last - 7)) {
      long a = (long) LONGS.get(data, i);
      long b = (long) LONGS.get(data, i + k - 1);
      if (fold) {
        a = lower(a);
        b = lower(b);
      }
      // A high bit per start whose first and last bytes may match: every true one is set (and
      // some false ones, above a true one), so each is checked in order.
      for (long m = zeroBytes(a ^ firsts) & zeroBytes(b ^ lasts); m != 0; m &= m - 1) {
        int at = i + (Long.numberOfTrailingZeros(m) >>> 3);
        if (at(data, at, piece, fold)) {
          return at;
        }
      }
      if (i == last - 7) {
        return -1;
      }
    }
  }

  /** {@code w} with its ASCII capitals lowercased, eight bytes at once (bytes of 0x80 and up as they are). */
  private static long lower(long w) {
    long low = w & ~HIGHS;
    long fromA = low + (0x80 - 'A') * ONES; // high bit set where the low seven bits are 'A' or above
    long pastZ = low + (0x80 - 'Z' - 1) * ONES; // ... where they are above 'Z'
    return w | (fromA & ~pastZ & ~w & HIGHS) >>> 2; // 0x20 into each capital
  }

  /** The high bit of every byte of {@code x} that is zero, and maybe of some bytes above one that is. */
  private static long zeroBytes(long x) {
    return (x - ONES) & ~x & HIGHS;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LikePattern other && other.pattern.equals(pattern) && other.ignoreCase == ignoreCase
        && other.lineBound == lineBound;
  }

  @Override
  public int hashCode() {
    return pattern.hashCode() * 4 + (ignoreCase ? 2 : 0) + (lineBound ? 1 : 0);
  }

  @Override
  public String toString() {
    return "'" + pattern.replace("'", "''") + "'";
  }
}
