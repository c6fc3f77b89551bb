package io.turboparquet.format;

import java.util.List;

/**
 * One leaf column of a file's schema: where it sits (path, levels) and what it stores.
 *
 * @param index position among the schema's leaves, which is also its position in every row group
 * @param path field names from the root's child down to the leaf
 * @param physicalType stored type
 * @param typeLength bytes per value of a FIXED_LEN_BYTE_ARRAY, else 0
 * @param repetition the leaf's own repetition
 * @param maxDefinitionLevel highest definition level (0: never null)
 * @param maxRepetitionLevel highest repetition level (0: not under a repeated field)
 * @param logicalType the logical annotation as text ("STRING", "DECIMAL(9,2)", ...), or null
 */
public record ColumnDescriptor(
    int index,
    List<String> path,
    PhysicalType physicalType,
    int typeLength,
    Repetition repetition,
    int maxDefinitionLevel,
    int maxRepetitionLevel,
    String logicalType) {

  public ColumnDescriptor {
    path = List.copyOf(path);
  }

  /** The dotted path, e.g. {@code a.list.element}. */
  public String dottedPath() {
    return String.join(".", path);
  }

  /** Bytes per decoded value (BOOLEAN: 1), or -1 for BYTE_ARRAY. */
  public int valueWidth() {
    return physicalType == PhysicalType.FIXED_LEN_BYTE_ARRAY ? typeLength : physicalType.fixedWidth();
  }

  public boolean isFlat() {
    return maxRepetitionLevel == 0;
  }

  public boolean isRequired() {
    return maxDefinitionLevel == 0;
  }

  /** FLOAT16 (two bytes, IEEE 754 half precision): floating point, as FLOAT and DOUBLE. */
  public boolean isFloat16() {
    return "FLOAT16".equals(logicalType) && physicalType == PhysicalType.FIXED_LEN_BYTE_ARRAY && typeLength == 2;
  }

  /** FLOAT, DOUBLE or FLOAT16: values that may be NaN, whose statistics may carry {@code nan_count}. */
  public boolean isFloating() {
    return physicalType == PhysicalType.FLOAT || physicalType == PhysicalType.DOUBLE || isFloat16();
  }

  /** GEOMETRY or GEOGRAPHY: WKB values, ordered by nothing (Geospatial.md). */
  public boolean isGeospatial() {
    return logicalType != null && (logicalType.startsWith("GEOMETRY") || logicalType.startsWith("GEOGRAPHY"));
  }
}
