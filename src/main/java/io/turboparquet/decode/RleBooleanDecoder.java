package io.turboparquet.decode;

import io.netty.buffer.ByteBuf;

/** RLE for BOOLEAN: a 4-byte little-endian length, then that many bytes of hybrid with bit width 1. */
final class RleBooleanDecoder implements ValuesDecoder {
  private static final String NAME = "RLE BOOLEAN";
  private static final int CHUNK = 1024;

  private final RleBitPackedHybridDecoder hybrid = new RleBitPackedHybridDecoder();
  private final int[] ints = new int[CHUNK];
  private final byte[] bytes = new byte[CHUNK];
  private int left;

  @Override
  public void init(ByteBuf page, int offset, int length, int valueCount) {
    Sections.checkInit(NAME, page, offset, length, valueCount);
    if (length < 4) {
      if (valueCount == 0) {
        hybrid.init(page, offset, 0, 1);
        left = 0;
        return;
      }
      throw new DecodeException(NAME + " section of " + length + " bytes has no room for its 4-byte length prefix");
    }
    int dataLength = page.getIntLE(offset);
    if (dataLength < 0 || dataLength > length - 4) {
      throw new DecodeException(NAME + " length prefix " + dataLength + " does not fit the section's "
          + (length - 4) + " remaining bytes");
    }
    hybrid.init(page, offset + 4, dataLength, 1);
    left = valueCount;
  }

  @Override
  public void read(ValueSink sink, int n) {
    Sections.checkCount(NAME, n, left);
    ByteBuf out = sink.reserve(n);
    int at = sink.writeIndex();
    for (int done = 0; done < n; ) {
      int k = Math.min(CHUNK, n - done);
      hybrid.readInts(ints, 0, k);
      for (int i = 0; i < k; i++) {
        bytes[i] = (byte) ints[i]; // bit width 1: the hybrid decoder already rejects anything but 0/1
      }
      out.setBytes(at + done, bytes, 0, k);
      done += k;
    }
    sink.advance(n);
    left -= n;
  }

  @Override
  public void skip(int n) {
    Sections.checkCount(NAME, n, left);
    hybrid.skip(n);
    left -= n;
  }
}
