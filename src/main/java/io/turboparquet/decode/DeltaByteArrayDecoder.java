package io.turboparquet.decode;

import io.netty.buffer.ByteBuf;
import io.turboparquet.format.PhysicalType;

/**
 * DELTA_BYTE_ARRAY (incremental encoding): prefix lengths DELTA_BINARY_PACKED, then the suffixes
 * as DELTA_LENGTH_BYTE_ARRAY. Value i is the first {@code prefix[i]} bytes of value i - 1 followed
 * by suffix i, so the previous value is kept on the heap and skips still rebuild it.
 * FIXED_LEN_BYTE_ARRAY values must come out exactly {@code typeLength} bytes long.
 */
final class DeltaByteArrayDecoder implements ValuesDecoder {
  private static final int CHUNK = 1024;
  private static final int STAGE_BYTES = 1 << 16;

  private final String name;
  /** FIXED_LEN_BYTE_ARRAY: the type length; BYTE_ARRAY: {@link ValueSink#VARIABLE}. */
  private final int fixedLength;
  /** Values per chunk: fewer for wide FIXED_LEN_BYTE_ARRAY, so the staging array stays small. */
  private final int chunk;
  private final DeltaBinaryPackedReader prefixes;
  private final DeltaBinaryPackedReader suffixes;
  /** Most lengths {@link #maxBytes} decodes ahead; beyond, its bound is unknown. */
  private static final int MAX_LOOKAHEAD = 1 << 16;
  private int[] pre = new int[CHUNK];
  private int[] suf = new int[CHUNK];
  private byte[] previous = new byte[64];
  private int previousLength;
  private byte[] staged = new byte[0];
  /** Decoded, checked lengths not yet consumed: {@code pre/suf[bufPos, bufEnd)}. */
  private int bufPos;
  private int bufEnd;
  /** The length of the last decoded value and the suffix bytes of the unconsumed ones. */
  private long bufLastLength;
  private long bufSuffixBytes;
  private ByteBuf page;
  private int dataPos;
  private int end;
  private int left;

  DeltaByteArrayDecoder(PhysicalType type, int fixedLength) {
    this.name = "DELTA_BYTE_ARRAY " + type;
    this.fixedLength = fixedLength;
    this.chunk = fixedLength == ValueSink.VARIABLE ? CHUNK : Math.max(1, Math.min(CHUNK, STAGE_BYTES / fixedLength));
    this.prefixes = new DeltaBinaryPackedReader(name + " prefix lengths", 32);
    this.suffixes = new DeltaBinaryPackedReader(name + " suffix lengths", 32);
  }

  @Override
  public void init(ByteBuf page, int offset, int length, int valueCount) {
    Sections.checkInit(name, page, offset, length, valueCount);
    int end = offset + length;
    prefixes.init(page, offset, length);
    int suffixStart = prefixes.endOffset();
    suffixes.init(page, suffixStart, end - suffixStart);
    if (prefixes.totalCount() < valueCount || suffixes.totalCount() < valueCount) {
      throw new DecodeException(name + " declares " + prefixes.totalCount() + " prefixes and "
          + suffixes.totalCount() + " suffixes but the page has " + valueCount + " values");
    }
    this.page = page;
    this.dataPos = suffixes.endOffset();
    this.end = end;
    this.left = valueCount;
    this.previousLength = 0;
    this.bufPos = 0;
    this.bufEnd = 0;
    this.bufSuffixBytes = 0;
  }

  @Override
  public void read(ValueSink sink, int n) {
    Sections.checkCount(name, n, left);
    for (int done = 0; done < n; ) {
      if (bufPos == bufEnd) {
        refill();
      }
      int k = Math.min(Math.min(bufEnd - bufPos, n - done), chunk);
      int from = bufPos;
      if (fixedLength == ValueSink.VARIABLE) {
        long total = 0;
        for (int i = from; i < from + k; i++) {
          total += (long) pre[i] + suf[i];
        }
        sink.reserveVariable(k, total);
        for (int i = from; i < from + k; i++) {
          int len = rebuild(pre[i], suf[i]);
          sink.appendBinary(previous, 0, len);
        }
      } else {
        int w = fixedLength;
        if (staged.length < k * w) {
          staged = new byte[k * w];
        }
        for (int i = 0; i < k; i++) {
          System.arraycopy(previous, 0, staged, i * w, rebuild(pre[from + i], suf[from + i]));
        }
        ByteBuf out = sink.reserve(k);
        out.setBytes(sink.writeIndex(), staged, 0, k * w);
        sink.advance(k);
      }
      bufPos += k;
      done += k;
      left -= k; // counts the values not consumed, so refill never decodes past the page's values
    }
  }

  @Override
  public void skip(int n) {
    Sections.checkCount(name, n, left);
    for (int done = 0; done < n; ) {
      if (bufPos == bufEnd) {
        refill();
      }
      int k = Math.min(bufEnd - bufPos, n - done);
      for (int i = bufPos; i < bufPos + k; i++) {
        rebuild(pre[i], suf[i]);
      }
      bufPos += k;
      done += k;
      left -= k;
    }
  }

  /**
   * Exact: decodes the next values' lengths ahead as needed (up to {@link #MAX_LOOKAHEAD} of them);
   * beyond that, unknown.
   */
  @Override
  public long maxBytes(int n) {
    n = Math.min(n, left);
    if (n <= 0) {
      return 0;
    }
    if (n > MAX_LOOKAHEAD) {
      return Long.MAX_VALUE;
    }
    int buffered = bufEnd - bufPos;
    if (buffered < n) {
      append(n - buffered);
    }
    long total = 0;
    for (int i = bufPos; i < bufPos + n; i++) {
      total += (long) pre[i] + suf[i];
    }
    return total;
  }

  /** Decodes and checks the next lengths (a chunk, at most the values left) once all are consumed. */
  private void refill() {
    append(Math.min(chunk, left));
  }

  /** Decodes and checks {@code k} more lengths (at most the values not yet buffered) after the buffered ones. */
  private void append(int k) {
    if (bufPos == bufEnd) {
      bufPos = bufEnd = 0;
    }
    if (bufEnd + k > pre.length) {
      int buffered = bufEnd - bufPos;
      int size = Math.max(buffered + k, pre.length);
      int[] p = size > pre.length ? new int[size] : pre;
      int[] q = size > suf.length ? new int[size] : suf;
      System.arraycopy(pre, bufPos, p, 0, buffered);
      System.arraycopy(suf, bufPos, q, 0, buffered);
      pre = p;
      suf = q;
      bufPos = 0;
      bufEnd = buffered;
    }
    nextLengths(bufEnd, k, bufEnd > bufPos ? bufLastLength : previousLength);
    bufEnd += k;
  }

  /**
   * Decodes the next {@code k} prefix and suffix lengths into {@code pre/suf[at, at + k)} and
   * validates them all (prefix within the previous value, whose length is {@code prevLength},
   * suffix bytes within the section with those already buffered, FIXED_LEN_BYTE_ARRAY lengths
   * exact) before any value is built.
   */
  private void nextLengths(int at, int k, long prevLength) {
    prefixes.readInts(pre, at, k);
    suffixes.readInts(suf, at, k);
    long prevLen = prevLength;
    long suffixBytes = 0;
    for (int i = at; i < at + k; i++) {
      int p = pre[i];
      int s = suf[i];
      if (p < 0 || p > prevLen) {
        throw new DecodeException(name + " prefix length " + p + " is outside the previous value's length " + prevLen);
      }
      if (s < 0) {
        throw new DecodeException(name + " negative suffix length " + s);
      }
      long len = (long) p + s;
      if (fixedLength != ValueSink.VARIABLE && len != fixedLength) {
        throw new DecodeException(name + " value of " + len + " bytes in a column of type length " + fixedLength);
      }
      suffixBytes += s;
      prevLen = len;
    }
    if (bufSuffixBytes + suffixBytes > end - dataPos) {
      throw new DecodeException(name + " suffixes need " + (bufSuffixBytes + suffixBytes) + " bytes but only "
          + (end - dataPos) + " are left");
    }
    bufSuffixBytes += suffixBytes;
    bufLastLength = prevLen;
  }

  /** Turns {@link #previous} into the next value: its first {@code prefix} bytes, then the suffix. */
  private int rebuild(int prefix, int suffix) {
    int len = prefix + suffix; // both validated, and bounded by the section's bytes
    if (previous.length < len) {
      byte[] bigger = new byte[(int) Math.max(len, Math.min(Integer.MAX_VALUE - 8, previous.length * 2L))];
      System.arraycopy(previous, 0, bigger, 0, prefix);
      previous = bigger;
    }
    page.getBytes(dataPos, previous, prefix, suffix);
    dataPos += suffix;
    bufSuffixBytes -= suffix;
    previousLength = len;
    return len;
  }
}
