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
 * @param pageIndex where the chunk's column and offset indexes are, or null when it has none
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
    PageIndexLocation pageIndex) {

  public ColumnChunkMeta {
    encodings = List.copyOf(encodings);
  }

  /** A chunk without statistics or page index, as the first model had it. */
  public ColumnChunkMeta(ColumnDescriptor column, CompressionCodec codec, List<Encoding> encodings, long numValues,
      long totalCompressedSize, long totalUncompressedSize, long dataPageOffset, long dictionaryPageOffset) {
    this(column, codec, encodings, numValues, totalCompressedSize, totalUncompressedSize, dataPageOffset,
        dictionaryPageOffset, codec.ordinal(), null, null);
  }

  /** File offset of the chunk's first page. */
  public long startOffset() {
    return dictionaryPageOffset >= 0 && dictionaryPageOffset < dataPageOffset ? dictionaryPageOffset : dataPageOffset;
  }
}
