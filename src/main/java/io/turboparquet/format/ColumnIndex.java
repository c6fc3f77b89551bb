package io.turboparquet.format;

import java.util.List;

/**
 * A column chunk's ColumnIndex (one entry per page), bytes uninterpreted.
 *
 * @param boundaryOrder Thrift id: 0 unordered, 1 ascending, 2 descending
 * @param nullCounts per page, or null when absent
 * @param repetitionLevelHistograms flattened per page, or null when absent
 * @param definitionLevelHistograms flattened per page, or null when absent
 * @param nanCounts per page (FLOAT, DOUBLE, FLOAT16), or null when absent: then any page may hold NaN
 */
public record ColumnIndex(boolean[] nullPages, List<byte[]> minValues, List<byte[]> maxValues, int boundaryOrder,
    long[] nullCounts, long[] repetitionLevelHistograms, long[] definitionLevelHistograms, long[] nanCounts) {

  public int pageCount() {
    return nullPages.length;
  }
}
