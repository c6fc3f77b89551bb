package io.turboparquet.format;

/** Parquet page types, by Thrift id. */
public enum PageType {
  DATA_PAGE, INDEX_PAGE, DICTIONARY_PAGE, DATA_PAGE_V2, UNKNOWN;

  public static PageType fromThriftId(int id) {
    return switch (id) {
      case 0 -> DATA_PAGE;
      case 1 -> INDEX_PAGE;
      case 2 -> DICTIONARY_PAGE;
      case 3 -> DATA_PAGE_V2;
      default -> UNKNOWN; // future page types are skipped, not fatal
    };
  }
}
