package io.turboparquet.format;

import java.util.List;

/**
 * Where one column chunk of a row group lies and how it is encoded.
 *
 * @param dictionaryPageOffset file offset of the dictionary page, or -1 when there is none
 */
public record ColumnChunkMeta(
    ColumnDescriptor column,
    CompressionCodec codec,
    List<Encoding> encodings,
    long numValues,
    long totalCompressedSize,
    long totalUncompressedSize,
    long dataPageOffset,
    long dictionaryPageOffset) {

  public ColumnChunkMeta {
    encodings = List.copyOf(encodings);
  }

  /** File offset of the chunk's first page. */
  public long startOffset() {
    return dictionaryPageOffset >= 0 && dictionaryPageOffset < dataPageOffset ? dictionaryPageOffset : dataPageOffset;
  }
}
