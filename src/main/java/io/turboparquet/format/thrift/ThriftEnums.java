package io.turboparquet.format.thrift;

import io.turboparquet.format.Encoding;

/** Thrift enum ids to our enums by table lookup (Encoding.fromThriftId scans and allocates). */
final class ThriftEnums {
  private static final Encoding[] ENCODINGS = new Encoding[16];

  static {
    for (Encoding e : Encoding.values()) {
      ENCODINGS[e.thriftId()] = e;
    }
  }

  /** parquet.thrift's ConvertedType names by id. */
  private static final String[] CONVERTED = {"UTF8", "MAP", "MAP_KEY_VALUE", "LIST", "ENUM", "DECIMAL", "DATE",
      "TIME_MILLIS", "TIME_MICROS", "TIMESTAMP_MILLIS", "TIMESTAMP_MICROS", "UINT_8", "UINT_16", "UINT_32", "UINT_64",
      "INT_8", "INT_16", "INT_32", "INT_64", "JSON", "BSON", "INTERVAL"};

  /** parquet.thrift's EdgeInterpolationAlgorithm names by id. */
  private static final String[] EDGE_ALGORITHMS = {"SPHERICAL", "VINCENTY", "THOMAS", "ANDOYER", "KARNEY"};

  private ThriftEnums() {}

  /** The encoding with this id, or null for one from the future. */
  static Encoding encoding(int id) {
    return id >= 0 && id < ENCODINGS.length ? ENCODINGS[id] : null;
  }

  /** The converted type's name, or null for an id from the future. */
  static String convertedType(int id) {
    return id >= 0 && id < CONVERTED.length ? CONVERTED[id] : null;
  }

  /** An EdgeInterpolationAlgorithm's name; an id from the future is named by its number. */
  static String edgeAlgorithm(int id) {
    return id >= 0 && id < EDGE_ALGORITHMS.length ? EDGE_ALGORITHMS[id] : "ALGORITHM_" + id;
  }
}
