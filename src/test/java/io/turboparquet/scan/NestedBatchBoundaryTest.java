package io.turboparquet.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.FooterReader;
import io.turboparquet.io.TrackingBufferSource;
import io.turboparquet.testing.GeneratedFile;
import io.turboparquet.testing.OracleDigest;
import io.turboparquet.testing.TestFileGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A batch of N rows holds N whole records in every column, nested ones included: the Drill
 * plugin's record assembly relies on it. For batch sizes that do and do not divide the page sizes,
 * every nested column's batch starts a record (repetition level 0), holds exactly N level entries
 * with repetition level 0, and the level entries of all batches add up to parquet-java's.
 */
class NestedBatchBoundaryTest {
  @Test
  void nestedBatchesHoldWholeRecords(@TempDir java.nio.file.Path dir) throws IOException {
    GeneratedFile file = TestFileGenerator.nestedShapes(dir, CompressionCodecName.SNAPPY, false, true, 1000, 8201);
    Path path = ScanHarness.hadoopPath(file.path());
    try (ScanHarness harness = new ScanHarness()) {
      FileMetadata meta;
      try (FSDataInputStream in = harness.fileSystem().open(path)) {
        meta = FooterReader.read(in, file.path().toString(), Files.size(file.path()));
      }
      List<ColumnDescriptor> nested = meta.schema().columns().stream().filter(c -> !c.isFlat()).toList();
      assertTrue(nested.size() > 10, "nested columns: " + nested.size());
      assertTrue(meta.rowGroups().size() > 1, "row groups: " + meta.rowGroups().size());
      long[] expected = new long[nested.size()];
      for (int c = 0; c < nested.size(); c++) {
        expected[c] = OracleDigest.readColumn(file.path(), nested.get(c).dottedPath()).entries().size();
      }
      for (int batchSize : new int[] {1, 7, 64}) {
        long[] entries = new long[nested.size()];
        TrackingBufferSource buffers = new TrackingBufferSource();
        ScanOptions options = ScanOptions.builder().batchSize(batchSize).build();
        for (int g = 0; g < meta.rowGroups().size(); g++) {
          try (RowGroupScanner scanner = new RowGroupScanner(harness.context(options, buffers, new ScanMetrics()),
              meta, path, g, nested)) {
            Batch batch;
            while ((batch = scanner.next()) != null) {
              for (int c = 0; c < nested.size(); c++) {
                ColumnBatch cb = batch.columns().get(c);
                assertEquals(batch.rows(), cb.rowCount());
                int starts = 0;
                for (int e = 0; e < cb.entryCount(); e++) {
                  starts += cb.repetitionLevels().getByte(e) == 0 ? 1 : 0;
                }
                String what = nested.get(c).dottedPath() + " batch at row " + batch.firstRow() + " of group " + g;
                assertEquals(0, cb.repetitionLevels().getByte(0), what);
                assertEquals(batch.rows(), starts, what);
                entries[c] += cb.entryCount();
              }
            }
          }
        }
        assertEquals(0, buffers.outstanding(), "buffers leaked");
        for (int c = 0; c < nested.size(); c++) {
          assertEquals(expected[c], entries[c], nested.get(c).dottedPath() + " level entries, batch " + batchSize);
        }
      }
    }
  }
}
