package io.turboparquet.format;

/** Parquet's compression codecs, by their Thrift id in parquet-format. */
public enum CompressionCodec {
  UNCOMPRESSED, SNAPPY, GZIP, LZO, BROTLI, LZ4, ZSTD, LZ4_RAW;

  private static final CompressionCodec[] BY_ID = values();

  public static CompressionCodec fromThriftId(int id) {
    if (id < 0 || id >= BY_ID.length) {
      throw new IllegalArgumentException("unknown compression codec id " + id);
    }
    return BY_ID[id];
  }
}
