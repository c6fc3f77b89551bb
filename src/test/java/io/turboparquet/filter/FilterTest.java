package io.turboparquet.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.ColumnIndex;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.format.Repetition;
import io.turboparquet.format.Schema;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The filter language, literal typing and the per-page decisions of {@link PageIndexFilter}. */
class FilterTest {
  static final ColumnDescriptor I64 = col(0, "k", PhysicalType.INT64, 0, true, null);
  static final ColumnDescriptor DAY = col(1, "day", PhysicalType.INT32, 0, false, "DATE");
  static final ColumnDescriptor DBL = col(2, "d", PhysicalType.DOUBLE, 0, false, null);
  static final ColumnDescriptor STR = col(3, "s", PhysicalType.BYTE_ARRAY, 0, false, "STRING");
  static final ColumnDescriptor DEC = col(4, "dec", PhysicalType.FIXED_LEN_BYTE_ARRAY, 4, false, "DECIMAL(9,2)");
  static final ColumnDescriptor U32 = col(5, "u", PhysicalType.INT32, 0, false, "INTEGER(32,false)");
  static final Schema SCHEMA = new Schema(null, List.of(I64, DAY, DBL, STR, DEC, U32));

  static ColumnDescriptor col(int i, String name, PhysicalType t, int len, boolean required, String logical) {
    return new ColumnDescriptor(i, List.of(name), t, len, required ? Repetition.REQUIRED : Repetition.OPTIONAL,
        required ? 0 : 1, 0, logical);
  }

  @Test
  void parsesTheCommandLineForms() {
    assertEquals("l_shipdate >= DATE '1995-01-01' AND l_shipdate < DATE '1995-01-08'",
        Predicate.parse("l_shipdate >= DATE '1995-01-01' AND l_shipdate < date '1995-01-08'").toString());
    assertEquals("l_partkey = 12345", Predicate.parse("l_partkey=12345").toString());
    assertEquals("l_shipmode IN ('AIR', 'RAIL')", Predicate.parse("l_shipmode in ('AIR','RAIL')").toString());
    assertEquals("x IS NULL", Predicate.parse("x IS NULL").toString());
    assertEquals("x IS NOT NULL OR y <> 'it''s'", Predicate.parse("x is not null or y != 'it''s'").toString());
    assertEquals("a >= 1 AND a <= 2 AND (b < -1.5e3 OR c > 0)",
        Predicate.parse("a BETWEEN 1 AND 2 AND (b < -1.5e3 OR c > 0)").toString());
    assertEquals(new Predicate.Compare("a.b", Predicate.Op.EQ, new Literal(Literal.Kind.STRING, "x")),
        Predicate.parse("\"a.b\" = 'x'"));
  }

  /** NOT, as SQL's in three-valued logic, pushed down to the leaves by De Morgan's laws. */
  @Test
  void notIsNegatedDownToTheLeaves() {
    assertEquals("x NOT LIKE '%a%'", Predicate.parse("x not like '%a%'").toString());
    assertEquals("x < 'ab' OR x >= 'ac'", Predicate.parse("NOT x LIKE 'ab%'").toString(), "the prefix's range");
    assertEquals("x < 'ab' OR x >= 'ac' OR x NOT LIKE 'ab%c'", Predicate.parse("x NOT LIKE 'ab%c'").toString());
    assertEquals("k <> 1 AND k <> 2", Predicate.parse("k NOT IN (1, 2)").toString());
    assertEquals("k < 1 OR k > 5", Predicate.parse("k NOT BETWEEN 1 AND 5").toString());
    assertEquals("k >= 3 AND (x IS NOT NULL OR k = 4)", Predicate.parse("NOT (k < 3 OR x IS NULL AND k <> 4)").toString());
    assertEquals("k = 7", Predicate.parse("not not k = 7").toString());
    String top = "a" + Character.toString(Character.MAX_CODE_POINT);
    assertEquals("x < '" + top + "' OR x NOT LIKE '" + top + "%'", Predicate.not(Predicate.like("x", top + "%")).toString(),
        "no string bounds the prefix from above: the pattern stays, so NOT keeps what sorts above it");
    assertMessage("NOT of g INTERSECTS", () -> Predicate.parse("NOT g INTERSECTS BOX(0, 0, 1, 1)"));
    assertMessage("expected IN, LIKE, ILIKE or BETWEEN after NOT", () -> Predicate.parse("k NOT = 3"));
  }

  @Test
  void parseErrorsSayWhatIsWrongAndWhere() {
    assertMessage("filter is empty", () -> Predicate.parse(" "));
    assertMessage("expected a comparison", () -> Predicate.parse("x ~ 3"));
    assertMessage("unterminated string", () -> Predicate.parse("x = 'abc"));
    assertMessage("expected a literal", () -> Predicate.parse("x = abc"));
    assertMessage("expected ')'", () -> Predicate.parse("(x = 1"));
    assertMessage("DATE wants 'yyyy-mm-dd'", () -> Predicate.parse("x = DATE '1/2/1995'"));
    assertMessage("expected AND, OR or the end at position 7", () -> Predicate.parse("x = 1 y = 2"));
    assertMessage("expected NULL after IS NOT", () -> Predicate.parse("x IS NOT 3"));
  }

  @Test
  void bindingTypesLiteralsOrSaysWhy() {
    assertMessage("no column nope", () -> Filter.bind(Predicate.parse("nope = 1"), SCHEMA));
    assertMessage("column k is INT64; 'abc' is not a number", () -> Filter.bind(Predicate.parse("k = 'abc'"), SCHEMA));
    assertMessage("column s is BYTE_ARRAY STRING; 12 is not a string", () -> Filter.bind(Predicate.parse("s = 12"),
        SCHEMA));
    assertMessage("column day is INT32 DATE; 12 is not a date", () -> Filter.bind(Predicate.parse("day < 12"), SCHEMA));
    Filter f = Filter.bind(Predicate.parse("day < '1970-01-11' AND u = 3"), SCHEMA);
    assertEquals(2, f.columns().size());
    Filter.Leaf unsigned = (Filter.Leaf) ((Filter.All) f.root()).terms().get(1);
    assertTrue(unsigned.order().unsigned(), "unsigned ints compare unsigned");
  }

  static ColumnIndex index(boolean[] nullPages, List<byte[]> mins, List<byte[]> maxs, long[] nullCounts) {
    return new ColumnIndex(nullPages, mins, maxs, 0, nullCounts, null, null, null);
  }

  static byte[] i64(long v) {
    return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
  }

  static byte[] f64(double v) {
    return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putDouble(v).array();
  }

  static RowRanges ranges(String filter, ColumnIndex ci, long[] firstRows, long rows) {
    Filter f = Filter.bind(Predicate.parse(filter), SCHEMA);
    return PageIndexFilter.rowRanges(f, rows, new PageIndexFilter.Indexes() {
      @Override
      public ColumnIndex columnIndex(int leaf) {
        return ci;
      }

      @Override
      public long[] pageFirstRows(int leaf) {
        return firstRows;
      }
    });
  }

  @Test
  void comparisonsKeepOnlyPagesWhoseBoundsAllowAMatch() {
    ColumnIndex ci = index(new boolean[3], List.of(i64(0), i64(100), i64(200)), List.of(i64(99), i64(199), i64(299)),
        new long[3]);
    long[] first = {0, 10, 25};
    assertEquals("[[10, 25)]", ranges("k = 150", ci, first, 40).toString());
    assertEquals("[[0, 10)]", ranges("k < 100", ci, first, 40).toString());
    assertEquals("[[0, 25)]", ranges("k <= 100", ci, first, 40).toString());
    assertEquals("[[25, 40)]", ranges("k > 199", ci, first, 40).toString());
    assertEquals("[[0, 10), [25, 40)]", ranges("k IN (5, 250)", ci, first, 40).toString());
    assertEquals("[[0, 10), [25, 40)]", ranges("k < 50 OR k >= 250", ci, first, 40).toString());
    assertEquals("[]", ranges("k > 250 AND k < 50", ci, first, 40).toString());
    assertEquals("[]", ranges("k IS NULL", ci, first, 40).toString(), "a required column has no nulls");
    assertEquals("[[0, 40)]", ranges("k = 99.5 OR k <> 3", ci, first, 40).toString());
    assertEquals("[]", ranges("k = 99.5", ci, first, 40).toString(), "compared exactly, not truncated");
    assertEquals("[[0, 40)]", ranges("k = 150", ci, new long[] {0, 10}, 40).toString(),
        "an index whose page count disagrees decides nothing");
    assertEquals("[[0, 40)]", ranges("k = 150", null, first, 40).toString(), "no column index");
  }

  @Test
  void nullPagesAndCountsAreBelievedOnlyWhenConsistent() {
    ColumnDescriptor d = DBL;
    List<byte[]> empty = List.of(new byte[0], f64(1), f64(1));
    ColumnIndex ci = index(new boolean[] {true, false, false}, empty, List.of(new byte[0], f64(2), f64(2)),
        new long[] {10, 0, 3});
    long[] first = {0, 10, 20};
    assertEquals("[[0, 10), [20, 30)]", ranges("d IS NULL", ci, first, 30).toString());
    assertEquals("[[10, 30)]", ranges("d IS NOT NULL", ci, first, 30).toString());
    assertEquals("[[10, 30)]", ranges("d < 5", ci, first, 30).toString());
    // a null page whose null count says otherwise is not believed
    ColumnIndex liar = index(new boolean[] {true, false, false}, empty, List.of(new byte[0], f64(2), f64(2)),
        new long[] {4, 0, 3});
    assertEquals("[[0, 30)]", ranges("d < 5", liar, first, 30).toString());
    assertTrue(d.isFlat());
  }

  @Test
  void floatingBoundsWithNaNOrAboveComparisonsNeverSkip() {
    ColumnIndex ci = index(new boolean[2], List.of(f64(Double.NaN), f64(1)), List.of(f64(5), f64(2)), null);
    long[] first = {0, 10};
    assertEquals("[[0, 10)]", ranges("d = 100", ci, first, 20).toString(), "NaN bound: kept; [1, 2]: skipped");
    assertEquals("[[0, 20)]", ranges("d > 100", ci, first, 20).toString(), "a hidden NaN may be > 100");
    assertEquals("[[0, 20)]", ranges("d <> 1.5", ci, first, 20).toString());
    ColumnIndex zeros = index(new boolean[1], List.of(f64(-0.0)), List.of(f64(0.0)), null);
    assertEquals("[[0, 5)]", ranges("d = 0", zeros, new long[] {0}, 5).toString(), "-0.0 equals 0");
  }

  /** nan_counts (parquet-java 1.18, either column order): a page with none of them is decided like any other. */
  @Test
  void nanCountsLetAboveComparisonsSkipPagesWithoutNaN() {
    ColumnIndex ci = new ColumnIndex(new boolean[3], List.of(f64(1), f64(1), f64(Double.NaN)),
        List.of(f64(1), f64(2), f64(Double.NaN)), 0, null, null, null, new long[] {0, 4, 10});
    long[] first = {0, 10, 20};
    assertEquals("[[10, 30)]", ranges("d > 100", ci, first, 30).toString(), "page 1 holds NaN, page 2 only NaN");
    assertEquals("[[10, 30)]", ranges("d <> 1", ci, first, 30).toString());
    assertEquals("[[0, 30)]", ranges("d < 1.5", ci, first, 30).toString(), "an all-NaN page's NaN bounds decide nothing");
    assertEquals("[[20, 30)]", ranges("d = 0", ci, first, 30).toString());
  }

  @Test
  void binaryBoundsAreUnsignedAndTruncatedBoundsStayBounds() {
    byte[] high = {(byte) 0xC3, (byte) 0xA9}; // 'é': above every ASCII byte unsigned, below them signed
    // page 0: truncated "app".."apq" (values like "apple..."); page 1: "b".."é"
    ColumnIndex ci = index(new boolean[2], List.of(utf8("app"), utf8("b")), List.of(utf8("apq"), high), new long[2]);
    long[] first = {0, 10};
    assertEquals("[[0, 10)]", ranges("s = 'applesauce'", ci, first, 20).toString());
    assertEquals("[[0, 10)]", ranges("s < 'b'", ci, first, 20).toString());
    assertEquals("[[10, 20)]", ranges("s > 'z'", ci, first, 20).toString());
    assertEquals("[[10, 20)]", ranges("s = 'é'", ci, first, 20).toString());
  }

  @Test
  void decimalsCompareAsSignedBigEndian() {
    ColumnIndex ci = index(new boolean[2], List.of(be(-500, 4), be(100, 4)), List.of(be(-1, 4), be(900, 4)), null);
    long[] first = {0, 10};
    assertEquals("[[0, 10)]", ranges("dec < 0", ci, first, 20).toString());
    assertEquals("[[10, 20)]", ranges("dec >= 1.00", ci, first, 20).toString());
    assertEquals("[]", ranges("dec = 0.005", ci, first, 20).toString());
    assertEquals("[[0, 10)]", ranges("dec = -5", ci, first, 20).toString());
  }

  @Test
  void rowRangesUniteAndIntersect() {
    RowRanges a = new RowRanges.Builder().add(0, 10).add(20, 30).build();
    RowRanges b = new RowRanges.Builder().add(5, 25).build();
    assertEquals("[[5, 10), [20, 25)]", a.intersect(b).toString());
    assertEquals("[[0, 30)]", a.union(b).toString());
    assertEquals(20, a.rowCount());
    assertTrue(a.overlaps(9, 12));
    assertFalse(a.overlaps(10, 20));
    assertEquals("[[0, 5)]", new RowRanges.Builder().add(0, 2).add(2, 5).build().toString());
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static byte[] be(long unscaled, int width) {
    byte[] b = BigInteger.valueOf(unscaled).toByteArray();
    byte[] out = new byte[width];
    java.util.Arrays.fill(out, 0, width - b.length, (byte) (unscaled < 0 ? 0xFF : 0));
    System.arraycopy(b, 0, out, width - b.length, b.length);
    return out;
  }

  static void assertMessage(String part, org.junit.jupiter.api.function.Executable e) {
    IllegalArgumentException x = assertThrows(IllegalArgumentException.class, e);
    assertTrue(x.getMessage().contains(part), x.getMessage());
  }
}
