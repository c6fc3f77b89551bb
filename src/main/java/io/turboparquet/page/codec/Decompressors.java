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

  /**
   * The most bytes one stored byte can decompress to, by the codec's format (rounded up), or
   * {@link Long#MAX_VALUE} where the format sets no useful bound: SNAPPY's densest copy writes 64
   * bytes for 3, an LZ4 match grows 255 bytes per extra byte, deflate tops out near 1032:1, a zstd
   * RLE block writes 128 KiB for 4 bytes; a BROTLI stream can repeat without limit.
   */
  public static long maxExpansion(CompressionCodec codec) {
    return switch (codec) {
      case UNCOMPRESSED -> 1;
      case SNAPPY -> 24;
      case LZ4, LZ4_RAW -> 256;
      case GZIP -> 1040;
      case ZSTD -> 32768;
      case BROTLI, LZO -> Long.MAX_VALUE;
    };
  }
}
