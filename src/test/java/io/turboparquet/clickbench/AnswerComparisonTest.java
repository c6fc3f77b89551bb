package io.turboparquet.clickbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AnswerComparisonTest {
  private static final int[] UNORDERED = null;
  private static final Optional<String> SAME = Optional.empty();

  private static List<Object> r(Object... values) {
    return List.of(values);
  }

  @SafeVarargs
  private static List<List<Object>> rows(List<Object>... rows) {
    return List.of(rows);
  }

  private static Optional<String> diff(List<List<Object>> expected, List<List<Object>> actual, int[] keys, int limit) {
    return AnswerComparison.difference(expected, actual, keys, limit);
  }

  @Test
  void numbersCompareByValueWhateverTheirType() {
    List<List<Object>> duckDb = rows(r(BigInteger.valueOf(42), 7L, new BigDecimal("15887")));
    assertEquals(SAME, diff(duckDb, rows(r(42L, (short) 7, 15887)), UNORDERED, -1));
    assertTrue(diff(duckDb, rows(r(43L, 7, 15887)), UNORDERED, -1).isPresent());
  }

  @Test
  void floatingValuesWithinTheRelativeTolerance() {
    List<List<Object>> expected = rows(r(4.4767144764975309E18));
    assertEquals(SAME, diff(expected, rows(r(4.4767144764975309E18 * (1 + 1e-12))), UNORDERED, -1));
    assertTrue(diff(expected, rows(r(4.4767144764975309E18 * (1 + 1e-7))), UNORDERED, -1).isPresent());
    // an integer against a floating value: tolerated too, but not a different integer
    assertEquals(SAME, diff(rows(r(1024.0)), rows(r(1024)), UNORDERED, -1));
    assertTrue(diff(rows(r(1024.0)), rows(r(1025)), UNORDERED, -1).isPresent());
  }

  @Test
  void timestampsAsIsoText() {
    LocalDateTime t = LocalDateTime.of(2013, 7, 14, 0, 1);
    List<List<Object>> expected = rows(r(Timestamp.valueOf(t)));
    assertEquals(SAME, diff(expected, rows(r(t)), UNORDERED, -1));
    assertEquals(SAME, diff(expected, rows(r(Instant.parse("2013-07-14T00:01:00Z"))), UNORDERED, -1));
    assertTrue(diff(expected, rows(r(t.plusSeconds(1))), UNORDERED, -1).isPresent());
  }

  @Test
  void unorderedAnswersAreMultisets() {
    List<List<Object>> expected = rows(r("a", 1), r("b", 2), r("b", 2));
    assertEquals(SAME, diff(expected, rows(r("b", 2), r("a", 1), r("b", 2)), UNORDERED, -1));
    assertTrue(diff(expected, rows(r("b", 2), r("a", 1), r("a", 1)), UNORDERED, -1).isPresent());
    assertTrue(diff(expected, rows(r("b", 2), r("a", 1)), UNORDERED, -1).isPresent());
  }

  @Test
  void tiesInAnyOrderButKeysInOrder() {
    int[] byCount = {1};
    List<List<Object>> expected = rows(r("x", 9), r("a", 5), r("b", 5), r("c", 1));
    assertEquals(SAME, diff(expected, rows(r("x", 9), r("b", 5), r("a", 5), r("c", 1)), byCount, -1));
    // order across different keys matters
    assertTrue(diff(expected, rows(r("a", 5), r("x", 9), r("b", 5), r("c", 1)), byCount, -1).isPresent());
    // a tie group with another member is wrong when it is not the last one
    assertTrue(diff(expected, rows(r("x", 9), r("a", 5), r("z", 5), r("c", 1)), byCount, 4).isPresent());
  }

  @Test
  void theLastTieGroupCutByTheLimitComparesItsKeysOnly() {
    int[] byCount = {1};
    List<List<Object>> expected = rows(r("x", 9), r("a", 1), r("b", 1));
    List<List<Object>> otherTies = rows(r("x", 9), r("q", 1), r("r", 1));
    assertEquals(SAME, diff(expected, otherTies, byCount, 3));
    // without a LIMIT, or with one that did not cut, the last group is compared whole
    assertTrue(diff(expected, otherTies, byCount, -1).isPresent());
    assertTrue(diff(expected, otherTies, byCount, 10).isPresent());
    // the keys of the last group still count
    assertTrue(diff(expected, rows(r("x", 9), r("q", 1), r("r", 2)), byCount, 3).isPresent());
  }

  @Test
  void hiddenSortKeysGroupTheExpectedRows() {
    // DuckDB answers SearchPhrase plus its hidden sort key EventTime; Drill answers SearchPhrase only
    int[] byTime = {1};
    List<List<Object>> expected = rows(r("p", 100L), r("q", 101L), r("r", 101L), r("s", 102L), r("t", 102L));
    assertEquals(SAME, diff(expected, rows(r("p"), r("r"), r("q"), r("u"), r("v")), byTime, 5));
    assertTrue(diff(expected, rows(r("q"), r("p"), r("r"), r("s"), r("t")), byTime, 5).isPresent());
  }

  @Test
  void limitWithoutOrderChecksTheCountOnly() {
    int[] anyRows = {};
    List<List<Object>> expected = rows(r(1L, "a", 1L), r(2L, "b", 1L));
    assertEquals(SAME, diff(expected, rows(r(5L, "e", 1L), r(6L, "f", 3L)), anyRows, 2));
    assertTrue(diff(expected, rows(r(5L, "e", 1L)), anyRows, 2).isPresent());
  }
}
