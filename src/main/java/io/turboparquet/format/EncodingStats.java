package io.turboparquet.format;

/**
 * Which encodings a column chunk's pages use, as {@code ColumnMetaData.encoding_stats} lists them
 * (PageEncodingStats: page type, encoding, count): one bit per encoding ({@code 1 << thrift id}) for
 * the data pages (V1 and V2) and for the dictionary page. Page counts are not kept: an entry counts
 * as used whatever its count. An encoding id this reader does not know, or a page type from the
 * future, sets {@link #UNKNOWN} among the data pages' encodings (it might hold values of any
 * encoding). Index pages are left out.
 */
public record EncodingStats(int dataPageEncodings, int dictionaryPageEncodings) {
  /** An encoding (or page type) this reader does not know. */
  public static final int UNKNOWN = 1 << 31;
  private static final int DICTIONARY_ENCODINGS = bit(Encoding.PLAIN_DICTIONARY) | bit(Encoding.RLE_DICTIONARY);

  public static int bit(Encoding e) {
    return 1 << e.thriftId();
  }

  /** Whether the chunk has data pages and every one of them is dictionary-encoded (no fallback to another encoding). */
  public boolean dataPagesAllDictionary() {
    return dataPageEncodings != 0 && (dataPageEncodings & ~DICTIONARY_ENCODINGS) == 0;
  }
}
