package io.turboparquet.page.codec;

import io.turboparquet.format.CompressionCodec;

/** Creates the {@link Decompressor} for a Parquet compression codec. */
public final class Decompressors {
  private Decompressors() {}

  /**
   * A new decompressor for {@code codec}; each call returns a fresh instance.
   *
   * @throws UnsupportedOperationException for {@link CompressionCodec#LZO}
   */
  public static Decompressor create(CompressionCodec codec) {
    return switch (codec) {
      case UNCOMPRESSED -> new UncompressedDecompressor();
      case SNAPPY -> new SnappyDecompressor();
      case GZIP -> new GzipDecompressor();
      case LZO -> throw new UnsupportedOperationException("LZO compression is not supported");
      case BROTLI -> new BrotliDecompressor();
      case LZ4 -> new Lz4HadoopDecompressor();
      case ZSTD -> new ZstdDecompressor();
      case LZ4_RAW -> new Lz4RawBlockDecompressor();
    };
  }
}
