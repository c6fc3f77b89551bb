package io.turboparquet.format;

/**
 * Where a column chunk's bloom filter is ({@code ColumnMetaData.bloom_filter_offset} and
 * {@code bloom_filter_length}), as stored: nothing here is checked against the file until a reader
 * uses it.
 *
 * @param offset file offset of the BloomFilterHeader
 * @param length bytes of header and bitset together, or 0 when the writer did not say (older
 *     writers, e.g. parquet-java before 1.13, set the offset only)
 */
public record BloomFilterLocation(long offset, int length) {
  public boolean hasLength() {
    return length != 0;
  }
}
