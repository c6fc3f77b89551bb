package io.turboparquet.filter;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A LIKE pattern whose only wildcard is {@code %} (any run of characters), matched on a value's
 * UTF-8 bytes: the pieces between the wildcards must appear in order, the first at the start and
 * the last at the end unless a wildcard stands there. Bytes suffice because UTF-8 is
 * self-synchronizing: a piece found in the bytes is found at a character boundary, so this is
 * the character-wise match. {@code _} needs characters counted and is not taken
 * ({@link Predicate.Like}). A middle piece is searched eight starts at a time: a start is checked
 * whole only where the value holds the piece's first and last bytes at the right distance.
 */
public final class LikePattern {
  private final String pattern;
  private final byte[] head;
  private final byte[] tail;
  private final byte[][] middle;
  /** Whether the pattern has a wildcard at all (else head is the whole value). */
  private final boolean wild;

  public LikePattern(String pattern) {
    this.pattern = pattern;
    List<byte[]> pieces = new ArrayList<>();
    int from = 0;
    for (int at = pattern.indexOf('%'); at >= 0; at = pattern.indexOf('%', from)) {
      pieces.add(pattern.substring(from, at).getBytes(StandardCharsets.UTF_8));
      from = at + 1;
    }
    pieces.add(pattern.substring(from).getBytes(StandardCharsets.UTF_8));
    wild = pieces.size() > 1;
    head = pieces.get(0);
    tail = wild ? pieces.get(pieces.size() - 1) : new byte[0];
    middle = wild ? pieces.subList(1, pieces.size() - 1).stream().filter(p -> p.length > 0).toArray(byte[][]::new)
        : new byte[0][];
  }

  public String pattern() {
    return pattern;
  }

  /** The characters every match starts with (the pattern up to its first {@code %}). */
  public String prefix() {
    int at = pattern.indexOf('%');
    return at < 0 ? pattern : pattern.substring(0, at);
  }

  /** Whether the value in {@code data[start, start + length)} matches. */
  public boolean matches(byte[] data, int start, int length) {
    if (!wild) {
      return length == head.length && at(data, start, head);
    }
    if (length < head.length + tail.length || !at(data, start, head)
        || !at(data, start + length - tail.length, tail)) {
      return false;
    }
    int from = start + head.length;
    int end = start + length - tail.length;
    for (byte[] piece : middle) {
      int found = find(data, from, end, piece);
      if (found < 0) {
        return false;
      }
      from = found + piece.length;
    }
    return true;
  }

  private static boolean at(byte[] data, int start, byte[] piece) {
    for (int i = 0; i < piece.length; i++) {
      if (data[start + i] != piece[i]) {
        return false;
      }
    }
    return true;
  }

  private static final long ONES = 0x0101_0101_0101_0101L;
  private static final long HIGHS = 0x8080_8080_8080_8080L;
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** The first place in {@code [from, end)} where {@code piece} starts and fits, or -1. */
  private static int find(byte[] data, int from, int end, byte[] piece) {
    int k = piece.length;
    int last = end - k; // the last start at which the piece fits
    long firsts = (piece[0] & 0xFFL) * ONES;
    long lasts = (piece[k - 1] & 0xFFL) * ONES;
    if (last - from < 7) { // fewer than eight starts
      for (int i = from; i <= last; i++) {
        if (data[i] == piece[0] && at(data, i, piece)) {
          return i;
        }
      }
      return -1;
    }
    // Eight starts at a time; the last eight end at the last start (again over some starts, none a match).
    for (int i = from; ; i = Math.min(i + 8, last - 7)) {
      long a = (long) LONGS.get(data, i);
      long b = (long) LONGS.get(data, i + k - 1);
      // A high bit per start whose first and last bytes may match: every true one is set (and
      // some false ones, above a true one), so each is checked in order.
      for (long m = zeroBytes(a ^ firsts) & zeroBytes(b ^ lasts); m != 0; m &= m - 1) {
        int at = i + (Long.numberOfTrailingZeros(m) >>> 3);
        if (at(data, at, piece)) {
          return at;
        }
      }
      if (i == last - 7) {
        return -1;
      }
    }
  }

  /** The high bit of every byte of {@code x} that is zero, and maybe of some bytes above one that is. */
  private static long zeroBytes(long x) {
    return (x - ONES) & ~x & HIGHS;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LikePattern other && other.pattern.equals(pattern);
  }

  @Override
  public int hashCode() {
    return pattern.hashCode();
  }

  @Override
  public String toString() {
    return "'" + pattern.replace("'", "''") + "'";
  }
}
