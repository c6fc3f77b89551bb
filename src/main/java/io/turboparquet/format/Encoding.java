package io.turboparquet.format;

/** Parquet value and level encodings, by their Thrift id in parquet-format (id 1, GROUP_VAR_INT, was never used). */
public enum Encoding {
  PLAIN(0), PLAIN_DICTIONARY(2), RLE(3), BIT_PACKED(4), DELTA_BINARY_PACKED(5), DELTA_LENGTH_BYTE_ARRAY(6),
  DELTA_BYTE_ARRAY(7), RLE_DICTIONARY(8), BYTE_STREAM_SPLIT(9);

  private final int thriftId;

  Encoding(int thriftId) {
    this.thriftId = thriftId;
  }

  public int thriftId() {
    return thriftId;
  }

  public boolean isDictionary() {
    return this == PLAIN_DICTIONARY || this == RLE_DICTIONARY;
  }

  public static Encoding fromThriftId(int id) {
    for (Encoding e : values()) {
      if (e.thriftId == id) {
        return e;
      }
    }
    throw new IllegalArgumentException("unknown encoding id " + id);
  }
}
