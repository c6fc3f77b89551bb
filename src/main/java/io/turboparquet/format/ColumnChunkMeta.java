package io.turboparquet.format;

import java.util.List;

/**
 * Where one column chunk of a row group lies and how it is encoded.
 *
 * @param codec the compression codec, or null for a codec id this reader does not know (an
 *     error only when the chunk is read)
 * @param dictionaryPageOffset file offset of the dictionary page, or -1 when there is none
 * @param codecId the codec's Thrift id as stored
 * @param statistics the chunk's statistics, or null when absent or not asked for
 * @param offsetIndexOffset file offset of the chunk's offset index, or -1 when it has none (the page index is
 *     kept flat, not as a {@link PageIndexLocation}: a footer holds thousands of chunks)
 * @param offsetIndexLength its length, 0 when it has none
 * @param columnIndexOffset file offset of the chunk's column index, or -1 when it has none
 * @param columnIndexLength its length, 0 when it has none
 * @param encodingStats the encodings of the chunk's pages ({@code ColumnMetaData.encoding_stats}), or null when
 *     the footer has none
 * @param unknownEncodings whether {@code ColumnMetaData.encodings} listed an encoding id this reader does not
 *     know (left out of {@code encodings})
 * @param bloomFilter where the chunk's bloom filter is, or null when it has none
 */
public record ColumnChunkMeta(
    ColumnDescriptor column,
    CompressionCodec codec,
    List<Encoding> encodings,
    long numValues,
    long totalCompressedSize,
    long totalUncompressedSize,
    long dataPageOffset,
    long dictionaryPageOffset,
    int codecId,
    ColumnStatistics statistics,
    long offsetIndexOffset,
    int offsetIndexLength,
    long columnIndexOffset,
    int columnIndexLength,
    EncodingStats encodingStats,
    boolean unknownEncodings,
    BloomFilterLocation bloomFilter) {

  public ColumnChunkMeta {
    encodings = List.copyOf(encodings);
  }

  /** A chunk without statistics or page index, as the first model had it. */
  public ColumnChunkMeta(ColumnDescriptor column, CompressionCodec codec, List<Encoding> encodings, long numValues,
      long totalCompressedSize, long totalUncompressedSize, long dataPageOffset, long dictionaryPageOffset) {
    this(column, codec, encodings, numValues, totalCompressedSize, totalUncompressedSize, dataPageOffset,
        dictionaryPageOffset, codec.ordinal(), null, -1, 0, -1, 0, null, false, null);
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
