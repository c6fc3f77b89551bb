package io.turboparquet.format.crypto;

/**
 * The kinds of encrypted module (Encryption.md 4.4.2): the id is the module-type byte of the AAD
 * suffix, and only data pages and their headers add a page ordinal to it.
 */
public enum ModuleType {
  FOOTER(0, "footer"),
  COLUMN_META_DATA(1, "column metadata"),
  DATA_PAGE(2, "data page"),
  DICTIONARY_PAGE(3, "dictionary page"),
  DATA_PAGE_HEADER(4, "data page header"),
  DICTIONARY_PAGE_HEADER(5, "dictionary page header"),
  COLUMN_INDEX(6, "column index"),
  OFFSET_INDEX(7, "offset index"),
  BLOOM_FILTER_HEADER(8, "bloom filter header"),
  BLOOM_FILTER_BITSET(9, "bloom filter bitset");

  final byte id;
  private final String text;

  ModuleType(int id, String text) {
    this.id = (byte) id;
    this.text = text;
  }

  boolean hasPageOrdinal() {
    return this == DATA_PAGE || this == DATA_PAGE_HEADER;
  }

  @Override
  public String toString() {
    return text;
  }
}
