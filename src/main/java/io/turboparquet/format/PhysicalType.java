package io.turboparquet.format;

/** Parquet physical types, by their Thrift id in parquet-format. */
public enum PhysicalType {
  BOOLEAN(1), INT32(4), INT64(8), INT96(12), FLOAT(4), DOUBLE(8), BYTE_ARRAY(-1), FIXED_LEN_BYTE_ARRAY(-1);

  private static final PhysicalType[] BY_ID = values();
  private final int fixedWidth;

  PhysicalType(int fixedWidth) {
    this.fixedWidth = fixedWidth;
  }

  /** Bytes per value in decoded form (BOOLEAN: one byte), or -1 when it depends on the column. */
  public int fixedWidth() {
    return fixedWidth;
  }

  public static PhysicalType fromThriftId(int id) {
    if (id < 0 || id >= BY_ID.length) {
      throw new IllegalArgumentException("unknown physical type id " + id);
    }
    return BY_ID[id];
  }
}
