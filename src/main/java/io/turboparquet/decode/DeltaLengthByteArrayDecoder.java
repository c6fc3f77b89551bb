package io.turboparquet.decode;

import io.netty.buffer.ByteBuf;

/** DELTA_LENGTH_BYTE_ARRAY: all lengths DELTA_BINARY_PACKED, then all the bytes concatenated. */
final class DeltaLengthByteArrayDecoder implements ValuesDecoder {
  private static final String NAME = "DELTA_LENGTH_BYTE_ARRAY BYTE_ARRAY";
  private static final int CHUNK = 1024;

  private final DeltaBinaryPackedReader lengths = new DeltaBinaryPackedReader(NAME + " lengths", 32);
  private final int[] lens = new int[CHUNK];
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
  }

  @Override
  public void read(ValueSink sink, int n) {
    Sections.checkCount(NAME, n, left);
    for (int done = 0; done < n; ) {
      int k = Math.min(CHUNK, n - done);
      int total = nextLengths(k);
      sink.reserveVariable(k, total);
      int p = dataPos;
      for (int i = 0; i < k; i++) {
        sink.appendBinary(page, p, lens[i]);
        p += lens[i];
      }
      dataPos = p;
      done += k;
    }
    left -= n;
  }

  @Override
  public void skip(int n) {
    Sections.checkCount(NAME, n, left);
    for (int done = 0; done < n; ) {
      int k = Math.min(CHUNK, n - done);
      dataPos += nextLengths(k);
      done += k;
    }
    left -= n;
  }

  /** Decodes the next {@code k} lengths into {@link #lens}; returns their sum, checked against the data left. */
  private int nextLengths(int k) {
    lengths.readInts(lens, 0, k);
    long total = 0;
    for (int i = 0; i < k; i++) {
      int len = lens[i];
      if (len < 0) {
        throw new DecodeException(NAME + " negative value length " + len);
      }
      total += len;
    }
    if (total > end - dataPos) {
      throw new DecodeException(NAME + " values need " + total + " bytes but only " + (end - dataPos) + " are left");
    }
    return (int) total;
  }
}
