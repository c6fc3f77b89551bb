package io.turboparquet.format.thrift;

import static io.turboparquet.format.thrift.ThriftCursor.BINARY;
import static io.turboparquet.format.thrift.ThriftCursor.BOOLEAN_TRUE;
import static io.turboparquet.format.thrift.ThriftCursor.I64;
import static io.turboparquet.format.thrift.ThriftCursor.boolField;
import static io.turboparquet.format.thrift.ThriftCursor.fieldId;
import static io.turboparquet.format.thrift.ThriftCursor.fieldType;

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
    int last = 0;
    for (int f = r.readField(last); f >= 0; f = r.readField(last)) {
      last = fieldId(f);
      switch (last) {
        case 1 -> max = r.is(f, BINARY) ? r.readSpan("Statistics.max") : max;
        case 2 -> min = r.is(f, BINARY) ? r.readSpan("Statistics.min") : min;
        case 3 -> {
          if (r.is(f, I64)) {
            nullCount = r.readI64();
            r.nonNegative(nullCount, "Statistics.null_count");
          }
        }
        case 4 -> {
          if (r.is(f, I64)) {
            distinctCount = r.readI64();
            r.nonNegative(distinctCount, "Statistics.distinct_count");
          }
        }
        case 5 -> maxValue = r.is(f, BINARY) ? r.readSpan("Statistics.max_value") : maxValue;
        case 6 -> minValue = r.is(f, BINARY) ? r.readSpan("Statistics.min_value") : minValue;
        case 7 -> {
          if (r.is(f, BOOLEAN_TRUE)) {
            maxExact = boolField(f);
          }
        }
        case 8 -> {
          if (r.is(f, BOOLEAN_TRUE)) {
            minExact = boolField(f);
          }
        }
        default -> r.skip(fieldType(f));
      }
    }
    return ColumnStatistics.of(r.bytes(), max, min, nullCount, distinctCount, maxValue, minValue, maxExact, minExact);
  }
}
