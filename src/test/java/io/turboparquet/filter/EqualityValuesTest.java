package io.turboparquet.filter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.format.Repetition;
import io.turboparquet.format.Schema;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The stored forms of equality literals, type by type, and where there are none or they cannot be listed. */
class EqualityValuesTest {
  static final List<ColumnDescriptor> COLUMNS = List.of(
      col(0, "i", PhysicalType.INT32, 0, null),
      col(1, "l", PhysicalType.INT64, 0, null),
      col(2, "d", PhysicalType.DOUBLE, 0, null),
      col(3, "f", PhysicalType.FLOAT, 0, null),
      col(4, "s", PhysicalType.BYTE_ARRAY, 0, "STRING"),
      col(5, "fixed", PhysicalType.FIXED_LEN_BYTE_ARRAY, 3, null),
      col(6, "dec", PhysicalType.FIXED_LEN_BYTE_ARRAY, 4, "DECIMAL(9,2)"),
      col(7, "idec", PhysicalType.INT32, 0, "DECIMAL(9,2)"),
      col(8, "bdec", PhysicalType.BYTE_ARRAY, 0, "DECIMAL(9,2)"),
      col(9, "b", PhysicalType.BOOLEAN, 0, null),
      col(10, "day", PhysicalType.INT32, 0, "DATE"),
      col(11, "u", PhysicalType.INT32, 0, "INTEGER(32,false)"),
      col(12, "t", PhysicalType.INT96, 0, null),
      col(13, "h", PhysicalType.FIXED_LEN_BYTE_ARRAY, 2, "FLOAT16"));
  static final Schema SCHEMA = new Schema(null, COLUMNS);

  static ColumnDescriptor col(int i, String name, PhysicalType t, int len, String logical) {
    return new ColumnDescriptor(i, List.of(name), t, len, Repetition.OPTIONAL, 1, 0, logical);
  }

  static List<String> hex(String filter) {
    List<byte[]> v = EqualityValues.plainEncoded((Filter.Leaf) Filter.bind(Predicate.parse(filter), SCHEMA).root());
    return v == null ? null : v.stream().map(b -> HexFormat.of().formatHex(b)).toList();
  }

  @Test
  void integersAreLittleEndianWhenTheyFit() {
    assertEquals(List.of("07000000"), hex("i = 7"));
    assertEquals(List.of("ffffffff"), hex("i = -1"));
    assertEquals(List.of("07000000"), hex("i = 7.000"));
    assertEquals(List.of(), hex("i = 7.5"));
    assertEquals(List.of(), hex("i = 2147483648"));
    assertEquals(List.of("00000080"), hex("i = -2147483648"));
    assertEquals(List.of(), hex("i = 1e999999999"));
    assertEquals(List.of(), hex("i = 1e-999999999"));
    assertEquals(List.of(), hex("i = 1e2147483647"));
    assertEquals(List.of("00000000"), hex("i = 0e2147483647"));
    assertEquals(List.of("0100000000000000", "0200000000000000"), hex("l IN (1, 2)"));
    assertEquals(List.of("ffffffffffffff7f"), hex("l = 9223372036854775807"));
    assertEquals(List.of(), hex("l = 9223372036854775808"));
    assertEquals(List.of("01000000"), hex("day = DATE '1970-01-02'"));
  }

  @Test
  void decimalsAreTheirUnscaledIntegers() {
    assertEquals(List.of("e7030000"), hex("idec = 9.99"));
    assertEquals(List.of(), hex("idec = 9.999"));
    assertEquals(List.of("000003e7"), hex("dec = 9.99"));
    assertEquals(List.of("fffffc19"), hex("dec = -9.99"));
    assertEquals(List.of(), hex("dec = 99999999999"));
    assertEquals(List.of("7fffffff"), hex("dec = 21474836.47"));
    assertEquals(List.of(), hex("dec = 21474836.48"));
    assertEquals(List.of("80000000"), hex("dec = -21474836.48"));
    assertEquals(List.of(), hex("dec = -21474836.49"));
    // Exponents beyond what a scale can move (movePointRight used to throw ArithmeticException).
    assertEquals(List.of(), hex("idec = 1e2147483647"));
    assertEquals(List.of(), hex("dec = 1e2147483647"));
    assertEquals(List.of(), hex("dec = -1e999999999"));
    assertEquals(List.of(), hex("idec = 1e-999999999"));
    assertNull(hex("bdec = 9.99"), "a BYTE_ARRAY decimal has many spellings");
  }

  @Test
  void floatingZerosBothAndOnlyExactFloats() {
    assertEquals(List.of("0000000000000000", "0000000000000080"), hex("d = 0"));
    assertEquals(List.of("0000000000000080", "0000000000000000"), hex("d = -0.0"));
    assertEquals(List.of("000000000000f83f"), hex("d = 1.5"));
    assertEquals(List.of("0000c03f"), hex("f = 1.5"));
    assertEquals(List.of(), hex("f = 0.1"), "no FLOAT equals the double 0.1");
    assertEquals(List.of(), hex("f = 1e300"));
    assertEquals(List.of("00000000", "00000080"), hex("f = 0"));
  }

  @Test
  void bytesAsTheyAre() {
    assertEquals(List.of("616263"), hex("s = 'abc'"));
    assertEquals(List.of(""), hex("s = ''"));
    assertEquals(List.of("616263"), hex("fixed = 'abc'"));
    assertEquals(List.of(), hex("fixed = 'abcd'"));
    assertArrayEquals(new byte[] {(byte) 0xc3, (byte) 0xa9},
        EqualityValues.plainEncoded((Filter.Leaf) Filter.bind(Predicate.parse("s = 'é'"), SCHEMA).root()).get(0));
  }

  @Test
  void unsignedIntegersAndHalfFloatsAsStored() {
    assertEquals(List.of("05000000"), hex("u = 5"));
    assertEquals(List.of("ffffffff"), hex("u = 4294967295"), "2^32 - 1 is stored as -1");
    assertEquals(List.of(), hex("u = -1"), "no unsigned value is negative");
    assertEquals(List.of(), hex("u = 4294967296"));
    assertEquals(List.of("003e"), hex("h = 1.5"), "half-precision 1.5, little-endian");
    assertEquals(List.of("0000", "0080"), hex("h = 0"), "both zeros");
    assertEquals(List.of(), hex("h = 0.1"), "no half is 0.1");
  }

  @Test
  void whatCannotBeListed() {
    assertNull(hex("b = TRUE"));
    assertNull(hex("t = 'x'"));
    assertNull(hex("i > 5"));
    assertNull(hex("i <> 5"));
    assertNull(hex("i IS NULL"));
  }
}
