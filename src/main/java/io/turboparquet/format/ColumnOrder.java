package io.turboparquet.format;

/**
 * The order a leaf's statistics (chunk and page index bounds) are written in, from
 * {@code FileMetaData.column_orders}. A footer without that list declares {@link #TYPE_DEFINED}
 * for every leaf, as parquet-java reads it.
 */
public enum ColumnOrder {
  /** {@code TYPE_ORDER}: the order of the logical or physical type. */
  TYPE_DEFINED,
  /**
   * {@code IEEE_754_TOTAL_ORDER} (FLOAT, DOUBLE, FLOAT16): bounds are the smallest and largest
   * non-NaN values, or NaNs when every non-null value is NaN; {@code nan_count} says how many NaN.
   */
  IEEE_754_TOTAL,
  /** {@code INT96_TIMESTAMP_ORDER}: INT96 timestamps, chronologically. */
  INT96_TIMESTAMP,
  /** A member this reader does not know, or a list that does not fit the schema: bounds are ignored. */
  UNKNOWN;

  /**
   * Whether {@code column}'s bounds written in this order read as bounds in its type's own order,
   * NaN bounds aside: true for the type-defined order, and for IEEE 754 total order on FLOAT,
   * DOUBLE and FLOAT16 (its non-NaN bounds order numerically, -0.0 below +0.0, which a numeric comparison
   * only widens). Statistics under any other order are not used, nor any of GEOMETRY and GEOGRAPHY
   * columns, whose WKB values have no order whatever the footer declares.
   */
  public boolean boundsUsable(ColumnDescriptor column) {
    return !column.isGeospatial() && (this == TYPE_DEFINED || this == IEEE_754_TOTAL && column.isFloating());
  }
}
