package io.turboparquet.format;

import io.turboparquet.format.crypto.ChunkDecryptor;
import java.util.List;

/**
 * Where one column chunk of a row group lies and how it is encoded. A footer holds one per column
 * and row group, so what chunks repeat is shared ({@link ChunkCoding}) and the page index is kept
 * flat, not as a {@link PageIndexLocation}.
 *
 * @param coding codec, encodings and encoding stats, shared with the chunks that repeat them
 * @param dictionaryPageOffset file offset of the dictionary page, or -1 when there is none
 * @param statistics the chunk's statistics, or null when absent or not asked for
 * @param offsetIndexOffset file offset of the chunk's offset index, or -1 when it has none
 * @param offsetIndexLength its length, 0 when it has none
 * @param columnIndexOffset file offset of the chunk's column index, or -1 when it has none
 * @param columnIndexLength its length, 0 when it has none
 * @param bloomFilter where the chunk's bloom filter is, or null when it has none
 * @param geospatial a GEOMETRY or GEOGRAPHY chunk's statistics (decoded with the chunk), or null when absent
 * @param decryptor the modules' decryptor of an encrypted chunk (Parquet modular encryption), else null
 */
public record ColumnChunkMeta(
    ColumnDescriptor column,
    ChunkCoding coding,
    long numValues,
    long totalCompressedSize,
    long totalUncompressedSize,
    long dataPageOffset,
    long dictionaryPageOffset,
    ColumnStatistics statistics,
    long offsetIndexOffset,
    int offsetIndexLength,
    long columnIndexOffset,
    int columnIndexLength,
    BloomFilterLocation bloomFilter,
    GeospatialStatistics geospatial,
    ChunkDecryptor decryptor) {

  /** A chunk that is not encrypted. */
  public ColumnChunkMeta(ColumnDescriptor column, ChunkCoding coding, long numValues, long totalCompressedSize,
      long totalUncompressedSize, long dataPageOffset, long dictionaryPageOffset, ColumnStatistics statistics,
      long offsetIndexOffset, int offsetIndexLength, long columnIndexOffset, int columnIndexLength,
      BloomFilterLocation bloomFilter, GeospatialStatistics geospatial) {
    this(column, coding, numValues, totalCompressedSize, totalUncompressedSize, dataPageOffset, dictionaryPageOffset,
        statistics, offsetIndexOffset, offsetIndexLength, columnIndexOffset, columnIndexLength, bloomFilter,
        geospatial, null);
  }

  /** A chunk without statistics or page index, as the first model had it. */
  public ColumnChunkMeta(ColumnDescriptor column, CompressionCodec codec, List<Encoding> encodings, long numValues,
      long totalCompressedSize, long totalUncompressedSize, long dataPageOffset, long dictionaryPageOffset) {
    this(column, new ChunkCoding(codec, codec.ordinal(), encodings, false, null), numValues, totalCompressedSize,
        totalUncompressedSize, dataPageOffset, dictionaryPageOffset, null, -1, 0, -1, 0, null, null);
  }

  /** The compression codec, or null for a codec id this reader does not know. */
  public CompressionCodec codec() {
    return coding.codec();
  }

  /** The codec's Thrift id as stored. */
  public int codecId() {
    return coding.codecId();
  }

  /** {@code ColumnMetaData.encodings}, those this reader knows. */
  public List<Encoding> encodings() {
    return coding.encodings();
  }

  /** Whether {@code ColumnMetaData.encodings} listed an encoding id this reader does not know. */
  public boolean unknownEncodings() {
    return coding.unknownEncodings();
  }

  /** The encodings of the chunk's pages ({@code ColumnMetaData.encoding_stats}), or null when the footer has none. */
  public EncodingStats encodingStats() {
    return coding.encodingStats();
  }

  /** Where the chunk's column and offset indexes are, or null when it has none. */
  public PageIndexLocation pageIndex() {
    return offsetIndexOffset >= 0 || columnIndexOffset >= 0
        ? new PageIndexLocation(offsetIndexOffset, offsetIndexLength, columnIndexOffset, columnIndexLength) : null;
  }

  /** File offset of the chunk's first page. */
  public long startOffset() {
    return dictionaryPageOffset >= 0 && dictionaryPageOffset < dataPageOffset ? dictionaryPageOffset : dataPageOffset;
  }
}
