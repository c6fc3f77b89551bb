package io.turboparquet.decode;

import io.netty.buffer.ByteBuf;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.io.BufferSource;

/** TEMPORARY stub: replaced by the real dictionary. */
public final class Dictionary implements AutoCloseable {
  public static Dictionary read(ByteBuf page, int offset, int length, int numValues, PhysicalType type,
      int typeLength, BufferSource source) {
    throw new UnsupportedOperationException();
  }

  public int size() {
    return 0;
  }

  @Override
  public void close() {}
}
