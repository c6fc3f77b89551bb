package io.turboparquet.clickbench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GenerateHitsTest {
  private static final int ROWS = 5_000;

  /** hits.parquet's columns by type, as ClickBench's clickhouse-parquet/create.sql declares them. */
  @Test
  void theSchemaOfHitsParquet() {
    MessageType schema = HitsSchema.messageType();
    assertEquals(105, schema.getFieldCount());
    Map<String, Integer> byType = new TreeMap<>();
    for (Type t : schema.getFields()) {
      assertEquals(Type.Repetition.REQUIRED, t.getRepetition());
      byType.merge(t.asPrimitiveType().getPrimitiveTypeName() + " " + t.getLogicalTypeAnnotation(), 1, Integer::sum);
    }
    // SMALLINT 48, INTEGER 19, BIGINT 6 + TIMESTAMP 3, TEXT 26 + CHAR 1 + VARCHAR 1, Date 1
    assertEquals(Map.of("INT32 INTEGER(16,true)", 48, "INT32 null", 19, "INT64 null", 9, "BINARY STRING", 28,
        "INT32 INTEGER(16,false)", 1), byType);
    assertEquals(List.of("WatchID", "JavaEnable", "Title", "GoodEvent", "EventTime", "EventDate"),
        schema.getFields().subList(0, 6).stream().map(Type::getName).toList());
    assertEquals("INT32 INTEGER(16,false)", schema.getType("EventDate").asPrimitiveType().getPrimitiveTypeName()
        + " " + schema.getType("EventDate").getLogicalTypeAnnotation());
    assertEquals("CLID", schema.getFields().get(104).getName());
  }

  @Test
  void sameSeedSameFileOtherSeedOtherData(@TempDir Path dir) throws Exception {
    Path a = dir.resolve("a.parquet");
    Path b = dir.resolve("b.parquet");
    Path c = dir.resolve("c.parquet");
    GenerateHits.write(a, ROWS, 1 << 20, CompressionCodecName.SNAPPY, 36);
    GenerateHits.write(b, ROWS, 1 << 20, CompressionCodecName.SNAPPY, 36);
    GenerateHits.write(c, ROWS, 1 << 20, CompressionCodecName.SNAPPY, 37);
    assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));
    assertFalse(Arrays.equals(Files.readAllBytes(a), Files.readAllBytes(c)));
    assertFalse(Files.exists(dir.resolve("a.parquet.partial")));
  }

  /** What ClickBench's queries filter on is there: July 2013, CounterID 62, the looked-up ids. */
  @Test
  void theDataTheQueriesLookFor(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("hits.parquet");
    GenerateHits.write(file, 20_000, 1 << 20, CompressionCodecName.SNAPPY, 36);
    try (DuckDbOracle duckDb = DuckDbOracle.hits(file)) {
      List<Object> row = duckDb.rows("SELECT epochDays(MIN(EventDate)), epochDays(MAX(EventDate)), "
          + "COUNT(*) FILTER (WHERE CounterID = 62), COUNT(*) FILTER (WHERE SearchPhrase = ''), "
          + "COUNT(*) FILTER (WHERE UserID = 435090932899640449), "
          + "COUNT(*) FILTER (WHERE RefererHash = 3594120000172545465), "
          + "COUNT(*) FILTER (WHERE URLHash = 2868770270353813622), COUNT(*) FILTER (WHERE AdvEngineID = 0), "
          + "COUNT(*) FILTER (WHERE MobilePhoneModel = ''), COUNT(*) FILTER (WHERE URL LIKE '%google%'), "
          + "COUNT(*) FILTER (WHERE EventDate <> CAST(toDateTime(EventTime) AS DATE)) FROM hits").get(0);
      long[] v = row.stream().mapToLong(o -> ((Number) o).longValue()).toArray();
      assertEquals(15887, v[0]); // 2013-07-01
      assertEquals(15917, v[1]); // 2013-07-31
      assertBetween(0.15, 0.25, v[2]);
      assertBetween(0.8, 0.95, v[3]);
      assertBetween(0.001, 0.05, v[4]);
      assertBetween(0.01, 0.05, v[5]);
      assertBetween(0.002, 0.05, v[6]);
      assertBetween(0.9, 0.99, v[7]);
      assertBetween(0.85, 0.95, v[8]);
      assertBetween(0.005, 0.2, v[9]);
      assertEquals(0, v[10]); // EventDate is EventTime's day
    }
  }

  private static void assertBetween(double low, double high, long count) {
    double share = count / 20_000.0;
    if (share < low || share > high) {
      throw new AssertionError("share " + share + " not in [" + low + ", " + high + "]");
    }
  }
}
