package io.turboparquet.drill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.FileMetadata;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.junit.jupiter.api.Test;

/** Keeps PlanningFooterBenchmark runnable: its set-up and one call of each stage, which must agree. */
class PlanningBenchmarksSmokeTest {
  @Test
  void everyStageDescribesTheSameFile() throws Exception {
    PlanningFooterBenchmark b = new PlanningFooterBenchmark();
    b.columns = 30;
    b.setup();
    FileMetadata ours = b.turboDecode();
    ParquetMetadata parquetJava = b.parquetJavaDecode();
    ParquetMetadata converted = b.turboConvert();
    assertEquals(20, ours.rowGroups().size());
    assertEquals(30, ours.schema().columns().size());
    assertEquals(parquetJava.getBlocks().size(), converted.getBlocks().size());
    for (int c = 0; c < 30; c++) {
      ColumnChunkMetaData expected = parquetJava.getBlocks().get(7).getColumns().get(c);
      ColumnChunkMetaData actual = converted.getBlocks().get(7).getColumns().get(c);
      assertEquals(expected.getStatistics().getNumNulls(), actual.getStatistics().getNumNulls());
      PrimitiveTypeName type = expected.getPrimitiveType().getPrimitiveTypeName();
      if (type == PrimitiveTypeName.FLOAT || type == PrimitiveTypeName.DOUBLE) {
        // No nan_count in this file: the bounds may hide NaN, so Drill does not get them (ParquetJavaFooters).
        assertTrue(expected.getStatistics().hasNonNullValue());
        assertFalse(actual.getStatistics().hasNonNullValue(), expected.getPath().toDotString());
      } else {
        assertEquals(expected.getStatistics().genericGetMax(), actual.getStatistics().genericGetMax());
      }
    }
    assertEquals(20, b.drillCollector().getFileMetadata().getRowGroups().size());
  }
}
