package io.turboparquet.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.io.TrackingBufferSource;
import io.turboparquet.testing.GeneratedFile;
import io.turboparquet.testing.OracleDigest;
import io.turboparquet.testing.TestFileGenerator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** README.md's example of the core's API, as it is printed there, against parquet-java's values. */
class ReadmeExampleTest {

  // README.md, "The scan core in Java": from here...
  static long sumOfOrderKeys(org.apache.hadoop.fs.Path file) throws IOException {
    ScanOptions options = ScanOptions.defaults();
    long sum = 0;
    try (ScanPools pools = ScanPools.forOptions(options)) {
      ScanContext context = new ScanContext(file.getFileSystem(new Configuration()), options,
          new TrackingBufferSource(), pools.scanPool(), pools.decodePool(), new ScanMetrics());
      try (ParquetFileScanner scanner = ParquetFileScanner.open(context, file, List.of("l_orderkey"))) {
        for (Batch batch; (batch = scanner.next()) != null; ) {
          ColumnBatch keys = batch.columns().get(0); // INT64: 8 bytes per row, little-endian
          for (int row = 0; row < batch.rows(); row++) {
            sum += keys.values().values().getLongLE(8 * row);
          }
        }
      }
    }
    return sum;
  }
  // ...to here.

  @Test
  void sumsTheColumnAsParquetJavaReadsIt(@TempDir Path dir) throws Exception {
    GeneratedFile file = TestFileGenerator.lineitemLike(dir, 20_000, CompressionCodecName.SNAPPY, 64 * 1024);
    long expected = OracleDigest.readColumn(file.path(), "l_orderkey").entries().stream()
        .mapToLong(e -> (Long) e.value()).sum();
    assertEquals(expected, sumOfOrderKeys(new org.apache.hadoop.fs.Path(file.path().toUri())));
  }

  /** The example decodes from the footer only the chunks of the column it reads. */
  @Test
  void theScannerDecodesOnlyItsColumnsChunksFromTheFooter(@TempDir Path dir) throws Exception {
    GeneratedFile file = TestFileGenerator.lineitemLike(dir, 20_000, CompressionCodecName.SNAPPY, 64 * 1024);
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file.path().toUri());
    ScanOptions options = ScanOptions.defaults();
    try (ScanPools pools = ScanPools.forOptions(options)) {
      ScanContext context = new ScanContext(path.getFileSystem(new Configuration()), options,
          new TrackingBufferSource(), pools.scanPool(), pools.decodePool(), new ScanMetrics());
      try (ParquetFileScanner scanner = ParquetFileScanner.open(context, path, List.of("l_orderkey"))) {
        int leaf = scanner.projection().get(0).index();
        int leaves = scanner.metadata().schema().columns().size();
        assertTrue(leaves > 1 && scanner.metadata().rowGroups().size() > 1);
        for (RowGroupMeta rg : scanner.metadata().rowGroups()) {
          for (int i = 0; i < leaves; i++) {
            assertEquals(i == leaf, rg.isDecoded(i), "row group " + rg.index() + " leaf " + i);
          }
        }
      }
    }
  }
}
