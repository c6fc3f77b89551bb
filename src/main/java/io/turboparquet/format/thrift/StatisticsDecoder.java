package io.turboparquet.format.thrift;

import static io.turboparquet.format.thrift.ThriftCursor.BINARY;
import static io.turboparquet.format.thrift.ThriftCursor.DOUBLE;
import static io.turboparquet.format.thrift.ThriftCursor.I32;
import static io.turboparquet.format.thrift.ThriftCursor.I64;
import static io.turboparquet.format.thrift.ThriftCursor.LIST;
import static io.turboparquet.format.thrift.ThriftCursor.STRUCT;
import static io.turboparquet.format.thrift.ThriftCursor.boolField;
import static io.turboparquet.format.thrift.ThriftCursor.fieldId;
import static io.turboparquet.format.thrift.ThriftCursor.fieldType;
import static io.turboparquet.format.thrift.ThriftCursor.isBool;

import io.turboparquet.format.ColumnStatistics;
import io.turboparquet.format.GeospatialStatistics;
import io.turboparquet.format.ParquetCorruptionException;
import java.util.ArrayList;
import java.util.List;

/**
 * The Statistics struct (of a column chunk; page headers skip theirs). Bounds are checked where
 * they lie and copied once, packed into the model's one array.
 */
final class StatisticsDecoder {
  private StatisticsDecoder() {}

  static ColumnStatistics read(ThriftCursor r) throws ParquetCorruptionException {
    long max = -1;
    long min = -1;
    long nullCount = -1;
    long distinctCount = -1;
    long maxValue = -1;
    long minValue = -1;
    Boolean maxExact = null;
    Boolean minExact = null;
    long nanCount = -1;
    for (int f = r.readField(0); f >= 0; ) { // fields in id order, see ThriftCursor.skipField
      int at = r.position();
      if (f == (1 << 4 | BINARY)) {
        max = r.readSpan("Statistics.max");
        f = r.readField(1);
      }
      if (f == (2 << 4 | BINARY)) {
        min = r.readSpan("Statistics.min");
        f = r.readField(2);
      }
      if (f == (3 << 4 | I64)) {
        nullCount = r.readI64();
        r.nonNegative(nullCount, "Statistics.null_count");
        f = r.readField(3);
      }
      if (f == (4 << 4 | I64)) {
        distinctCount = r.readI64();
        r.nonNegative(distinctCount, "Statistics.distinct_count");
        f = r.readField(4);
      }
      if (f == (5 << 4 | BINARY)) {
        maxValue = r.readSpan("Statistics.max_value");
        f = r.readField(5);
      }
      if (f == (6 << 4 | BINARY)) {
        minValue = r.readSpan("Statistics.min_value");
        f = r.readField(6);
      }
      if (fieldId(f) == 7 && isBool(f)) {
        maxExact = boolField(f);
        f = r.readField(7);
      }
      if (fieldId(f) == 8 && isBool(f)) {
        minExact = boolField(f);
        f = r.readField(8);
      }
      if (f == (9 << 4 | I64)) {
        nanCount = r.readI64();
        r.nonNegative(nanCount, "Statistics.nan_count");
        f = r.readField(9);
      }
      f = r.position() == at ? r.skipField(f) : f;
    }
    return ColumnStatistics.of(r.bytes(), max, min, nullCount, distinctCount, maxValue, minValue, maxExact, minExact,
        nanCount);
  }

  /** The GeospatialStatistics struct of a GEOMETRY or GEOGRAPHY chunk. */
  static GeospatialStatistics readGeospatial(ThriftCursor r) throws ParquetCorruptionException {
    GeospatialStatistics.BoundingBox bbox = null;
    List<Integer> types = null;
    int last = 0;
    for (int f = r.readField(last); f >= 0; f = r.readField(last)) {
      last = fieldId(f);
      if (f == (1 << 4 | STRUCT)) {
        bbox = boundingBox(r);
      } else if (f == (2 << 4 | LIST)) {
        int n = r.readList("GeospatialStatistics.geospatial_types", I32);
        types = new ArrayList<>(Math.min(n, 64));
        for (int i = 0; i < n; i++) {
          types.add(r.readI32());
        }
      } else {
        r.skip(fieldType(f));
      }
    }
    return new GeospatialStatistics(bbox, types);
  }

  /** The box, or null when an X or Y bound is missing or NaN: no bound then says where values are not. */
  private static GeospatialStatistics.BoundingBox boundingBox(ThriftCursor r) throws ParquetCorruptionException {
    double[] v = {Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN};
    int last = 0;
    for (int f = r.readField(last); f >= 0; f = r.readField(last)) {
      last = fieldId(f);
      if (fieldType(f) == DOUBLE && last >= 1 && last <= 8) {
        v[last - 1] = r.readDouble();
      } else {
        r.skip(fieldType(f));
      }
    }
    for (int i = 0; i < 4; i++) {
      if (Double.isNaN(v[i])) {
        return null;
      }
    }
    if (v[2] > v[3]) { // only X wraps
      return null;
    }
    return new GeospatialStatistics.BoundingBox(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
  }
}
