package io.turboparquet.io;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Plans the reads of a row group's projected column chunks: chunks closer than a gap are merged into
 * one range up to a maximum size, and each range is read as parts of at most that size, so large
 * chunks are read in parallel too, each part into a buffer of its own. Pure arithmetic; nothing
 * here reads.
 */
public final class ReadPlanner {
  /** A range of the file read at once, holding the chunks {@code members} (input indexes). */
  public record Range(long start, long end, int[] members) {
    public long length() {
      return end - start;
    }

    /**
     * The reads of this range, each into a buffer of its own: {@code [start, end)} cut into pieces
     * of at most {@code maxPart} bytes. Where a piece's buffer would cost more than a sixteenth of
     * the range (or {@link #SLACK} bytes) above its size, as one from an allocator that rounds up to
     * powers of two can, the piece is cut to the largest power of two below it.
     */
    public List<long[]> parts(long maxPart, BufferSource buffers) {
      if (maxPart < 1 || maxPart > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("max part " + maxPart);
      }
      long slack = Math.max(length() / 16, SLACK);
      List<long[]> out = new ArrayList<>();
      long at = start;
      while (at < end) {
        long piece = Math.min(end - at, maxPart);
        if (buffers.cost((int) piece) - piece > slack) {
          piece = Long.highestOneBit(piece);
        }
        out.add(new long[] {at, at + piece});
        at += piece;
      }
      return out;
    }

    @Override
    public String toString() {
      return "[" + start + ", " + end + ") " + Arrays.toString(members);
    }
  }

  /** Rounding waste a range may always carry: below it, more reads would cost more than they save. */
  static final long SLACK = 16 << 10;

  private ReadPlanner() {}

  /**
   * Ranges covering the chunks {@code [starts[i], ends[i])}, in file order. Two neighbours share a
   * range when the gap between them is at most {@code maxGap} bytes and the merged range is at most
   * {@code maxSize} bytes; a chunk larger than {@code maxSize} is a range of its own. Empty chunks
   * join whatever range they fall next to (they read nothing).
   */
  public static List<Range> coalesce(long[] starts, long[] ends, long maxGap, long maxSize) {
    if (starts.length != ends.length || maxGap < 0 || maxSize < 1) {
      throw new IllegalArgumentException("bad plan input: " + starts.length + " starts, " + ends.length
          + " ends, gap " + maxGap + ", max size " + maxSize);
    }
    Integer[] order = IntStream.range(0, starts.length).boxed().toArray(Integer[]::new);
    Arrays.sort(order, Comparator.comparingLong((Integer i) -> starts[i]).thenComparingLong(i -> ends[i]));
    List<Range> out = new ArrayList<>();
    long start = 0;
    long end = 0;
    List<Integer> members = new ArrayList<>();
    for (int i : order) {
      long s = starts[i];
      long e = Math.max(s, ends[i]);
      boolean joins = !members.isEmpty() && s - end <= maxGap && Math.max(end, e) - start <= maxSize;
      if (!joins && !members.isEmpty()) {
        out.add(new Range(start, end, members.stream().mapToInt(Integer::intValue).toArray()));
        members.clear();
      }
      if (members.isEmpty()) {
        start = s;
        end = e;
      } else {
        end = Math.max(end, e);
      }
      members.add(i);
    }
    if (!members.isEmpty()) {
      out.add(new Range(start, end, members.stream().mapToInt(Integer::intValue).toArray()));
    }
    return out;
  }
}
