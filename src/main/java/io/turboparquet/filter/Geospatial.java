package io.turboparquet.filter;

import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.GeospatialStatistics.BoundingBox;

/**
 * What a GEOMETRY or GEOGRAPHY chunk's bounding box says about {@code INTERSECTS BOX(...)}: a box
 * that shares no point with the query's holds no value with a point in it. X ranges wrap where
 * their min is above their max (the antimeridian; Geospatial.md).
 */
public final class Geospatial {
  /**
   * How far a GEOGRAPHY box is widened before it is trusted: writers compute its edges on the sphere,
   * and parquet-testing's files have vertices a rounding error outside their row group's box.
   */
  static final double GEOGRAPHY_MARGIN = 1e-9;

  private Geospatial() {}

  /** Whether values inside {@code box} (a chunk's) may have a point in {@code query}'s box. */
  public static boolean mayIntersect(Predicate.Intersects query, BoundingBox box, ColumnDescriptor column) {
    double margin = column.logicalType().startsWith("GEOGRAPHY") ? GEOGRAPHY_MARGIN : 0;
    if (box.ymax() + margin < query.ymin() || box.ymin() - margin > query.ymax()) {
      return false;
    }
    return overlaps(box.xmin() - margin, box.xmax() + margin, query.xmin(), query.xmax());
  }

  /** Whether two X ranges, each wrapping when its min is above its max, share a point. */
  public static boolean overlaps(double aMin, double aMax, double bMin, double bMax) {
    boolean aWraps = aMin > aMax;
    boolean bWraps = bMin > bMax;
    if (aWraps && bWraps) {
      return true; // both hold every X beyond their mins
    }
    if (aWraps) {
      return bMax >= aMin || bMin <= aMax;
    }
    if (bWraps) {
      return aMax >= bMin || aMin <= bMax;
    }
    return aMin <= bMax && bMin <= aMax;
  }
}
