package io.turboparquet.page.codec;

import io.netty.buffer.ByteBuf;
import java.io.IOException;

/** UNCOMPRESSED: a plain copy; the compressed and uncompressed sizes must agree. */
final class UncompressedDecompressor implements Decompressor {
  @Override
  public void decompress(
      ByteBuf src, int srcIndex, int srcLength, ByteBuf dst, int dstIndex, int dstLength)
      throws IOException {
    if (srcIndex < 0 || srcLength < 0 || srcIndex > src.capacity() - srcLength) {
      throw new IndexOutOfBoundsException(
          String.format("source range [%d, +%d) outside buffer capacity %d", srcIndex, srcLength, src.capacity()));
    }
    if (dstIndex < 0 || dstLength < 0 || dstIndex > dst.capacity() - dstLength) {
      throw new IndexOutOfBoundsException(
          String.format("destination range [%d, +%d) outside buffer capacity %d", dstIndex, dstLength, dst.capacity()));
    }
    if (srcLength != dstLength) {
      throw new CodecException(
          String.format(
              "UNCOMPRESSED: page is %d bytes, header says uncompressed size %d", srcLength, dstLength));
    }
    // setBytes(int, ByteBuf, int, int) is a memory copy between direct buffers and leaves indexes alone.
    dst.setBytes(dstIndex, src, srcIndex, srcLength);
  }

}
