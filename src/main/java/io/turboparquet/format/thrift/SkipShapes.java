package io.turboparquet.format.thrift;

import static io.turboparquet.format.thrift.ThriftCursor.BINARY;
import static io.turboparquet.format.thrift.ThriftCursor.BOOLEAN_FALSE;
import static io.turboparquet.format.thrift.ThriftCursor.BOOLEAN_TRUE;
import static io.turboparquet.format.thrift.ThriftCursor.BYTE;
import static io.turboparquet.format.thrift.ThriftCursor.DOUBLE;
import static io.turboparquet.format.thrift.ThriftCursor.I16;
import static io.turboparquet.format.thrift.ThriftCursor.I32;
import static io.turboparquet.format.thrift.ThriftCursor.I64;
import static io.turboparquet.format.thrift.ThriftCursor.LIST;
import static io.turboparquet.format.thrift.ThriftCursor.SET;
import static io.turboparquet.format.thrift.ThriftCursor.STOP;
import static io.turboparquet.format.thrift.ThriftCursor.STRUCT;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The decoder's one fast path: skipping the column chunks a projection leaves out, which is most
 * of a projected footer. A footer repeats a handful of chunk layouts (one per column, the same in
 * every row group), so a chunk that the checked walk of {@link ThriftCursor#skip} has accepted is
 * kept as a shape: the bytes that decide how a struct is walked (field and list headers, STOPs,
 * which byte ends each varint) must be equal, varint values and binary contents are free, and each
 * binary's length is read from the bytes and checked as the walk checks it. A chunk that fits a
 * shape walks exactly as the chunk it was learned from, so it is skipped with a few masked 8-byte
 * compares; anything else is walked by the cursor, which also names what is wrong.
 *
 * <p>A size whose varint is one byte in some row groups and two in others (pyarrow's unencoded
 * string bytes near 64, DuckDB's sizes near 128) gives a column two layouts. Rather than fail one
 * and search, a shape keeps a fork at that byte: where its continuation bit is not the one the
 * shape expects, the replay goes on in the other layout's shape, whose code is the same up to that
 * segment, and that shape's own compares decide whether the chunk fits.
 */
final class SkipShapes {
  private static final int MAX_SHAPES = 64;
  private static final int MAX_SHAPE_BYTES = 2048;
  // After a shape's last segment, MAX_FORKS words of forks, filled from the first: the code index
  // of the segment's head word (bits 0-15), the offset in the segment of a varint byte (16-31),
  // the continuation bit this shape expects of that byte (32), 1 + the slot of the shape the fork
  // leads to (40-47).
  private static final int MAX_FORKS = 8;
  private static final int FORK_BYTE = 16;
  private static final int FORK_EXPECTED = 32;
  private static final int FORK_SLOT = 40;
  /** Forks one replay may take: each is taken only where the shape it leaves would fail, so this only bounds a cycle. */
  private static final int MAX_FORKS_TAKEN = 8;
  /** What {@link #run} returns where a segment's bytes do not fit the code. */
  private static final int MISSED = -2;
  private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /**
   * {@code code}: segments of compared bytes with a binary between each two, each segment its
   * length in bytes (the sign bit set on the last), then its 8-byte words as expected bits and
   * mask (expected bits only where compared, so shapes of one layout have equal code), then the
   * forks: one array, so a replay loads little before it compares. {@code binaries}: the length
   * of each binary in walk order where it is fixed in the words, or {@code -1 - length} where the
   * length is read (the length it had in the chunk learned).
   */
  private record Shape(long[] code, int[] binaries) {}

  private final int maxStringLength;
  private final Shape[] shapes = new Shape[MAX_SHAPES];
  private int count;
  private int replaced;
  /** Per column, 1 + the index of the shape a search or learning found for it last (not a fork's), or 0. */
  private final int[] own;
  /** Per column, the code its chunks fitted last (a fork's shape, when the replay took one). */
  private final long[][] latest;

  // Scratch of the shape being learned: the current segment's bytes and masks, the segments so far.
  private final byte[] bytes = new byte[MAX_SHAPE_BYTES + 8];
  private final byte[] masks = new byte[MAX_SHAPE_BYTES + 8];
  private int segmentStart;
  private int used;
  private long[] words = new long[64];
  private int wordCount;
  // The binaries of the shape the one being learned takes its fixed lengths from, or null; and
  // whether it is the column's own (a length it left free stays free) or a neighbour's.
  private int[] reference;
  private boolean ownReference;
  private final int[] binaries = new int[MAX_SHAPE_BYTES];
  private int binaryCount;

  // The last replay that failed: its code (after any fork it took), the code index of the segment
  // that did not fit.
  private long[] failedCode;
  private int failedSegment;
  // The code that missed before the current search or learning, and the segment it failed in: a
  // fork of it may lead to the shape that fits.
  private long[] missedCode;
  private int missedSegment;
  // The code a fork led the last replay to, which becomes the column's latest.
  private long[] switched;

  // Where the last run missed: the code index of the segment's head, and its position in the bytes.
  private int missHead;
  private int missAt;
  /** The column whose chunk {@link #skipFitting} stopped at. */
  private int stopped;

  private int forksTaken;

  /** Shapes for the chunks of {@code columns} columns. */
  SkipShapes(int maxStringLength, int columns) {
    this.maxStringLength = maxStringLength;
    this.own = new int[columns];
    this.latest = new long[columns][];
  }

  /**
   * Skips from {@code b[p]} the chunks of columns [{@code from}, {@code to}) while each fits the
   * shape its column fitted last or a fork of it, as most do: returns the position after the last
   * that fitted, and {@link #stopped()} is the column of the first that did not ({@code to} when
   * none), for {@link #recover}. The loop over chunks and the replay are one compiled method
   * (C2 inlines {@link #run}): called once a chunk, the replay was compiled apart, and projected
   * decodes took up to 10% longer (docs/benchmarks.md, tenth pass).
   */
  int skipFitting(byte[] b, int p, int limit, int from, int to) {
    int column = from;
    for (; column < to; column++) {
      long[] code = latest[column];
      int end = code == null ? -1 : run(code, 0, b, p, limit);
      if (end == MISSED) {
        end = fork(code, b, limit);
        if (end >= 0) {
          latest[column] = switched; // the column's chunks may keep the layout the fork led to
        }
        switched = null;
      }
      if (end < 0) {
        break;
      }
      p = end;
    }
    stopped = column;
    return p;
  }

  int stopped() {
    return stopped;
  }

  /**
   * The end of the chunk {@link #skipFitting} stopped at, column {@code column}'s at {@code b[p]},
   * by another shape that fits it, or -1.
   */
  int recover(byte[] b, int p, int limit, int column) {
    return search(b, p, limit, column, latest[column] == null ? null : failedCode);
  }

  /** The end of column {@code column}'s chunk at {@code b[p]} by a shape that fits it, or -1 (tests). */
  int replay(byte[] b, int p, int limit, int column) {
    int end = skipFitting(b, p, limit, column, column + 1);
    return stopped == column ? recover(b, p, limit, column) : end;
  }

  /** How many forks replays took (tests). */
  int forksTaken() {
    return forksTaken;
  }

  /** Shapes learned, each from a walked chunk (tests). */
  int learned() {
    return count + replaced;
  }

  /** Shapes learned in a slot another shape held (tests). */
  int replaced() {
    return replaced;
  }

  /**
   * Whether every fork of a held shape, or of a column's latest, leads to a shape whose code is
   * the same up to the fork's segment (tests).
   */
  boolean forksAgree() {
    List<long[]> codes = new ArrayList<>(Arrays.asList(latest));
    for (int i = 0; i < count; i++) {
      codes.add(shapes[i].code);
    }
    for (long[] code : codes) {
      if (code == null) {
        continue;
      }
      for (int f = code.length - MAX_FORKS; f < code.length && code[f] != 0; f++) {
        if (!sameUpTo(code, shapes[(int) (code[f] >>> FORK_SLOT) - 1].code, (int) code[f] & 0xffff)) {
          return false;
        }
      }
    }
    return true;
  }

  /** Whether {@code a} and {@code b} compare alike before code index {@code at} (a segment's head in {@code a}). */
  private static boolean sameUpTo(long[] a, long[] b, int at) {
    return b.length > at && Arrays.equals(a, 0, at, b, 0, at);
  }

  /** How many binaries the shape that column {@code column} fitted last leaves free, or -1 (tests). */
  int freeBinaries(int column) {
    int k = own[column] - 1;
    return k < 0 ? -1 : (int) Arrays.stream(shapes[k].binaries).filter(length -> length < 0).count();
  }

  /**
   * The shape the column before fitted last (neighbours share layouts), then the rest, newest
   * first. A column that flips between two layouts by a varint's length does not come here more
   * than once a layout: its missed shape gets a fork to the one that fits.
   */
  private int search(byte[] b, int p, int limit, int column, long[] missed) {
    missedCode = missed;
    missedSegment = failedSegment;
    int before = neighbour(column);
    for (int i = count; i >= 0; i--) {
      int k = i == count ? before : i;
      if (k < 0 || k >= count || i < count && k == before || shapes[k].code == missed) {
        continue;
      }
      switched = null;
      int end = replay(shapes[k].code, b, p, limit);
      if (end >= 0) {
        return hit(column, fitted(k), end);
      }
    }
    switched = null; // the failed replays' forks
    return -1;
  }

  /** Shape {@code k}, or the one its forks led the replay that fitted to. */
  private int fitted(int k) {
    int slot = switched == null ? -1 : slotOf(switched);
    switched = null;
    return slot >= 0 ? slot : k;
  }

  /** The shape the nearest skipped column before fitted last, or -1. */
  private int neighbour(int column) {
    int c = column - 1;
    while (c >= 0 && c > column - 16 && own[c] == 0) { // bounded: chunks without a shape must not make it quadratic
      c--;
    }
    return c >= 0 ? own[c] - 1 : -1;
  }

  /** Makes shape {@code k} the column's latest, and the one a fork of the shape that missed leads to; returns {@code end}. */
  private int hit(int column, int k, int end) {
    if (missedCode != null) {
      addFork(missedCode, missedSegment, k);
      missedCode = null;
    }
    own[column] = k + 1;
    latest[column] = shapes[k].code;
    return end;
  }

  /**
   * Where the code of shape {@code k} equals {@code missed} up to the segment at {@code at}, and in
   * that segment first differs from it at a varint byte's continuation bit (a size one varint byte
   * longer or shorter), a fork at that segment of {@code missed} sends a chunk whose byte there
   * does not fit {@code missed} to shape {@code k}, without a failed replay and a search.
   */
  private void addFork(long[] missed, int at, int k) {
    long[] code = shapes[k].code;
    // Forks are cleared only in held shapes (a replaced one may live on in latest).
    if (code == missed || !sameUpTo(missed, code, at) || slotOf(missed) < 0) {
      return;
    }
    int n = Math.min((int) code[at], (int) missed[at]);
    for (int i = 0; 8 * i < n; i++) {
      int w = at + 1 + 2 * i;
      long differ = (code[w] ^ missed[w]) | (code[w + 1] ^ missed[w + 1]);
      if (differ == 0) {
        continue;
      }
      int bit = Long.numberOfTrailingZeros(differ) & ~7;
      int e = 8 * i + bit / 8;
      if (e >= n || (code[w + 1] >>> bit & 0xff) != 0x80 || (missed[w + 1] >>> bit & 0xff) != 0x80) {
        return; // not a varint's length
      }
      long fork = at | (long) e << FORK_BYTE | (missed[w] >>> bit + 7 & 1) << FORK_EXPECTED | (long) (k + 1) << FORK_SLOT;
      for (int f = missed.length - MAX_FORKS; f < missed.length; f++) {
        if (missed[f] == 0) {
          missed[f] = fork;
          return;
        }
        if ((int) missed[f] == (int) fork) {
          return; // the byte has a fork already
        }
      }
      return;
    }
  }

  /** The slot of the held shape whose code is {@code code}, or -1. */
  private int slotOf(long[] code) {
    for (int i = 0; i < count; i++) {
      if (shapes[i].code == code) {
        return i;
      }
    }
    return -1;
  }

  /** Before slot {@code k} takes another shape: no fork may lead to it, and its shape keeps none. */
  private void clearForks(int k) {
    for (int i = 0; i < count; i++) {
      long[] code = shapes[i].code;
      int kept = code.length - MAX_FORKS;
      for (int f = kept; f < code.length; f++) {
        long fork = code[f];
        code[f] = 0;
        if (fork != 0 && i != k && (int) (fork >>> FORK_SLOT) != k + 1) {
          code[kept++] = fork;
        }
      }
    }
  }

  /** Replays {@code code} on the bytes from {@code p}, taking its forks: the end, or -1 (see {@link #run}). */
  private int replay(long[] code, byte[] b, int p, int limit) {
    int end = run(code, 0, b, p, limit);
    return end == MISSED ? fork(code, b, limit) : end;
  }

  /**
   * Runs {@code code} from its segment at {@code at} on the bytes from {@code p}: the end; or
   * {@link #MISSED} where a segment's bytes do not fit, with {@link #missHead} and {@link #missAt}
   * naming it; or -1 with {@link #failedCode} and {@link #failedSegment} naming what failed. No
   * forks and no calls, so that it stays small enough for C2 to inline into the loop over chunks.
   */
  private int run(long[] code, int at, byte[] b, int p, int limit) {
    for (; ; ) {
      long segment = code[at++];
      int n = (int) segment;
      int count = (n + 7) >>> 3;
      if (limit - p < count * 8) {
        return failed(code, at - 1); // too near the end for whole words: walked instead
      }
      if (count == 1) { // e.g. the one field header between two string bounds: cheaper than a loop's entry
        if ((((long) LONG_LE.get(b, p) ^ code[at]) & code[at + 1]) != 0) {
          return missed(at - 1, p);
        }
        at += 2;
      } else {
        for (int i = 0; i < count; i++, at += 2) {
          if ((((long) LONG_LE.get(b, p + 8 * i) ^ code[at]) & code[at + 1]) != 0) {
            return missed(at - 1 - 2 * i, p);
          }
        }
      }
      p += n;
      if (segment < 0) {
        return p;
      }
      int length = 0; // a binary: its varint32 length, then as many bytes
      for (int shift = 0; ; shift += 7) {
        if (p >= limit || shift > 28) {
          return failed(null, 0); // a length the walk may refuse
        }
        int v = b[p++];
        length |= (v & 0x7f) << shift;
        if (v >= 0) {
          break;
        }
      }
      if (length < 0 || length > limit - p || length > maxStringLength) {
        return failed(null, 0);
      }
      p += length;
    }
  }

  private int missed(int head, int at) {
    missHead = head;
    missAt = at;
    return MISSED;
  }

  /**
   * After a run of {@code code} missed: where a fork names a byte of the segment that missed which
   * does not fit, the replay goes on in the shape the fork leads to, whose code equals this one up
   * to this segment (so the segments before replay alike); else it failed. The end, or -1.
   */
  private int fork(long[] code, byte[] b, int limit) {
    for (int taken = 0; taken < MAX_FORKS_TAKEN; taken++) {
      long[] other = forkOf(code, missHead, b, missAt);
      if (other == null) {
        break;
      }
      switched = other;
      forksTaken++;
      int end = run(other, missHead, b, missAt, limit);
      if (end != MISSED) {
        return end;
      }
      code = other;
    }
    return failed(code, missHead);
  }

  /** The code a fork of {@code code} at the segment at {@code head} (at {@code b[p]}) leads to, or null. */
  private long[] forkOf(long[] code, int head, byte[] b, int p) {
    for (int f = code.length - MAX_FORKS; f < code.length && code[f] != 0; f++) {
      long fork = code[f];
      // The byte is within the segment, whose words the run has checked are within the limit.
      if ((int) (fork & 0xffff) == head
          && (b[p + (int) (fork >>> FORK_BYTE & 0xffff)] >>> 7 & 1) != (int) (fork >>> FORK_EXPECTED & 1)) {
        return shapes[(int) (fork >>> FORK_SLOT) - 1].code;
      }
    }
    return null;
  }

  private int failed(long[] code, int segment) {
    failedCode = code;
    failedSegment = segment;
    return -1;
  }

  /**
   * Learns the shape of column {@code column}'s chunk at {@code b[start, end)}, which the checked
   * walk accepted. A fixed binary length is compared with the other bytes, cheaper than reading
   * it; the first shapes fix every length. A column that outgrows its shape (bounds of other
   * lengths, a size of another varint length), and every column once there are several shapes,
   * gets one that fixes only the lengths equal to those of the shape it fitted last (one it left
   * free stays free), or to those its neighbour's chunk had: names and numeric bounds keep their
   * lengths, string bounds do not, and a name freed where names grow a digit is fixed again.
   */
  void learn(byte[] b, int start, int end, int column) {
    if (end - start > MAX_SHAPE_BYTES) {
      missedCode = null;
      return;
    }
    int own = column < this.own.length ? this.own[column] - 1 : -1;
    int ref = own >= 0 ? own : count >= 8 ? neighbour(column) : -1;
    reference = ref >= 0 && ref < count ? shapes[ref].binaries : null;
    ownReference = own >= 0;
    binaryCount = 0;
    used = 0;
    segmentStart = 0;
    wordCount = 0;
    if (struct(b, start, end) != end) {
      missedCode = null;
      return; // a map: left to the walk
    }
    int lastSegment = closeSegment(); // apart: closing may grow words, which words[closeSegment()] would read first
    words[lastSegment] |= Long.MIN_VALUE;
    long[] code = Arrays.copyOf(words, wordCount + MAX_FORKS);
    Arrays.fill(code, wordCount, code.length, 0); // no forks yet (the scratch beyond wordCount is stale)
    Shape shape = new Shape(code, Arrays.copyOf(binaries, binaryCount));
    int slot = count < MAX_SHAPES ? count : replaced++ % MAX_SHAPES;
    if (slot < count) {
      clearForks(slot);
    } else {
      count++;
    }
    shapes[slot] = shape;
    hit(column, slot, end);
  }

  /** Records the struct at {@code p}; returns its end, or -1 for what shapes do not cover. */
  private int struct(byte[] b, int p, int end) {
    while (p >= 0 && p < end) {
      int header = b[p];
      int type = header & 0x0f;
      p = fixed(b, p, 1, end);
      if (type == STOP) {
        return p;
      }
      if ((header & 0xf0) == 0) {
        p = fixed(b, p, varintLength(b, p, end), end); // a long-form field id
      }
      if (type != BOOLEAN_TRUE && type != BOOLEAN_FALSE) {
        p = value(b, p, end, type);
      }
    }
    return -1;
  }

  private int value(byte[] b, int p, int end, int type) {
    if (p < 0 || p >= end) {
      return -1;
    }
    switch (type) {
      case I16, I32, I64 -> {
        int n = varintLength(b, p, end);
        for (int i = 0; i < n; i++) {
          add(b[p + i], (byte) 0x80); // only where the varint ends must match
        }
        return n < 0 ? -1 : p + n;
      }
      case BINARY -> {
        int n = varintLength(b, p, end);
        if (n < 0 || readVarint(b, p) > end - p - n) {
          return -1;
        }
        int length = readVarint(b, p);
        int i = binaryCount++;
        if (reference != null && (i >= reference.length
            || (ownReference ? reference[i] : observed(reference[i])) != length)) {
          binaries[i] = -1 - length;
          closeSegment();
          segmentStart = used;
        } else {
          binaries[i] = length;
          fixed(b, p, n, end); // the same length, any contents
          for (int j = 0; j < length; j++) {
            add(b[p + n + j], (byte) 0);
          }
        }
        return p + n + length;
      }
      case BYTE, BOOLEAN_TRUE, BOOLEAN_FALSE -> {
        return fixed(b, p, 1, end); // a bool in a list is a whole byte
      }
      case DOUBLE -> {
        return fixed(b, p, 8, end);
      }
      case STRUCT -> {
        return struct(b, p, end);
      }
      case LIST, SET -> {
        boolean longSize = (b[p] & 0xf0) == 0xf0;
        int size = longSize ? readVarint(b, p + 1) : (b[p] >>> 4) & 0x0f;
        int elementType = b[p] & 0x0f;
        p = fixed(b, p, longSize ? 1 + varintLength(b, p + 1, end) : 1, end); // the size decides the walk
        for (int i = 0; i < size && p >= 0; i++) {
          p = value(b, p, end, elementType);
        }
        return p;
      }
      default -> {
        return -1; // maps
      }
    }
  }

  /** The length a binary had in the chunk a shape was learned from, fixed or not. */
  private static int observed(int binary) {
    return binary >= 0 ? binary : -1 - binary;
  }

  /** Appends {@code n} bytes at {@code p} that must be equal. */
  private int fixed(byte[] b, int p, int n, int end) {
    if (p < 0 || n <= 0 || n > end - p) {
      return -1;
    }
    for (int i = 0; i < n; i++) {
      add(b[p + i], (byte) 0xff);
    }
    return p + n;
  }

  private void add(byte value, byte mask) {
    bytes[used] = value;
    masks[used++] = mask;
  }

  /** Ends the current segment (at a binary, or the struct's end): its length, then its masked words; returns where its length is. */
  private int closeSegment() {
    int n = used - segmentStart;
    if (wordCount + 1 + 2 * ((n + 7) >>> 3) > words.length) {
      words = Arrays.copyOf(words, 2 * (wordCount + 1 + n));
    }
    int head = wordCount++;
    words[head] = n;
    Arrays.fill(masks, used, used + 8, (byte) 0); // the last word's bytes past the segment are not compared
    for (int i = segmentStart; i < used; i += 8) {
      long mask = (long) LONG_LE.get(masks, i);
      // Only compared bits: shapes alike in layout are equal in code.
      words[wordCount++] = (long) LONG_LE.get(bytes, i) & mask;
      words[wordCount++] = mask;
    }
    return head;
  }

  private static int varintLength(byte[] b, int p, int end) {
    for (int q = p; q < end && q < p + 10; q++) {
      if (b[q] >= 0) {
        return q + 1 - p;
      }
    }
    return -1;
  }

  private static int readVarint(byte[] b, int p) {
    int result = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      int v = b[p++];
      result |= (v & 0x7f) << shift;
      if (v >= 0) {
        break;
      }
    }
    return result;
  }
}
