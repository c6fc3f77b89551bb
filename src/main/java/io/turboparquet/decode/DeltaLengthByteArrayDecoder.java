package io.turboparquet.decode;

import io.netty.buffer.ByteBuf;

/**
 * DELTA_LENGTH_BYTE_ARRAY: all lengths DELTA_BINARY_PACKED, then all the bytes concatenated.
 * Lengths are decoded a chunk ahead of the values and kept, so {@link #maxBytes} knows the exact
 * size of the next values without consuming them.
 */
final class DeltaLengthByteArrayDecoder implements ValuesDecoder {
  private static final String NAME = "DELTA_LENGTH_BYTE_ARRAY BYTE_ARRAY";
  private static final int CHUNK = 1024;

  private final DeltaBinaryPackedReader lengths = new DeltaBinaryPackedReader(NAME + " lengths", 32);
  private final int[] lens = new int[CHUNK];
  /** Decoded lengths not yet consumed: {@code lens[lensPos, lensEnd)}, their bytes from {@link #dataPos}. */
  private int lensPos;
  private int lensEnd;
  private ByteBuf page;
  private int dataPos;
  private int end;
  private int left;

  @Override
  public void init(ByteBuf page, int offset, int length, int valueCount) {
    Sections.checkInit(NAME, page, offset, length, valueCount);
    lengths.init(page, offset, length);
    if (lengths.totalCount() < valueCount) {
      throw new DecodeException(NAME + " lengths declare " + lengths.totalCount() + " values but the page has "
          + valueCount);
    }
    this.page = page;
    this.dataPos = lengths.endOffset();
    this.end = offset + length;
    this.left = valueCount;
    this.lensPos = 0;
    this.lensEnd = 0;
  }

  @Override
  public void read(ValueSink sink, int n) {
    Sections.checkCount(NAME, n, left);
    for (int done = 0; done < n; ) {
      if (lensPos == lensEnd) {
        refill();
      }
      int k = Math.min(lensEnd - lensPos, n - done);
      long total = checkedBytes(k);
      sink.reserveVariable(k, total);
      int p = dataPos;
      for (int i = 0; i < k; i++) {
        int len = lens[lensPos + i];
        sink.appendBinary(page, p, len);
        p += len;
      }
      consume(k, p);
      done += k;
      left -= k; // counts the values not consumed, so refill never decodes past the page's values
    }
  }

  @Override
  public void skip(int n) {
    Sections.checkCount(NAME, n, left);
    for (int done = 0; done < n; ) {
      if (lensPos == lensEnd) {
        refill();
      }
      int k = Math.min(lensEnd - lensPos, n - done);
      long total = checkedBytes(k);
      consume(k, (int) (dataPos + total));
      done += k;
      left -= k; // counts the values not consumed, so refill never decodes past the page's values
    }
  }

  /** Exact while the next values' lengths are decoded (up to a chunk); beyond, the data bytes left. */
  @Override
  public long maxBytes(int n) {
    if (n <= 0 || left == 0) {
      return 0;
    }
    if (lensPos == lensEnd) {
      refill();
    }
    if (n > lensEnd - lensPos) {
      return end - dataPos;
    }
    long total = 0;
    for (int i = 0; i < n; i++) {
      total += lens[lensPos + i];
    }
    return total;
  }

  /** Bytes of the next {@code k} decoded lengths, checked against the data left. */
  private long checkedBytes(int k) {
    long total = 0;
    for (int i = 0; i < k; i++) {
      total += lens[lensPos + i];
    }
    if (total > end - dataPos) {
      throw new DecodeException(NAME + " values need " + total + " bytes but only " + (end - dataPos) + " are left");
    }
    return total;
  }

  private void consume(int k, int newDataPos) {
    lensPos += k;
    dataPos = newDataPos;
  }

  /**
   * Decodes the next lengths (at most a chunk, at most the values left) into {@link #lens}, checked
   * to be non-negative; only when every decoded length is consumed. Reads and skips check them
   * against the data left, so the values before a bad length still decode.
   */
  private void refill() {
    int k = Math.min(CHUNK, left);
    lengths.readInts(lens, 0, k);
    for (int i = 0; i < k; i++) {
      int len = lens[i];
      if (len < 0) {
        throw new DecodeException(NAME + " negative value length " + len);
      }
    }
    lensPos = 0;
    lensEnd = k;
  }
}
