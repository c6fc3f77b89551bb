package io.turboparquet.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.io.TrackingBufferSource;
import java.io.IOException;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A wide file with large chunks: with an 8 MB buffer setting and no budget the read buffers grow
 * with the column count; with a budget the scan's peak direct memory stays near the budget.
 */
class MemoryBudgetTest {
  private static final int COLUMNS = 300;
  private static final int ROWS = 12_000; // 96 KB of INT64 per column chunk
  @TempDir static java.nio.file.Path dir;
  private static java.nio.file.Path file;

  @BeforeAll
  static void writeWideFile() throws IOException {
    Types.MessageTypeBuilder b = Types.buildMessage();
    for (int c = 0; c < COLUMNS; c++) {
      b.required(PrimitiveTypeName.INT64).named("c" + c);
    }
    MessageType schema = b.named("wide");
    file = dir.resolve("wide.parquet");
    Random random = new Random(7);
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new Path(file.toUri()))
        .withConf(new Configuration()).withType(schema).withCompressionCodec(CompressionCodecName.UNCOMPRESSED)
        .withDictionaryEncoding(false).withPageSize(8 * 1024).withRowGroupSize(1L << 30).build()) {
      for (int r = 0; r < ROWS; r++) {
        Group g = groups.newGroup();
        for (int c = 0; c < COLUMNS; c++) {
          g.add(c, random.nextLong());
        }
        writer.write(g);
      }
    }
  }

  private static long peak(ScanOptions options) throws IOException {
    try (ScanHarness harness = new ScanHarness()) {
      TrackingBufferSource buffers = new TrackingBufferSource();
      ScanMetrics metrics = new ScanMetrics();
      long rows = 0;
      try (ParquetFileScanner scanner = ParquetFileScanner.open(harness.context(options, buffers, metrics),
          ScanHarness.hadoopPath(file), null)) {
        Batch batch;
        while ((batch = scanner.next()) != null) {
          rows += batch.rows();
        }
      }
      assertEquals(ROWS, rows);
      assertEquals(0, buffers.outstanding());
      return buffers.peakBytes();
    }
  }

  @Test
  void theBudgetBoundsPeakMemoryWhateverTheColumnCount() throws IOException {
    ScanOptions base = ScanOptions.builder().bufferSize(8 << 20).batchSize(1024).build();
    long unbounded = peak(base.toBuilder().memoryBudget(1L << 40).build());
    long budget = 8L << 20;
    long bounded = peak(base.toBuilder().memoryBudget(budget).build());
    // Without a budget every column buffers its whole 96 KB chunk: about 29 MB.
    assertTrue(unbounded > 25L << 20, "unbounded peak " + unbounded);
    // With one: the budget plus, per column, the page being decoded and the batch (a few KB each).
    long perColumnWorkingSet = 3 * 8 * 1024 + 2 * 8 * 1024;
    assertTrue(bounded < budget + COLUMNS * perColumnWorkingSet, "bounded peak " + bounded);
    assertTrue(bounded < unbounded / 2, "bounded " + bounded + " vs unbounded " + unbounded);
  }
}
