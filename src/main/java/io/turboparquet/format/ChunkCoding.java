package io.turboparquet.format;

import java.util.List;

/**
 * How a column chunk's pages are coded: its codec, {@code ColumnMetaData.encodings} and
 * {@code encoding_stats}. A footer repeats a handful of these over thousands of chunks, so the
 * decoder gives every chunk that repeats one the same instance.
 *
 * @param codec the compression codec, or null for a codec id this reader does not know (an
 *     error only when the chunk is read)
 * @param codecId the codec's Thrift id as stored
 * @param unknownEncodings whether {@code encodings} listed an encoding id this reader does not
 *     know (left out of {@code encodings})
 * @param encodingStats the encodings of the chunk's pages, or null when the footer has none
 */
public record ChunkCoding(CompressionCodec codec, int codecId, List<Encoding> encodings, boolean unknownEncodings,
    EncodingStats encodingStats) {
  public ChunkCoding {
    encodings = List.copyOf(encodings);
  }
}
