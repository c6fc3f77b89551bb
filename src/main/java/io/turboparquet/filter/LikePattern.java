package io.turboparquet.filter;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A LIKE pattern whose only wildcard is {@code %} (any run of characters), matched on a value's
 * UTF-8 bytes: the pieces between the wildcards must appear in order, the first at the start and
 * the last at the end unless a wildcard stands there. Bytes suffice because UTF-8 is
 * self-synchronizing: a piece found in the bytes is found at a character boundary, so this is
 * the character-wise match. {@code _} needs characters counted and is not taken
 * ({@link Predicate.Like}).
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
  public boolean matches(ByteBuffer data, int start, int length) {
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

  private static boolean at(ByteBuffer data, int start, byte[] piece) {
    for (int i = 0; i < piece.length; i++) {
      if (data.get(start + i) != piece[i]) {
        return false;
      }
    }
    return true;
  }

  /** The first place in {@code [from, end)} where {@code piece} starts and fits, or -1. */
  private static int find(ByteBuffer data, int from, int end, byte[] piece) {
    byte first = piece[0];
    for (int i = from, last = end - piece.length; i <= last; i++) {
      if (data.get(i) == first && at(data, i, piece)) {
        return i;
      }
    }
    return -1;
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
