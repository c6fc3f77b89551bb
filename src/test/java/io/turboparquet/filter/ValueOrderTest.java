package io.turboparquet.filter;

import io.turboparquet.decode.HalfFloat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.format.Repetition;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The one home of literal comparison: the stored form of a literal ({@link ValueOrder#stored}, what
 * late materialization and dictionaries / bloom filters compare with) orders every stored value as
 * the decoded value ({@link ValueOrder#decode} and {@link ValueOrder#compare}, what page index bounds
 * are compared with) does, type by type; and the cases only one of the two used to cover: unsigned
 * 64-bit values above 2<sup>63</sup> (stored as negative longs), decimal literals with more scale
 * than the column, decimals stored as bytes, NaN and -0.0, FLOAT16, and literals whose exponent is huge.
 */
class ValueOrderTest {
  static ColumnDescriptor col(PhysicalType t, int len, String logical) {
    return new ColumnDescriptor(0, List.of("c"), t, len, Repetition.OPTIONAL, 1, 0, logical);
  }

  static ValueOrder order(PhysicalType t, int len, String logical) {
    ValueOrder order = ValueOrder.forValues(col(t, len, logical));
    assertNotNull(order, t + " " + logical);
    return order;
  }

  static Object number(ValueOrder order, String text) {
    return order.literal(new Literal(Literal.Kind.NUMBER, text));
  }

  static byte[] le(long v, int width) {
    byte[] b = new byte[width];
    for (int i = 0; i < width; i++) {
      b[i] = (byte) (v >>> (8 * i));
    }
    return b;
  }

  /** The sign of stored - literal, by the literal's stored form, for a value as its statistics bytes. */
  static int storedCompare(ValueOrder order, PhysicalType type, byte[] stat, Object literal) {
    ValueOrder.Stored stored = order.stored(literal);
    ByteBuffer le = ByteBuffer.wrap(stat).order(ByteOrder.LITTLE_ENDIAN);
    if (stored instanceof ValueOrder.IntegerLiteral i) {
      long x = switch (type) {
        case BOOLEAN -> stat[0];
        case INT32 -> i.unsigned() ? le.getInt() & 0xFFFF_FFFFL : le.getInt();
        default -> le.getLong();
      };
      return i.compareWith(x);
    }
    if (stored instanceof ValueOrder.FloatingLiteral f) {
      double x = f.width() == 2 ? HalfFloat.toFloat(le.getShort())
          : f.width() == 4 ? le.getFloat() : le.getDouble();
      return f.compareWith(x);
    }
    if (stored instanceof ValueOrder.TwosComplementLiteral t) {
      return t.compareWith(ByteBuffer.wrap(stat), 0, stat.length);
    }
    return ((ValueOrder.BytesLiteral) stored).compareWith(ByteBuffer.wrap(stat), 0, stat.length);
  }

  static void assertBothPathsAgree(ValueOrder order, PhysicalType type, byte[] stat, Object literal,
      java.util.function.Supplier<String> what) {
    int byStats = Integer.signum(order.compare(order.decode(stat), literal));
    int byStoredForm = storedCompare(order, type, stat, literal);
    if (byStats != byStoredForm) {
      assertEquals(byStats, byStoredForm, what.get());
    }
  }

  @Test
  void unsigned64BitValuesAboveTwoTo63AreStoredAsNegativeLongs() {
    ValueOrder u64 = order(PhysicalType.INT64, 0, "INTEGER(64,false)");
    assertTrue(u64.unsigned());
    ValueOrder.IntegerLiteral max = (ValueOrder.IntegerLiteral) u64.stored(number(u64, "18446744073709551615"));
    assertEquals(new ValueOrder.IntegerLiteral(8, true, -1L, true, 0), max);
    assertEquals(0, max.compareWith(-1L));
    assertEquals(-1, max.compareWith(Long.MIN_VALUE), "2^63 < 2^64 - 1");
    assertEquals(-1, max.compareWith(5));
    ValueOrder.IntegerLiteral twoTo63 = (ValueOrder.IntegerLiteral) u64.stored(number(u64, "9223372036854775808"));
    assertEquals(0, twoTo63.compareWith(Long.MIN_VALUE));
    assertEquals(1, twoTo63.compareWith(-1L), "stored -1 is 2^64 - 1");
    assertEquals(-1, twoTo63.compareWith(Long.MAX_VALUE));
    assertEquals(1, ((ValueOrder.IntegerLiteral) u64.stored(number(u64, "-1"))).compareWith(0), "below every value");
    assertEquals(-1, ((ValueOrder.IntegerLiteral) u64.stored(number(u64, "18446744073709551616"))).compareWith(-1L));
    ValueOrder.IntegerLiteral half = (ValueOrder.IntegerLiteral) u64.stored(number(u64, "9223372036854775808.5"));
    assertEquals(-1, half.compareWith(Long.MIN_VALUE));
    assertEquals(1, half.compareWith(Long.MIN_VALUE + 1));
    assertFalse(half.isStoredValue());
    assertEquals(new BigDecimal("18446744073709551615"), u64.decode(le(-1L, 8)));
    ValueOrder u32 = order(PhysicalType.INT32, 0, "UINT_32");
    assertEquals(new BigDecimal("4294967295"), u32.decode(le(-1, 4)));
    ValueOrder.IntegerLiteral u32Max = (ValueOrder.IntegerLiteral) u32.stored(number(u32, "4294967295"));
    assertTrue(u32Max.isStoredValue());
    assertEquals(0, u32Max.compareWith(-1 & 0xFFFF_FFFFL));
    assertFalse(((ValueOrder.IntegerLiteral) u32.stored(number(u32, "4294967296"))).isStoredValue());
    // The signed order of the same bits, for contrast.
    ValueOrder i64 = order(PhysicalType.INT64, 0, null);
    assertEquals(1, ((ValueOrder.IntegerLiteral) i64.stored(number(i64, "9223372036854775808"))).outside());
  }

  @Test
  void filtersOrderUnsignedIntegersAndFloat16ButNotWkbInt96OrIntervals() {
    for (String logical : List.of("UINT_8", "UINT_16", "UINT_32", "INTEGER(32,false)")) {
      assertTrue(ValueOrder.of(col(PhysicalType.INT32, 0, logical)).unsigned(), logical);
    }
    assertTrue(ValueOrder.of(col(PhysicalType.INT64, 0, "UINT_64")).unsigned());
    assertTrue(ValueOrder.of(col(PhysicalType.FIXED_LEN_BYTE_ARRAY, 2, "FLOAT16")).mayHideNaN());
    assertNull(ValueOrder.forValues(col(PhysicalType.FIXED_LEN_BYTE_ARRAY, 3, "FLOAT16")));
    assertNull(ValueOrder.forValues(col(PhysicalType.INT96, 0, null)));
    assertNull(ValueOrder.forValues(col(PhysicalType.FIXED_LEN_BYTE_ARRAY, 12, "INTERVAL")));
    assertNull(ValueOrder.of(col(PhysicalType.BYTE_ARRAY, 0, "GEOMETRY")));
    assertNotNull(ValueOrder.forValues(col(PhysicalType.BYTE_ARRAY, 0, "GEOMETRY")), "WKB as bytes, for head");
    assertFalse(ValueOrder.of(col(PhysicalType.INT32, 0, "INTEGER(8,true)")).unsigned());
  }

  @Test
  void decimalLiteralsWithMoreScaleThanTheColumnFallBetweenStoredValues() {
    ValueOrder i32 = order(PhysicalType.INT32, 0, "DECIMAL(9,2)");
    ValueOrder.IntegerLiteral l = (ValueOrder.IntegerLiteral) i32.stored(number(i32, "1.005"));
    assertEquals(new ValueOrder.IntegerLiteral(4, false, 100, false, 0), l);
    assertEquals(-1, l.compareWith(100), "1.00 < 1.005");
    assertEquals(1, l.compareWith(101));
    ValueOrder.IntegerLiteral negative = (ValueOrder.IntegerLiteral) i32.stored(number(i32, "-1.005"));
    assertEquals(-101, negative.floor(), "the floor, not the truncation");
    assertEquals(1, negative.compareWith(-100));
    assertEquals(-1, negative.compareWith(-101));
    assertTrue(((ValueOrder.IntegerLiteral) i32.stored(number(i32, "1.0000"))).isStoredValue());

    ValueOrder fixed = order(PhysicalType.FIXED_LEN_BYTE_ARRAY, 3, "DECIMAL(5,2)");
    ValueOrder.TwosComplementLiteral t = (ValueOrder.TwosComplementLiteral) fixed.stored(number(fixed, "-1.005"));
    assertArrayEquals(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0x9b}, t.floor());
    assertFalse(t.exact());
    assertEquals(1, t.compareWith(ByteBuffer.wrap(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0x9c}), 0, 3));
    assertEquals(-1, t.compareWith(ByteBuffer.wrap(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0x9b}), 0, 3));
    assertEquals(1, ((ValueOrder.TwosComplementLiteral) fixed.stored(number(fixed, "83886.08"))).outside(),
        "2^23 hundredths do not fit 3 bytes");
    assertEquals(0, ((ValueOrder.TwosComplementLiteral) fixed.stored(number(fixed, "83886.07"))).outside());
    assertEquals(-1, ((ValueOrder.TwosComplementLiteral) fixed.stored(number(fixed, "-83886.085"))).outside());

    ValueOrder binary = order(PhysicalType.BYTE_ARRAY, 0, "DECIMAL(4,2)");
    ValueOrder.TwosComplementLiteral b = (ValueOrder.TwosComplementLiteral) binary.stored(number(binary, "0.015"));
    assertArrayEquals(new byte[] {1}, b.floor());
    // One value, many spellings: 1 as 01, 00 01, 00 00 01.
    for (byte[] one : List.of(new byte[] {1}, new byte[] {0, 1}, new byte[] {0, 0, 1})) {
      assertEquals(-1, b.compareWith(ByteBuffer.wrap(one), 0, one.length));
    }
    assertEquals(1, ((ValueOrder.TwosComplementLiteral) binary.stored(number(binary, "100"))).outside(),
        "beyond DECIMAL(4,2)");
    assertNull(ValueOrder.forValues(col(PhysicalType.BYTE_ARRAY, 0, "DECIMAL(0,2)")).stored(BigDecimal.ONE),
        "no precision, no bound");
  }

  @Test
  @Timeout(10)
  void literalsWithHugeExponentsAreComparedNotExpanded() {
    for (ValueOrder order : List.of(order(PhysicalType.INT64, 0, null), order(PhysicalType.INT32, 0, "DECIMAL(9,2)"),
        order(PhysicalType.FIXED_LEN_BYTE_ARRAY, 16, "DECIMAL(38,4)"), order(PhysicalType.BYTE_ARRAY, 0,
            "DECIMAL(38,4)"))) {
      for (String text : List.of("1e999999999", "-1e999999999", "1e2147483647", "-1e2147483647")) {
        ValueOrder.Stored s = order.stored(number(order, text));
        int outside = s instanceof ValueOrder.IntegerLiteral i ? i.outside() : ((ValueOrder.TwosComplementLiteral) s).outside();
        assertEquals(text.startsWith("-") ? -1 : 1, outside, order + " " + text);
      }
      for (String text : List.of("1e-999999999", "-1e-999999999", "1e-2147483647", "0e2147483647", "0e-2147483647")) {
        ValueOrder.Stored s = order.stored(number(order, text));
        byte[] zero = order instanceof ValueOrder.Numeric && s instanceof ValueOrder.TwosComplementLiteral t
            ? new byte[Math.max(t.width(), 1)] : new byte[8];
        int vsZero = s instanceof ValueOrder.IntegerLiteral i ? i.compareWith(0)
            : ((ValueOrder.TwosComplementLiteral) s).compareWith(ByteBuffer.wrap(zero), 0, zero.length);
        assertEquals(-new BigDecimal(text).signum(), vsZero, order + " " + text);
      }
    }
  }

  @Test
  void nanIsAboveEveryNumberAndNegativeZeroEqualsZero() {
    assertEquals(0, ValueOrder.compareDoubles(-0.0, 0.0));
    assertEquals(0, ValueOrder.compareDoubles(Double.NaN, Double.NaN));
    assertEquals(1, ValueOrder.compareDoubles(Double.NaN, Double.POSITIVE_INFINITY));
    assertEquals(-1, ValueOrder.compareDoubles(Double.POSITIVE_INFINITY, Double.NaN));
    assertEquals(-1, ValueOrder.compareDoubles(-1e308, 0));
    ValueOrder dbl = order(PhysicalType.DOUBLE, 0, null);
    assertEquals(0, dbl.compare(-0.0, 0.0));
    ValueOrder.FloatingLiteral zero = (ValueOrder.FloatingLiteral) dbl.stored(number(dbl, "-0.0"));
    assertEquals(0, zero.compareWith(0.0));
    assertEquals(0, zero.compareWith(-0.0));
    assertEquals(1, zero.compareWith(Double.NaN));
    ValueOrder.FloatingLiteral nan = (ValueOrder.FloatingLiteral) dbl.stored(number(dbl, "NaN"));
    assertEquals(0, nan.compareWith(Double.NaN));
    assertEquals(-1, nan.compareWith(Double.POSITIVE_INFINITY));
    assertTrue(dbl.isNaN(number(dbl, "NaN")));
    ValueOrder flt = order(PhysicalType.FLOAT, 0, null);
    assertTrue(((ValueOrder.FloatingLiteral) flt.stored(number(flt, "1.5"))).isStoredValue());
    assertFalse(((ValueOrder.FloatingLiteral) flt.stored(number(flt, "0.1"))).isStoredValue());
    assertEquals(1, ((ValueOrder.FloatingLiteral) flt.stored(number(flt, "0.1"))).compareWith(0.1f),
        "the FLOAT nearest 0.1 is above the double 0.1");
  }

  @Test
  void float16WidensExactly() {
    ValueOrder half = order(PhysicalType.FIXED_LEN_BYTE_ARRAY, 2, "FLOAT16");
    assertEquals(1.0, half.decode(le(0x3C00, 2)));
    assertEquals(-0.0, half.decode(le(0x8000, 2)));
    assertEquals(65504.0, half.decode(le(0x7BFF, 2)));
    assertEquals(0x1p-24, half.decode(le(0x0001, 2)));
    assertEquals(0x1p-14, half.decode(le(0x0400, 2)));
    assertEquals(Double.NEGATIVE_INFINITY, half.decode(le(0xFC00, 2)));
    assertTrue(half.isNaN(half.decode(le(0x7E00, 2))));
    assertNull(half.decode(le(0, 4)));
    assertEquals(0, half.compare(half.decode(le(0x8000, 2)), number(half, "0")));
    assertTrue(((ValueOrder.FloatingLiteral) half.stored(number(half, "65504"))).isStoredValue());
    assertFalse(((ValueOrder.FloatingLiteral) half.stored(number(half, "65505"))).isStoredValue());
    assertFalse(((ValueOrder.FloatingLiteral) half.stored(number(half, "0.1"))).isStoredValue());
    assertTrue(((ValueOrder.FloatingLiteral) half.stored(number(half, "5.9604644775390625E-8"))).isStoredValue());
    for (int bits = 0; bits < 0x10000; bits++) {
      double d = HalfFloat.toFloat((short) bits);
      if (!Double.isNaN(d)) {
        assertEquals((short) bits, HalfFloat.nearest(d), Integer.toHexString(bits));
      }
    }
  }

  @Test
  void bytesCompareUnsigned() {
    ValueOrder s = order(PhysicalType.BYTE_ARRAY, 0, "STRING");
    ValueOrder.BytesLiteral e = (ValueOrder.BytesLiteral) s.stored(s.literal(new Literal(Literal.Kind.STRING, "é")));
    assertEquals(-1, e.compareWith(ByteBuffer.wrap(new byte[] {'z'}), 0, 1), "0xC3 is above 'z' unsigned");
    assertEquals(1, e.compareWith(ByteBuffer.wrap(new byte[] {(byte) 0xC3, (byte) 0xA9, 0}), 0, 3), "a longer value");
    assertEquals(0, e.compareWith(ByteBuffer.wrap(new byte[] {0, (byte) 0xC3, (byte) 0xA9}), 1, 2));
  }

  /**
   * For every type, random stored values against random literals (between values, on them, beyond
   * the type, with more scale than the column): the stored form orders a value as its decoded
   * statistics value does.
   */
  @Test
  void theStoredFormOrdersEveryValueAsTheDecodedValueDoes() {
    SplittableRandom random = new SplittableRandom(33);
    record Type(PhysicalType physical, int length, String logical) {}
    List<Type> types = List.of(new Type(PhysicalType.INT32, 0, null), new Type(PhysicalType.INT64, 0, null),
        new Type(PhysicalType.INT32, 0, "DECIMAL(9,2)"), new Type(PhysicalType.INT64, 0, "DECIMAL(18,3)"),
        new Type(PhysicalType.FIXED_LEN_BYTE_ARRAY, 3, "DECIMAL(6,2)"),
        new Type(PhysicalType.FIXED_LEN_BYTE_ARRAY, 9, "DECIMAL(20,4)"),
        new Type(PhysicalType.BYTE_ARRAY, 0, "DECIMAL(6,2)"), new Type(PhysicalType.INT32, 0, "UINT_32"),
        new Type(PhysicalType.INT32, 0, "UINT_8"), new Type(PhysicalType.INT64, 0, "UINT_64"),
        new Type(PhysicalType.INT32, 0, "DATE"), new Type(PhysicalType.INT64, 0, "TIMESTAMP(MILLIS,true)"),
        new Type(PhysicalType.BOOLEAN, 0, null), new Type(PhysicalType.FLOAT, 0, null),
        new Type(PhysicalType.DOUBLE, 0, null), new Type(PhysicalType.FIXED_LEN_BYTE_ARRAY, 2, "FLOAT16"),
        new Type(PhysicalType.BYTE_ARRAY, 0, "STRING"));
    int checked = 0;
    for (Type type : types) {
      ValueOrder order = order(type.physical(), type.length(), type.logical());
      List<byte[]> values = new ArrayList<>();
      List<String> literals = new ArrayList<>(List.of("0", "-0", "1", "-1", "0.5", "-0.5", "0.001", "-0.015", "127",
          "128", "255", "256", "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296",
          "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
          "18446744073709551615", "18446744073709551616", "1e30", "-1e30", "1.5", "65504", "NaN", "Infinity",
          "-Infinity", "0.1", "9999.99", "10000", "-9999.995"));
      for (int i = 0; i < 120; i++) {
        long x = random.nextBoolean() ? random.nextLong() : random.nextLong(-300, 300);
        values.add(switch (type.physical()) {
          case BOOLEAN -> new byte[] {(byte) (x & 1)};
          case INT32 -> le(type.logical() != null && type.logical().equals("UINT_8") ? x & 0xFF : x, 4);
          case INT64, DOUBLE -> le(type.physical() == PhysicalType.DOUBLE
              ? Double.doubleToRawLongBits(random.nextInt(10) == 0 ? Double.NaN : x / 7.0) : x, 8);
          case FLOAT -> le(Float.floatToRawIntBits(random.nextInt(10) == 0 ? -0.0f : x / 7.0f), 4);
          case FIXED_LEN_BYTE_ARRAY -> type.length() == 2 ? le(x, 2) : twos(BigInteger.valueOf(x), type.length());
          default -> type.logical().equals("STRING") ? BigInteger.valueOf(x).toByteArray()
              : twos(BigInteger.valueOf(x % 1_000_000), 1 + random.nextInt(4)); // DECIMAL(6,2): many spellings
        });
        literals.add(BigDecimal.valueOf(x, random.nextInt(0, 5)).toPlainString());
      }
      for (String text : literals) {
        Object literal;
        try {
          literal = order instanceof ValueOrder.Bytes ? order.literal(new Literal(Literal.Kind.STRING, text))
              : "DATE".equals(type.logical()) ? order.literal(new Literal(Literal.Kind.DATE,
                  java.time.LocalDate.ofEpochDay(Long.parseLong(text) % 1_000_000).toString()))
              : type.physical() == PhysicalType.BOOLEAN
              ? order.literal(new Literal(Literal.Kind.BOOLEAN, text.startsWith("0") ? "false" : "true"))
              : number(order, text);
        } catch (NumberFormatException e) {
          continue; // NaN, Infinity against an integer type
        }
        if (order.isNaN(literal)) {
          continue; // pruning never compares a NaN; compareDoubles is tested above
        }
        for (byte[] v : values) {
          if (order.decode(v) == null || order.isNaN(order.decode(v))) {
            continue;
          }
          assertBothPathsAgree(order, type.physical(), v, literal, () -> type + " " + text + " vs "
              + order.decode(v));
          checked++;
        }
      }
    }
    assertTrue(checked > 50_000, "checked " + checked);
  }

  /** {@code v} in {@code width} bytes of big-endian two's complement (sign-extended, or its low bytes). */
  static byte[] twos(BigInteger v, int width) {
    byte[] minimal = v.toByteArray();
    byte[] out = new byte[width];
    for (int i = 0; i < width; i++) {
      int from = minimal.length - width + i;
      out[i] = from >= 0 ? minimal[from] : (byte) (v.signum() < 0 ? 0xFF : 0);
    }
    return out;
  }
}
