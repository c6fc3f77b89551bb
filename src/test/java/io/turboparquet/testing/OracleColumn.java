package io.turboparquet.testing;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * Everything parquet-java's column reader returned for one leaf column: every level entry, in file order
 * (row groups in order). Made by {@link OracleDigest#read}.
 *
 * @param path          dotted column path
 * @param physicalType  parquet physical type name (BOOLEAN, INT32, ..., FIXED_LEN_BYTE_ARRAY)
 * @param maxRepetitionLevel the column's max repetition level
 * @param maxDefinitionLevel the column's max definition level
 * @param entries       one per level entry (for a flat column: one per row)
 */
public record OracleColumn(String path, String physicalType, int maxRepetitionLevel, int maxDefinitionLevel,
                           List<Entry> entries) {

  /**
   * One level entry. {@code value} is null unless {@code definitionLevel == maxDefinitionLevel}; otherwise a
   * Boolean, Integer, Long, Float, Double or byte[] (INT96, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY). Floats and doubles
   * are kept as returned by the column reader; compare them with {@link #sameValue} (raw bits).
   */
  public record Entry(int repetitionLevel, int definitionLevel, Object value) {

    /** True when levels are equal and values are equal bit for bit (floats by raw bits, byte[] by content). */
    public boolean sameAs(Entry other) {
      return repetitionLevel == other.repetitionLevel && definitionLevel == other.definitionLevel
          && sameValue(value, other.value);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Entry e && sameAs(e);
    }

    @Override
    public int hashCode() {
      return 31 * (31 * repetitionLevel + definitionLevel) + valueHash(value);
    }

    @Override
    public String toString() {
      return "(r=" + repetitionLevel + ", d=" + definitionLevel + ", " + format(value) + ")";
    }
  }

  public long nonNullCount() {
    return entries.stream().filter(e -> e.definitionLevel() == maxDefinitionLevel).count();
  }

  public long nullCount() {
    return entries.size() - nonNullCount();
  }

  /** Index of the first entry where {@code this} and {@code other} differ, -1 if none (a length difference counts). */
  public int firstDifference(List<Entry> other) {
    int n = Math.min(entries.size(), other.size());
    for (int i = 0; i < n; i++) {
      if (!entries.get(i).sameAs(other.get(i))) {
        return i;
      }
    }
    return entries.size() == other.size() ? -1 : n;
  }

  /** Human-readable description of the first difference with {@code other}, or null if equal. */
  public String describeDifference(List<Entry> other) {
    int i = firstDifference(other);
    if (i < 0) {
      return null;
    }
    String mine = i < entries.size() ? entries.get(i).toString() : "<end, " + entries.size() + " entries>";
    String theirs = i < other.size() ? other.get(i).toString() : "<end, " + other.size() + " entries>";
    return path + ": first difference at entry " + i + ": oracle " + mine + " vs " + theirs;
  }

  public static boolean sameValue(Object a, Object b) {
    if (a == null || b == null) {
      return a == b;
    }
    if (a instanceof Float fa && b instanceof Float fb) {
      return Float.floatToRawIntBits(fa) == Float.floatToRawIntBits(fb);
    }
    if (a instanceof Double da && b instanceof Double db) {
      return Double.doubleToRawLongBits(da) == Double.doubleToRawLongBits(db);
    }
    if (a instanceof byte[] ba && b instanceof byte[] bb) {
      return Arrays.equals(ba, bb);
    }
    return a.equals(b);
  }

  static int valueHash(Object v) {
    if (v == null) {
      return 0;
    }
    if (v instanceof Float f) {
      return Float.floatToRawIntBits(f);
    }
    if (v instanceof Double d) {
      return Long.hashCode(Double.doubleToRawLongBits(d));
    }
    if (v instanceof byte[] b) {
      return Arrays.hashCode(b);
    }
    return v.hashCode();
  }

  /** Value for messages: floats with their raw bits, byte arrays as hex plus UTF-8 when printable. */
  public static String format(Object v) {
    if (v == null) {
      return "null";
    }
    if (v instanceof Float f) {
      return f + " [0x" + Integer.toHexString(Float.floatToRawIntBits(f)) + "]";
    }
    if (v instanceof Double d) {
      return d + " [0x" + Long.toHexString(Double.doubleToRawLongBits(d)) + "]";
    }
    if (v instanceof byte[] b) {
      String hex = HexFormat.of().formatHex(b, 0, Math.min(b.length, 64)) + (b.length > 64 ? "..." : "");
      String s = new String(b, java.nio.charset.StandardCharsets.UTF_8);
      boolean printable = s.chars().allMatch(c -> c >= 0x20 && c != 0xFFFD);
      return "bytes[" + b.length + "]=" + hex + (printable ? " \"" + (s.length() > 64 ? s.substring(0, 64) + "..." : s) + "\"" : "");
    }
    return v.toString();
  }
}
