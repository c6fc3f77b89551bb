package io.turboparquet.format;

/**
 * A column chunk's OffsetIndex: where each page is and its first row.
 *
 * @param unencodedByteArrayDataBytes per page, or null when absent
 */
public record OffsetIndex(long[] offsets, int[] compressedPageSizes, long[] firstRowIndexes,
    long[] unencodedByteArrayDataBytes) {

  public int pageCount() {
    return offsets.length;
  }
}
