package io.turboparquet.drill;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.turboparquet.format.FileMetadata;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
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
    assertEquals(parquetJava.getBlocks().get(7).getColumns().get(29).getStatistics().genericGetMax(),
        converted.getBlocks().get(7).getColumns().get(29).getStatistics().genericGetMax());
    assertEquals(20, b.drillCollector().getFileMetadata().getRowGroups().size());
    assertEquals(20, b.turboDirect().getFileMetadata().getRowGroups().size());
  }
}
