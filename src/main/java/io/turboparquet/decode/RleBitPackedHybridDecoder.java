package io.turboparquet.decode;

import io.netty.buffer.ByteBuf;

/** TEMPORARY stub: replaced by the real decoder. */
public final class RleBitPackedHybridDecoder {
  public void init(ByteBuf buf, int offset, int length, int bitWidth) {
    throw new UnsupportedOperationException();
  }

  public void readInts(int[] dst, int off, int n) {
    throw new UnsupportedOperationException();
  }

  public void skip(int n) {
    throw new UnsupportedOperationException();
  }
}
