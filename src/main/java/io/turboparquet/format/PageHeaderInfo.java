package io.turboparquet.format;

/**
 * A page header in the core's own model. Fields that a page type lacks hold 0 / null.
 *
 * @param headerLength bytes the header itself took in the file
 * @param hasCrc whether {@code crc} is set
 * @param numValues level entries (data pages) or dictionary entries (dictionary pages)
 * @param numNulls V2 only
 * @param numRows V2 only
 * @param definitionLevelsByteLength V2 only
 * @param repetitionLevelsByteLength V2 only
 * @param compressed V2: whether the values section is compressed (always true for V1)
 */
public record PageHeaderInfo(
    PageType type,
    int headerLength,
    int uncompressedSize,
    int compressedSize,
    boolean hasCrc,
    int crc,
    int numValues,
    Encoding encoding,
    Encoding definitionLevelEncoding,
    Encoding repetitionLevelEncoding,
    int numNulls,
    int numRows,
    int definitionLevelsByteLength,
    int repetitionLevelsByteLength,
    boolean compressed) {

  /**
   * This header with other sizes: a decrypted page's header counts the stored module
   * ({@code headerLength}) and its page the plaintext ({@code compressedSize}).
   */
  public PageHeaderInfo withSizes(int headerLength, int compressedSize) {
    return new PageHeaderInfo(type, headerLength, uncompressedSize, compressedSize, hasCrc, crc, numValues, encoding,
        definitionLevelEncoding, repetitionLevelEncoding, numNulls, numRows, definitionLevelsByteLength,
        repetitionLevelsByteLength, compressed);
  }

  /** This header without its CRC (see {@code page.EncryptedPages}: an encrypted page's CRC is over the stored module). */
  public PageHeaderInfo withoutCrc() {
    return new PageHeaderInfo(type, headerLength, uncompressedSize, compressedSize, false, 0, numValues, encoding,
        definitionLevelEncoding, repetitionLevelEncoding, numNulls, numRows, definitionLevelsByteLength,
        repetitionLevelsByteLength, compressed);
  }

  public boolean isDataPage() {
    return type == PageType.DATA_PAGE || type == PageType.DATA_PAGE_V2;
  }
}
