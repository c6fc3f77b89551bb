package io.turboparquet.page.codec;

import io.netty.buffer.ByteBuf;
import java.io.IOException;

public interface Decompressor {
  void decompress(ByteBuf src, int srcIndex, int srcLength, ByteBuf dst, int dstIndex, int dstLength) throws IOException;
}
