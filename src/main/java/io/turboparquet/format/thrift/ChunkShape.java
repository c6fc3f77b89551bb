package io.turboparquet.format.thrift;

import static io.turboparquet.format.thrift.CompactReader.BINARY;
import static io.turboparquet.format.thrift.CompactReader.BOOLEAN_FALSE;
import static io.turboparquet.format.thrift.CompactReader.BOOLEAN_TRUE;
import static io.turboparquet.format.thrift.CompactReader.BYTE;
import static io.turboparquet.format.thrift.CompactReader.DOUBLE;
import static io.turboparquet.format.thrift.CompactReader.I16;
import static io.turboparquet.format.thrift.CompactReader.I32;
import static io.turboparquet.format.thrift.CompactReader.I64;
import static io.turboparquet.format.thrift.CompactReader.LIST;
import static io.turboparquet.format.thrift.CompactReader.MAP;
import static io.turboparquet.format.thrift.CompactReader.MAX_DEPTH;
import static io.turboparquet.format.thrift.CompactReader.SET;
import static io.turboparquet.format.thrift.CompactReader.STRUCT;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The wire structure of one skipped ColumnChunk, learned from its bytes, to skip chunks built the
 * same way with a few masked 8-byte compares instead of a walk token by token. In a wide footer
 * the chunks of neighbouring columns differ only in the values of their varints and in the
 * contents (and lengths) of their strings: the field headers, list headers, STOPs and varint
 * lengths are the same.
 *
 * <p>What decides how a compact-protocol struct is walked: every field header and STOP (type and
 * id), long-form field ids, list, set and map headers and sizes, which byte ends each varint, and
 * the length of each binary. A shape keeps the first ones as bytes that must be equal (varints:
 * only their continuation bits), and reads each binary's length from the bytes, checked as
 * {@link CompactSkipper} checks it. A chunk that matches walks exactly as the chunk it was
 * learned from, token for token, so {@link CompactSkipper#skip} would end where {@link #skip}
 * ends; anything else is a {@link #MISS}, never a guess. Shapes are learned only from chunks the
 * fast skippers accepted.
 */
final class ChunkShape {
  static final int MISS = -1;
  /** Larger chunks (long key-value metadata, say) are not worth a shape. */
  static final int MAX_BYTES = 1024;
  static final int MAX_BINARIES = 64;

  private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final byte FULL = (byte) 0xff;
  private static final byte CONTINUATION = (byte) 0x80;

  // What was learned: the chunk's bytes, per byte FULL (must be equal), CONTINUATION (a varint
  // byte: only its continuation bit) or 0 (free), and where its binaries are (length and bytes).
  private final byte[] bytes;
  private final byte[] kind;
  private final int[] binaryStart;
  private final int[] binaryEnd;
  /**
   * Bit k: binary k's length is read from each chunk. Other binaries must have the learned length
   * (their length bytes are FULL), which costs nothing: skipping them is part of a compare.
   */
  private final long dynamic;

  // What is run: fixed segments, a dynamic binary between each two.
  private final int[] segmentBytes;
  /** Exclusive end of segment k's words, counted in words. */
  private final int[] segmentWordEnd;
  /** Per 8 bytes of the segments: the expected bits, then the mask. */
  private final long[] words;

  private ChunkShape(byte[] bytes, byte[] kind, int[] binaryStart, int[] binaryEnd, long dynamic) {
    this.bytes = bytes;
    this.kind = kind;
    this.binaryStart = binaryStart;
    this.binaryEnd = binaryEnd;
    this.dynamic = dynamic;
    int segments = Long.bitCount(dynamic) + 1;
    segmentBytes = new int[segments];
    segmentWordEnd = new int[segments];
    int[] from = new int[segments];
    int[] to = new int[segments];
    int k = 0;
    for (int i = 0; i < binaryStart.length; i++) {
      if ((dynamic >>> i & 1) != 0) {
        to[k] = binaryStart[i];
        from[++k] = binaryEnd[i];
      }
    }
    to[k] = bytes.length;
    int n = 0;
    for (k = 0; k < segments; k++) {
      segmentBytes[k] = to[k] - from[k];
      n += (segmentBytes[k] + 7) >>> 3;
      segmentWordEnd[k] = n;
    }
    words = new long[2 * n];
    int w = 0;
    for (k = 0; k < segments; k++) {
      for (int i = 0; i < segmentBytes[k]; i++) {
        int at = from[k] + i;
        int word = 2 * (w + (i >>> 3));
        int shift = (i & 7) << 3;
        words[word] |= (bytes[at] & kind[at] & 0xffL) << shift;
        words[word + 1] |= (kind[at] & 0xffL) << shift;
      }
      w = segmentWordEnd[k];
    }
  }

  /**
   * Position after the chunk at {@code b[p]} if it has this shape and lies before {@code limit}
   * (which every compared word must too), else {@link #MISS}.
   */
  int skip(byte[] b, int p, int limit, int maxLength) {
    int last = segmentBytes.length - 1;
    int w = 0;
    for (int k = 0; ; k++) {
      int end = segmentWordEnd[k];
      if (limit - p < (end - w) << 3) {
        return MISS;
      }
      long diff = 0;
      int q = p;
      for (; w + 1 < end; w += 2, q += 16) { // two at a time: segments are short, loop entries cost
        diff |= ((long) LONG_LE.get(b, q) ^ words[2 * w]) & words[2 * w + 1]
            | ((long) LONG_LE.get(b, q + 8) ^ words[2 * w + 2]) & words[2 * w + 3];
      }
      if (w < end) {
        diff |= ((long) LONG_LE.get(b, q) ^ words[2 * w]) & words[2 * w + 1];
        w++;
      }
      if (diff != 0) {
        return MISS;
      }
      p += segmentBytes[k];
      if (k == last) {
        return p;
      }
      // A dynamic binary: its varint length as CompactSkipper reads it (at most 5 bytes), its bytes.
      if (p >= limit) {
        return MISS;
      }
      int n = b[p++];
      if (n < 0) {
        n &= 0x7f;
        for (int shift = 7; ; shift += 7) {
          if (p >= limit || shift == 35) {
            return MISS;
          }
          int x = b[p++];
          n |= (x & 0x7f) << shift;
          if (x >= 0) {
            break;
          }
        }
      }
      if (n < 0 || n > limit - p || n > maxLength) {
        return MISS;
      }
      p += n;
    }
  }

  /**
   * The binaries (bit k: binary k) whose lengths differ between this shape and {@code other},
   * which is walked exactly like this shape otherwise; 0 if nothing differs but dynamic lengths,
   * or if anything else differs.
   */
  long lengthsDiffering(ChunkShape other) {
    int n = binaryStart.length;
    if (other.binaryStart.length != n) {
      return 0;
    }
    long lengths = 0;
    for (int k = 0; k <= n; k++) {
      int from = k == 0 ? 0 : binaryEnd[k - 1];
      int to = k == n ? bytes.length : binaryStart[k];
      int otherFrom = k == 0 ? 0 : other.binaryEnd[k - 1];
      int otherTo = k == n ? other.bytes.length : other.binaryStart[k];
      if (to - from != otherTo - otherFrom) {
        return 0;
      }
      for (int i = 0; i < to - from; i++) {
        byte m = kind[from + i];
        if (m != other.kind[otherFrom + i] || ((bytes[from + i] ^ other.bytes[otherFrom + i]) & m) != 0) {
          return 0;
        }
      }
      if (k < n && binaryEnd[k] - binaryStart[k] != other.binaryEnd[k] - other.binaryStart[k]) {
        lengths |= 1L << k;
      }
    }
    return lengths & ~dynamic;
  }

  /** This shape with the binaries {@code lengths} (bit k: binary k) read from each chunk too. */
  ChunkShape widen(long lengths) {
    int n = binaryStart.length;
    long all = n == 64 ? -1L : (1L << n) - 1;
    return new ChunkShape(bytes, kind, binaryStart, binaryEnd, (dynamic | lengths) & all);
  }

  /**
   * The shape of the ColumnChunk struct {@code b[p, end)} (a chunk {@link CompactSkipper} or
   * {@link ChunkSkipper} skipped to {@code end}), every binary of the learned length; null if it
   * is too large or does not walk to exactly {@code end}.
   */
  static ChunkShape learn(byte[] b, int p, int end) {
    if (end - p > MAX_BYTES || end <= p) {
      return null;
    }
    Recorder r = new Recorder(b, p, end);
    if (!r.struct(0) || r.p != end) {
      return null;
    }
    return new ChunkShape(Arrays.copyOfRange(b, p, end), r.kind, Arrays.copyOf(r.binaryStart, r.binaries),
        Arrays.copyOf(r.binaryEnd, r.binaries), 0);
  }

  /** Walks a chunk as {@link CompactSkipper} does, marking what each byte means for the walk. */
  private static final class Recorder {
    private final byte[] b;
    private final int start;
    private final int end;
    /** Per byte of the chunk: FULL, CONTINUATION or 0. */
    final byte[] kind;
    final int[] binaryStart = new int[MAX_BINARIES];
    final int[] binaryEnd = new int[MAX_BINARIES];
    int binaries;
    int p;

    Recorder(byte[] b, int start, int end) {
      this.b = b;
      this.start = start;
      this.end = end;
      this.kind = new byte[end - start];
      this.p = start;
    }

    boolean struct(int depth) {
      if (depth >= MAX_DEPTH - 1) {
        return false;
      }
      while (p < end) {
        int header = b[p] & 0xff;
        mark(1, FULL);
        int type = header & 0x0f;
        if (type == 0) {
          return true;
        }
        if (header >>> 4 == 0 && !varint(FULL)) { // a long-form field id
          return false;
        }
        if (type != BOOLEAN_TRUE && type != BOOLEAN_FALSE && !value(type, depth + 1)) { // a field's bool is in its header
          return false;
        }
      }
      return false;
    }

    /**
     * A value of a list, set, map or field at {@code depth} (as CompactSkipper counts); bools here
     * are a byte of their own.
     */
    private boolean value(int type, int depth) {
      return switch (type) {
        case BOOLEAN_TRUE, BOOLEAN_FALSE, BYTE -> mark(1, (byte) 0);
        case I16, I32, I64 -> varint(CONTINUATION);
        case DOUBLE -> mark(8, (byte) 0);
        case BINARY -> binary();
        case LIST, SET -> list(depth);
        case MAP -> map(depth);
        case STRUCT -> struct(depth);
        default -> false;
      };
    }

    private boolean list(int depth) {
      if (depth >= MAX_DEPTH - 1 || p >= end) {
        return false;
      }
      int header = b[p] & 0xff;
      mark(1, FULL);
      int size = header >>> 4;
      if (size == 15) {
        size = varint32(FULL);
      }
      // every element takes a byte at least
      if (size < 0 || size > end - p) {
        return false;
      }
      for (int i = 0; i < size; i++) {
        if (!value(header & 0x0f, depth + 1)) {
          return false;
        }
      }
      return true;
    }

    private boolean map(int depth) {
      int size = varint32(FULL);
      if (size < 0 || size > end - p || depth >= MAX_DEPTH - 1) {
        return false;
      }
      if (size == 0) {
        return true;
      }
      if (p >= end) {
        return false;
      }
      int kinds = b[p] & 0xff;
      mark(1, FULL);
      for (int i = 0; i < size; i++) {
        if (!value(kinds >>> 4, depth + 1) || !value(kinds & 0x0f, depth + 1)) {
          return false;
        }
      }
      return true;
    }

    private boolean binary() {
      if (binaries == MAX_BINARIES) {
        return false;
      }
      int at = p;
      int n = varint32(FULL);
      if (n < 0 || !mark(n, (byte) 0)) {
        return false;
      }
      binaryStart[binaries] = at - start;
      binaryEnd[binaries++] = p - start;
      return true;
    }

    /** A varint of at most 10 bytes, its bytes marked {@code as}. */
    private boolean varint(byte as) {
      for (int i = 0; i < 10 && p < end; i++) {
        boolean last = b[p] >= 0;
        mark(1, as);
        if (last) {
          return true;
        }
      }
      return false;
    }

    /** A varint of at most 5 bytes, its bytes marked {@code as}; its value, or -1. */
    private int varint32(byte as) {
      int result = 0;
      for (int shift = 0; shift < 35 && p < end; shift += 7) {
        int x = b[p];
        mark(1, as);
        result |= (x & 0x7f) << shift;
        if (x >= 0) {
          return result;
        }
      }
      return -1;
    }

    private boolean mark(int n, byte as) {
      if (n > end - p) {
        return false;
      }
      Arrays.fill(kind, p - start, p - start + n, as);
      p += n;
      return true;
    }
  }
}
