package io.turboparquet.drill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.turboparquet.filter.Filter;
import io.turboparquet.filter.Literal;
import io.turboparquet.filter.Predicate;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.format.Repetition;
import io.turboparquet.format.Schema;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.drill.exec.store.parquet.ParquetReaderUtility.DateCorruptionStatus;
import org.apache.drill.common.expression.ExpressionPosition;
import org.apache.drill.common.expression.FunctionCallFactory;
import org.apache.drill.common.expression.IfExpression;
import org.apache.drill.common.expression.LogicalExpression;
import org.apache.drill.common.expression.SchemaPath;
import org.apache.drill.common.expression.ValueExpressions;
import org.apache.drill.common.parser.LogicalExpressionParser;
import org.junit.jupiter.api.Test;

/**
 * Drill's pushed filters, written as a fragment reads them from the plan (Drill's expression
 * parser) or as the planner builds them, against a schema of every column kind: each rule of the
 * translation, and that whatever comes out binds to the schema.
 */
class DrillPredicatesTest {
  private static final List<ColumnDescriptor> COLUMNS = new ArrayList<>();
  static final Schema SCHEMA = new Schema(null, List.of(
      col("i32", PhysicalType.INT32, 0, null),
      col("i64", PhysicalType.INT64, 0, null),
      col("f32", PhysicalType.FLOAT, 0, null),
      col("f64", PhysicalType.DOUBLE, 0, null),
      col("dec", PhysicalType.INT32, 0, "DECIMAL(9,2)"),
      col("dec1", PhysicalType.FIXED_LEN_BYTE_ARRAY, 3, "DECIMAL(5,1)"),
      col("s", PhysicalType.BYTE_ARRAY, 0, "STRING"),
      col("raw", PhysicalType.BYTE_ARRAY, 0, null),
      col("b", PhysicalType.BOOLEAN, 0, null),
      col("d", PhysicalType.INT32, 0, "DATE"),
      col("tsm", PhysicalType.INT64, 0, "TIMESTAMP(MILLIS,true)"),
      col("tsu", PhysicalType.INT64, 0, "TIMESTAMP(MICROS,false)"),
      col("tsn", PhysicalType.INT64, 0, "TIMESTAMP(NANOS,true)"),
      col("tm", PhysicalType.INT32, 0, "TIME(MILLIS,true)"),
      col("tmu", PhysicalType.INT64, 0, "TIME(MICROS,true)"),
      col("i96", PhysicalType.INT96, 0, null),
      col("u32", PhysicalType.INT32, 0, "INTEGER(32,false)"),
      add(new ColumnDescriptor(COLUMNS.size(), List.of("m", "x"), PhysicalType.INT32, 0, Repetition.OPTIONAL, 2, 0,
          null)),
      add(new ColumnDescriptor(COLUMNS.size(), List.of("rep"), PhysicalType.INT32, 0, Repetition.REPEATED, 1, 1,
          null)),
      col("Twice", PhysicalType.INT32, 0, null),
      col("twice", PhysicalType.INT32, 0, null),
      col("fileName", PhysicalType.BYTE_ARRAY, 0, "STRING"),
      col("dir1", PhysicalType.INT32, 0, null)));
  /** Drill's defaults, for the names this schema uses. */
  static final DrillPredicates.Reading READING = new DrillPredicates.Reading(false, false, false, false,
      name -> name.equalsIgnoreCase("filename") || name.matches("dir[0-9]+"), DateCorruptionStatus.META_SHOWS_NO_CORRUPTION);
  private static final DrillPredicates.Reading MICROS_AS_INT64 = new DrillPredicates.Reading(true, false, false, false,
      READING.implicit(), READING.dates());

  private static ColumnDescriptor col(String name, PhysicalType type, int length, String logical) {
    return add(new ColumnDescriptor(COLUMNS.size(), List.of(name), type, length, Repetition.OPTIONAL, 1, 0, logical));
  }

  private static ColumnDescriptor add(ColumnDescriptor c) {
    COLUMNS.add(c);
    return c;
  }

  /** The translation of Drill's expression text (as a fragment parses it), as text; null if none. */
  private static String of(String drillExpression) {
    return of(LogicalExpressionParser.parse(drillExpression), false);
  }

  private static String of(LogicalExpression e, boolean timestampMicrosAsInt64) {
    Predicate p = DrillPredicates.of(e, SCHEMA, timestampMicrosAsInt64 ? MICROS_AS_INT64 : READING);
    if (p != null) {
      Filter.bind(p, SCHEMA); // throws if it does not bind
    }
    return p == null ? null : p.toString();
  }

  private static LogicalExpression call(String name, LogicalExpression... args) {
    return FunctionCallFactory.createExpression(name, ExpressionPosition.UNKNOWN, args);
  }

  @Test
  void comparisonsOfAColumnAndALiteralInEitherOrder() {
    assertEquals(new Predicate.Compare("i32", Predicate.Op.EQ, new Literal(Literal.Kind.NUMBER, "5")),
        DrillPredicates.of(LogicalExpressionParser.parse("equal(`i32`, 5)"), SCHEMA, READING));
    assertEquals("i32 <> 5", of("not_equal(`i32`, 5)"));
    assertEquals("i32 < 5", of("less_than(`i32`, 5)"));
    assertEquals("i32 > 5", of("less_than(5, `i32`)"), "5 < i32 is i32 > 5");
    assertEquals("i32 >= 7", of("less_than_or_equal_to(7, `i32`)"));
    assertEquals("i32 <= 7", of("greater_than_or_equal_to(7, `i32`)"));
    assertEquals("i32 < -5", of("greater_than(-5, `i32`)"));
    assertEquals("i64 > 3000000000", of("greater_than(`i64`, 3000000000)"));
    assertEquals("i32 = 5", of("equal(`I32`, 5)"), "Drill's names ignore case; the file's is used");
    // As the planner builds them, before serialisation: operators are the same functions.
    assertEquals("i32 >= 3", of(call(">=", SchemaPath.getSimplePath("i32"), ValueExpressions.getInt(3)), false));
  }

  @Test
  void andDropsWhatItCannotTranslateAndKeepsTheRest() {
    assertEquals("i32 > 3", of("booleanAnd(like(`s`, 'x#_1', '#') , greater_than(`i32`, 3) )"));
    assertEquals("i32 >= 3 AND i32 <= 7 AND s = 'x'",
        of("booleanAnd(booleanAnd(greater_than_or_equal_to(`i32`, 3), less_than_or_equal_to(`i32`, 7)), "
            + "not(like(`s`, 'x#_', '#')), equal(upper(`s`), 'X'), equal(`s`, 'x'))"));
    assertNull(of("booleanAnd(like(`s`, 'x#_1', '#'), not(equal(upper(`s`), 'X')))"), "nothing left");
  }

  @Test
  void likeAndIlikeAreTranslatedAsDrillMatchesThem() {
    assertEquals("s LIKE '%x1%'", of("like(`s`, '%x1%')"));
    assertEquals("s >= 'x1' AND s < 'x2'", of("like(`s`, 'x1%')"));
    assertEquals("s = 'x1'", of("like(`s`, 'x1')"));
    assertEquals("s LIKE 'x%1%' (line-bound)", of("like(`s`, 'x%1%')"), "Drill's regular expression");
    assertEquals("s ILIKE 'X1%' (line-bound)", of("ilike(`s`, 'X1%')"));
    assertEquals("s NOT ILIKE '%Google%' (line-bound)", of("not(ilike(`s`, '%Google%'))"));
    assertNull(of("ilike(`s`, 'a\nb%')"), "a line terminator in a regular expression");
    assertNull(of("like(`s`, 'a\u0000%b%')"), "NUL: the escape of Drill's two-argument LIKE");
    assertEquals("s ILIKE 'x_' (line-bound)", of("ilike(`s`, 'x_')"), "_: a character, not a byte");
    assertEquals("s LIKE 'x_' (line-bound)", of("like(`s`, 'x_')"));
    assertNull(of("like(`s`, 'x#_', '#')"), "an escape");
    assertNull(of("like(`i32`, '1%')"), "not a VARCHAR column");
  }

  @Test
  void orNeedsEveryTermAndEqualitiesOfOneColumnBecomeIn() {
    assertNull(of("booleanOr(like(`s`, 'x#_1', '#') , greater_than(`i32`, 3) )"));
    assertNull(of("booleanOr(equal(`i32`, 3), equal(`nope`, 4))"), "a column the file lacks");
    assertEquals("i32 IN (1, 7, 42)", of("booleanOr(equal(`i32`, 1) , equal(`i32`, 7) , equal(`i32`, 42) )"));
    assertEquals("s IN ('a', 'b', 'c')", of("booleanOr(equal(`s`, 'a'), booleanOr(equal('b', `s`), equal(`s`, 'c')))"));
    assertEquals("i32 = 3 OR s = 'x9'", of("booleanOr(equal(`i32`, 3) , equal(`s`, 'x9') )"));
    assertEquals("i32 IS NULL OR i32 = 5", of("booleanOr(isnull(`i32`) , equal(`i32`, 5) )"));
    assertEquals("(i32 > 1 OR s = 'a') AND i64 < 0",
        of("booleanAnd(booleanOr(greater_than(`i32`, 1), equal(`s`, 'a')), less_than(`i64`, 0), "
            + "booleanOr(`b`, like(`s`, 'a#_', '#')))"));
    assertEquals("(i32 >= 1 AND i32 <= 2) OR i32 = 9",
        of("booleanOr(booleanAnd(greater_than_or_equal_to(`i32`, 1), less_than_or_equal_to(`i32`, 2)), "
            + "equal(`i32`, 9))"));
  }

  @Test
  void nullTests() {
    assertEquals("s IS NULL", of("isnull(`s`)"));
    assertEquals("s IS NOT NULL AND i32 > 50", of("booleanAnd(isnotnull(`s`) , greater_than(`i32`, 50) )"));
    assertEquals("i96 IS NULL", of("isnull(`i96`)"), "nulls need no value order");
    assertEquals("s IS NOT NULL", of(call("is not null", SchemaPath.getSimplePath("s")), false));
    assertNull(of("isnull(upper(`s`))"));
    assertNull(of("isnull(`nope`)"));
  }

  /**
   * NOT negates an exact translation (three-valued: a null passes neither side); anything left out
   * of it, or only implied by it, would make the negation drop rows Drill keeps.
   */
  @Test
  void notNegatesWhatIsTranslatedExactly() {
    assertEquals("i32 <> 5", of("not(equal(`i32`, 5))"));
    assertEquals("b <> true", of("not(`b`)"));
    assertEquals("s NOT LIKE '%x1%'", of("not(like(`s`, '%x1%'))"));
    assertEquals("s < 'x1' OR s >= 'x2'", of("not(like(`s`, 'x1%'))"));
    assertEquals("i32 < 3 OR s IS NOT NULL", of("not(booleanAnd(greater_than_or_equal_to(`i32`, 3), isnull(`s`)))"));
    assertEquals("i32 <> 1 AND i32 <> 7", of("not(booleanOr(equal(`i32`, 1), equal(`i32`, 7)))"));
    assertEquals("i32 = 5", of("not(not(equal(`i32`, 5)))"));
    assertEquals("i32 > 9 AND s <> 'a'", of("booleanAnd(greater_than(`i32`, 9), not(equal(`s`, 'a')), "
        + "not(like(`s`, 'x#_', '#')))"), "an AND still drops what NOT cannot take");
    // IS TRUE of a null is false, not unknown: IS NOT TRUE keeps the nulls.
    assertEquals("b IS NULL OR b <> true", of("isnottrue(`b`)"));
    assertEquals("b IS NULL OR b <> false", of("isnotfalse(`b`)"));
    assertEquals("b IS NULL OR b <> true", of("not(istrue(`b`))"));
    assertNull(of("not(booleanAnd(like(`s`, 'x#_1', '#'), greater_than(`i32`, 3)))"), "a term left out of the AND");
    assertNull(of("not(like(`s`, 'x#_', '#'))"));
    assertNull(of("not(not_equal(`i32`, 2.5))"), "always true: no exact translation");
    // Against a DOUBLE the translation keeps values at a rounding tie: exact enough for a filter, not for NOT.
    assertEquals("i64 >= 9007199254740992 AND i64 <= 9007199254740993", of("equal(`i64`, 9.007199254740992E15)"));
    assertNull(of("not(equal(`i64`, 9.007199254740992E15))"));
  }

  @Test
  void notFunctionsCastColumnsAndOtherShapesAreUntranslatable() {
    assertNull(of("equal(upper(`s`) , 'X1')"));
    assertNull(of("equal(cast( (`i32` ) as BIGINT ), 5)"), "a column in a cast");
    assertNull(of("equal(add(`i32`, 1), 5)"));
    assertNull(of("equal(`i32`, `i64`)"));
    assertNull(of("equal(5, 6)"));
    assertNull(of("equal(`i32`)"));
    assertNull(of("equal(`nope`, 5)"), "not in the file");
    assertNull(of("equal(`dir0`, '2020')"), "a partition column");
    assertNull(of("equal(`filename`, 'x')"), "Drill's implicit column hides the file's");
    assertNull(of("equal(`dir1`, 5)"), "Drill's partition column hides the file's");
    assertEquals("i32 = 5", of("booleanAnd(equal(`FILENAME`, 'x'), equal(`i32`, 5))"));
    assertNull(of("equal(`m`.`x`, 5)"), "a leaf of a group");
    assertNull(of("equal(`m`, 5)"), "a group");
    assertNull(of("equal(`rep`, 5)"), "a repeated column");
    assertNull(of("equal(`twice`, 5)"), "two columns of the name, up to case");
    assertNull(of("equal(`i32`, NULL)"));
    assertNull(of("true"));
    assertNull(of("equal(`i32`, 5) = true"), "a comparison of comparisons");
    assertNull(of(IfExpression.newBuilder().setIfCondition(new IfExpression.IfCondition(
        ValueExpressions.BooleanExpression.TRUE, SchemaPath.getSimplePath("b"))).setElse(
        ValueExpressions.BooleanExpression.FALSE).build(), false));
    assertNull(DrillPredicates.of(null, SCHEMA, READING));
  }

  @Test
  void literalsOfAnotherKindThanTheColumnAreLeftToDrill() {
    assertNull(of("equal(`i32`, '5')"), "Drill casts the string to a number");
    assertNull(of("equal(`s`, 5)"), "Drill casts the column to a number");
    assertNull(of("equal(`d`, 5)"));
    assertNull(of("equal(`tsm`, 1577836800000)"));
    assertNull(of("equal(`b`, 1)"));
    assertNull(of("equal(`i32`, true)"));
    assertNull(of("equal(`i32`, cast( (1578009600000 ) as DATE ))"));
    assertNull(DrillPredicates.of(LogicalExpressionParser.parse("equal(`u32`, 5)"), SCHEMA,
        new DrillPredicates.Reading(false, false, false, true, READING.implicit(), READING.dates())),
        "unsigned under the built-in typing: UINT4, which Drill does not compare");
    assertEquals("u32 = 5", of("equal(`u32`, 5)"), "unsigned read as BIGINT: pushed, compared unsigned by the core");
    assertNull(of("equal(`i96`, 'x')"), "INT96: no order in the core");
    assertNull(of(call("equal", SchemaPath.getSimplePath("i32"), ValueExpressions.getFloat4(1.5f)), false),
        "a FLOAT literal would round the column to FLOAT");
    assertNull(of(call("equal", SchemaPath.getSimplePath("f64"), ValueExpressions.getFloat8(Double.NaN)), false));
  }

  @Test
  void integerLiteralsRoundToTheFloatingColumnsType() {
    // Drill casts the literal to FLOAT: 16777217 is 16777216f, which the column's 16777216 equals.
    assertEquals("f32 = 1.6777216E7", of("equal(`f32`, 16777217)"));
    assertEquals("f64 = 9.007199254740992E15", of("equal(`f64`, 9007199254740993)"));
    assertEquals("f32 < 5.0", of("less_than(`f32`, 5)"));
    // Against a DOUBLE literal the FLOAT column is widened exactly: the literal stays a double.
    assertEquals("f32 < 0.1", of("less_than(`f32`, 0.1)"));
    assertEquals("f64 >= 1.5", of("greater_than_or_equal_to(`f64`, 1.5)"));
    assertEquals("f64 <> -0.0", of("not_equal(`f64`, -0.0)"));
    assertEquals("f64 = 1.5", of(call("equal", SchemaPath.getSimplePath("f64"), ValueExpressions.getFloat4(1.5f)),
        false));
  }

  @Test
  void doubleLiteralsAgainstIntegerAndDecimalColumnsCoverWhatRoundsToThem() {
    // Drill compares double(i64) with the literal: 2^53 + 1 rounds to 2^53.
    assertEquals("i64 >= 9007199254740992 AND i64 <= 9007199254740993", of("equal(`i64`, 9.007199254740992E15)"));
    assertEquals("i64 <= 9007199254740993", of("less_than_or_equal_to(`i64`, 9.007199254740992E15)"));
    assertEquals("i64 >= 9007199254740992", of("greater_than_or_equal_to(`i64`, 9.007199254740992E15)"));
    assertEquals("i64 <= 9007199254740991", of("less_than(`i64`, 9.007199254740992E15)"));
    assertEquals("i64 >= 9007199254740993", of("greater_than(`i64`, 9.007199254740992E15)"), "a tie is kept");
    assertEquals("i32 = 5", of("equal(`i32`, 5.0)"));
    assertEquals("i32 >= 6 AND i32 <= 5", of("equal(`i32`, 5.5)"), "no integer rounds to 5.5: an empty range");
    assertEquals("i32 <= 2", of("less_than(`i32`, 2.5)"));
    assertEquals("i32 >= 3", of("greater_than(`i32`, 2.5)"));
    assertNull(of("not_equal(`i32`, 2.5)"), "always true");
    assertEquals("i32 <> 2", of("not_equal(`i32`, 2.0)"));
    assertEquals("dec = 1.5", of("equal(`dec`, 1.5)"));
    // 2.555 is 2.55499999999999971578... as a double: no DECIMAL(9,2) value above 2.55 rounds to or below it.
    assertEquals("dec <= 2.55", of("less_than_or_equal_to(`dec`, 2.555)"));
    assertEquals("dec >= 1 AND dec <= 2.55",
        of("booleanAnd(greater_than_or_equal_to(`dec`, 1) , less_than_or_equal_to(`dec`, 2.55) )"));
    // 0.1 is 0.1000000000000000055... as a double, and double(0.1) is that: not below it.
    assertEquals("dec1 <= 0", of("less_than(`dec1`, 0.1)"));
    assertEquals("dec1 >= 0.2", of("greater_than(`dec1`, 0.1)"));
  }

  @Test
  void exactDecimalLiteralsAsThePlannerBuildsThem() {
    LogicalExpression dec = SchemaPath.getSimplePath("dec");
    LogicalExpression dec1 = SchemaPath.getSimplePath("dec1");
    assertEquals("dec = 1.25", of(call("equal", dec, ValueExpressions.getVarDecimal(new BigDecimal("1.25"), 3, 2)),
        false));
    assertEquals("dec1 = 1.25", of(call("equal", dec1, ValueExpressions.getVarDecimal(new BigDecimal("1.25"), 3, 2)),
        false), "nothing of scale 1 equals it; the core compares exactly");
    assertEquals("dec1 <= 1.2", of(call("less_than", dec1,
        ValueExpressions.getVarDecimal(new BigDecimal("1.25"), 3, 2)), false));
    assertEquals("dec1 >= 1.3", of(call("greater_than", dec1,
        ValueExpressions.getVarDecimal(new BigDecimal("1.25"), 3, 2)), false));
    assertEquals("i64 > 12345678901234567890", of(call("greater_than", SchemaPath.getSimplePath("i64"),
        ValueExpressions.getVarDecimal(new BigDecimal("12345678901234567890"), 20, 0)), false));
    // Against a FLOAT or DOUBLE column Drill casts the decimal to the column's type.
    assertEquals("f32 = 0.699999988079071", of(call("equal", SchemaPath.getSimplePath("f32"),
        ValueExpressions.getVarDecimal(new BigDecimal("0.7"), 1, 1)), false));
    assertEquals("f64 <= 0.7", of(call("less_than_or_equal_to", SchemaPath.getSimplePath("f64"),
        ValueExpressions.getVarDecimal(new BigDecimal("0.7"), 1, 1)), false));
    assertEquals("dec = 3", of("equal(`dec`, cast( (3 ) as VARDECIMAL(5, 2) ))"));
    assertNull(of("equal(`dec`, cast( (3.145 ) as VARDECIMAL(5, 2) ))"), "the cast rounds a double");
  }

  @Test
  void datesAndTimestampsInTheStoredUnits() {
    assertEquals("d = DATE '2020-01-03'", of("equal(`d`, cast( (1578009600000 ) as DATE ))"));
    assertEquals("d >= DATE '2020-01-05'", of("greater_than_or_equal_to(`d`, '2020-01-05')"));
    assertEquals("d IN (DATE '2020-01-05', DATE '2020-01-07')",
        of("booleanOr(equal(`d`, '2020-01-05'), equal(`d`, castDATE('2020-01-07')))"));
    // Drill compares the date as a timestamp: before noon of the 3rd is up to the 3rd.
    assertEquals("d < DATE '2020-01-04'", of("less_than(`d`, cast( (1578052800000 ) as TIMESTAMP ))"));
    assertEquals("d <= DATE '2020-01-03'", of("less_than_or_equal_to(`d`, cast( (1578052800000 ) as TIMESTAMP ))"));
    assertEquals("d > DATE '2020-01-03'", of("greater_than(`d`, cast( (1578052800000 ) as TIMESTAMP ))"));
    assertEquals("d >= DATE '2020-01-04' AND d <= DATE '2020-01-03'",
        of("equal(`d`, cast( (1578052800000 ) as TIMESTAMP ))"), "no date is noon");
    assertNull(of("not_equal(`d`, cast( (1578052800000 ) as TIMESTAMP ))"));
    assertEquals("d < DATE '1969-12-31'", of("less_than(`d`, cast( (-86400001 ) as TIMESTAMP ))"));
    assertNull(of("greater_than(`d`, '2020-01-05 10:00:00')"), "Drill's DATE and TIMESTAMP casts differ on it");
    assertNull(of("greater_than(`d`, '2020-1-5')"));
    assertNull(of("greater_than(`d`, '2020-02-30')"));

    assertEquals("tsm >= 1577872800000", of("greater_than_or_equal_to(`tsm`, cast( (1577872800000 ) as TIMESTAMP ))"));
    assertEquals("tsm = 1577872800000", of("equal(`tsm`, '2020-01-01 10:00:00')"));
    assertEquals("tsm = 1577872800123", of("equal(`tsm`, '2020-01-01 10:00:00.123')"));
    assertEquals("tsm < 1577836800000", of("less_than(`tsm`, cast( (1577836800000 ) as DATE ))"));
    assertNull(of("equal(`tsm`, '2020-01-01T10:00:00')"));
    assertNull(of("equal(`tsm`, '2020-01-01 10:00:00 UTC')"));

    // Microseconds truncated to milliseconds, toward zero.
    assertEquals("tsu < 1577959200123000", of("less_than(`tsu`, cast( (1577959200123 ) as TIMESTAMP ))"));
    assertEquals("tsu >= 1577959200123000 AND tsu <= 1577959200123999",
        of("equal(`tsu`, cast( (1577959200123 ) as TIMESTAMP ))"));
    assertEquals("tsu >= -1999 AND tsu <= -1000", of("equal(`tsu`, cast( (-1 ) as TIMESTAMP ))"));
    assertEquals("tsu >= -999 AND tsu <= 999", of("equal(`tsu`, cast( (0 ) as TIMESTAMP ))"));
    assertEquals("tsu > 1999", of("greater_than(`tsu`, cast( (1 ) as TIMESTAMP ))"));
    assertNull(of("not_equal(`tsu`, cast( (1 ) as TIMESTAMP ))"));
    assertNull(of("equal(`tsu`, cast( (9223372036854775 ) as TIMESTAMP ))"), "out of range in microseconds");
    // With store.parquet.reader.timestamp_micros_as_int64 Drill reads the column as BIGINT.
    assertEquals("tsu = 5", of(LogicalExpressionParser.parse("equal(`tsu`, 5)"), true));
    assertNull(of(LogicalExpressionParser.parse("equal(`tsu`, cast( (1 ) as TIMESTAMP ))"), true));
    assertEquals("tsn = 5", of("equal(`tsn`, 5)"), "nanoseconds: Drill's BIGINT");

    assertEquals("tm < 3600000", of("less_than(`tm`, cast( (3600000 ) as TIME ))"));
    assertNull(of("less_than(`tmu`, cast( (3600000 ) as TIME ))"), "TIME in microseconds is left out");

    // As the planner builds them.
    assertEquals("d = DATE '2020-01-03'", of(call("equal", SchemaPath.getSimplePath("d"),
        ValueExpressions.getDate(1578009600000L)), false));
    assertEquals("tsm > 1578009600001", of(call("greater_than", SchemaPath.getSimplePath("tsm"),
        ValueExpressions.getTimeStamp(1578009600001L)), false));
  }

  @Test
  void datesOfAFileWithShiftedDatesAreNotJudged() {
    LogicalExpression e = LogicalExpressionParser.parse(
        "booleanAnd(equal(`d`, '2020-01-05'), greater_than(`i32`, 3))");
    assertEquals("d = DATE '2020-01-05' AND i32 > 3", DrillPredicates.of(e, SCHEMA, READING).toString());
    for (DateCorruptionStatus shifted : List.of(DateCorruptionStatus.META_SHOWS_CORRUPTION,
        DateCorruptionStatus.META_UNCLEAR_TEST_VALUES)) {
      assertEquals("i32 > 3", DrillPredicates.of(e, SCHEMA, READING.withDates(shifted)).toString(), shifted.name());
      assertNull(DrillPredicates.of(LogicalExpressionParser.parse("less_than(`d`, '2020-01-05')"), SCHEMA,
          READING.withDates(shifted)));
    }
  }

  @Test
  void stringsBinaryAndBooleans() {
    assertEquals("s >= 'x5'", of("greater_than_or_equal_to(`s`, 'x5')"));
    assertEquals("raw = 'r5'", of("equal(`raw`, 'r5')"));
    assertEquals("s = 'it''s'", of("equal(`s`, 'it\\'s')"));
    assertEquals("s = 'abc'", of("equal(`s`, cast( ('abc' ) as VARCHAR(3) ))"));
    assertEquals("s = 'ab'", of("equal(`s`, castVARCHAR('ab', 65536))"));
    assertNull(of("equal(`s`, cast( ('abcd' ) as VARCHAR(3) ))"), "the cast truncates");
    assertEquals("b = true", of("equal(`b`, true)"));
    assertEquals("b = true", of("`b`"), "a BOOLEAN column as the condition");
    assertEquals("b = true", of("istrue(`b`)"));
    assertEquals("b = false", of("isfalse(`b`)"));
    assertNull(of("`s`"));
  }
}
