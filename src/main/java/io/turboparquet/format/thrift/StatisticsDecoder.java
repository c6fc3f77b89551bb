package io.turboparquet.format.thrift;

import static io.turboparquet.format.thrift.ThriftCursor.BINARY;
import static io.turboparquet.format.thrift.ThriftCursor.I64;
import static io.turboparquet.format.thrift.ThriftCursor.boolField;
import static io.turboparquet.format.thrift.ThriftCursor.fieldId;
import static io.turboparquet.format.thrift.ThriftCursor.isBool;

import io.turboparquet.format.ColumnStatistics;
import io.turboparquet.format.ParquetCorruptionException;

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
}
