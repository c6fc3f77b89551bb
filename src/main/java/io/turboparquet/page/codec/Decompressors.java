package io.turboparquet.page.codec;

import io.turboparquet.format.CompressionCodec;

/** TEMPORARY placeholder until the codec work lands. */
public final class Decompressors {
  private Decompressors() {}

  public static Decompressor create(CompressionCodec codec) {
    if (codec != CompressionCodec.UNCOMPRESSED) {
      throw new UnsupportedOperationException(codec + " not yet");
    }
    return (src, si, sl, dst, di, dl) -> dst.setBytes(di, src, si, sl);
  }
}
