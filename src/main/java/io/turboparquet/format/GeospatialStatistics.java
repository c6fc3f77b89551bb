package io.turboparquet.format;

import java.util.List;

/**
 * A GEOMETRY or GEOGRAPHY chunk's {@code GeospatialStatistics} (Geospatial.md).
 *
 * @param bbox the chunk's bounding box, or null when the writer gave none or gave one with a NaN
 *     X or Y bound (the spec forbids those; a reader that used one could drop rows)
 * @param types the WKB geometry type codes present (1 point ... 7 collection, +1000 Z, +2000 M,
 *     +3000 ZM), empty when the writer did not know them, null when absent
 */
public record GeospatialStatistics(BoundingBox bbox, List<Integer> types) {

  public GeospatialStatistics {
    types = types == null ? null : List.copyOf(types);
  }

  /**
   * Bounds of every coordinate of the chunk's values. X (longitude or easting) may wrap: where
   * {@code xmin > xmax} the box spans the antimeridian and holds {@code x >= xmin || x <= xmax}.
   * Z and M are NaN where the writer omitted them.
   */
  public record BoundingBox(double xmin, double xmax, double ymin, double ymax, double zmin, double zmax, double mmin,
      double mmax) {

    /** Whether X wraps around the antimeridian. */
    public boolean wraps() {
      return xmin > xmax;
    }
  }
}
