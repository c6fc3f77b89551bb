package io.turboparquet.scan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.turboparquet.decode.ValueSink;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.FooterReader;
import io.turboparquet.io.TrackingBufferSource;
import io.turboparquet.testing.GeneratedFile;
import io.turboparquet.testing.OracleColumn;
import io.turboparquet.testing.OracleDigest;
import io.turboparquet.testing.TestFileGenerator;
import io.turboparquet.testing.TestFileGenerator.StringEncoding;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Batches bounded in bytes: on files with strings of mixed sizes (some of several MB) in flat and
 * nested (LIST, MAP) columns, a small {@code batchBytes} makes batches end early many times. Every
 * column of every batch then holds the batch's rows, whole records only (a nested column's batch
 * starts a record and holds as many record starts as rows), at most {@code batchBytes} bytes of
 * values unless the batch is a single record, and all values, levels and nulls equal parquet-java's
 * in order; with parallel decode on and off and decode-ahead on and off, for every string encoding.
 */
class BatchBytesTest {
  @TempDir
  static java.nio.file.Path dir;

  @ParameterizedTest
  @EnumSource(StringEncoding.class)
  void batchesStayWithinTheirBytesAndEqualParquetJava(StringEncoding encoding) throws IOException {
    CompressionCodecName codec = encoding == StringEncoding.DELTA_LENGTH ? CompressionCodecName.UNCOMPRESSED
        : CompressionCodecName.SNAPPY;
    GeneratedFile file = TestFileGenerator.largeStrings(dir, codec, encoding, 240, 4242 + encoding.ordinal());
    List<OracleColumn> oracle = OracleDigest.read(file.path(), null);
    Path path = ScanHarness.hadoopPath(file.path());
    try (ScanHarness harness = new ScanHarness()) {
      FileMetadata meta;
      try (FSDataInputStream in = harness.fileSystem().open(path)) {
        meta = FooterReader.read(in, file.path().toString(), Files.size(file.path()));
      }
      List<ColumnDescriptor> columns = meta.schema().columns();
      assertEquals(oracle.size(), columns.size());
      long largest = oracle.stream().flatMap(c -> c.entries().stream())
          .mapToLong(e -> e.value() instanceof byte[] b ? b.length : 0).max().orElse(0);
      assertTrue(largest > 1 << 20, "the file has values of over 1 MB: " + largest);
      for (long limit : new long[] {256 << 10, 3 << 20}) {
        for (boolean parallel : new boolean[] {false, true}) {
          for (boolean ahead : new boolean[] {false, true}) {
            ScanOptions options = ScanOptions.builder().batchSize(1000).batchBytes(limit).parallelDecode(parallel)
                .decodeAhead(ahead).build();
            String what = file + " batchBytes " + limit + " parallel " + parallel + " ahead " + ahead;
            int early = scan(harness, meta, path, columns, oracle, options, what);
            int expected = limit < 1 << 20 ? 10 : 3;
            assertTrue(early >= expected, what + ": only " + early + " batches ended early");
          }
        }
      }
    }
  }

  /** Scans every row group, checks each batch against the oracle; returns the batches that ended early. */
  private static int scan(ScanHarness harness, FileMetadata meta, Path path, List<ColumnDescriptor> columns,
      List<OracleColumn> oracle, ScanOptions options, String what) throws IOException {
    TrackingBufferSource buffers = new TrackingBufferSource();
    int[] cursor = new int[columns.size()];
    int early = 0;
    for (int g = 0; g < meta.rowGroups().size(); g++) {
      long rowsInGroup = meta.rowGroups().get(g).numRows();
      long rows = 0;
      try (RowGroupScanner scanner = new RowGroupScanner(harness.context(options, buffers, new ScanMetrics()), meta,
          path, g, columns)) {
        Batch batch;
        while ((batch = scanner.next()) != null) {
          assertEquals(rows, batch.firstRow(), what);
          if (batch.rows() < Math.min(options.decode().batchSize(), rowsInGroup - rows)) {
            early++;
          }
          for (int c = 0; c < columns.size(); c++) {
            String at = what + ": " + columns.get(c).dottedPath() + " batch at row " + rows + " of group " + g;
            ColumnBatch cb = batch.columns().get(c);
            assertEquals(batch.rows(), cb.rowCount(), at);
            long bytes = cb.values().byteSize();
            assertTrue(bytes <= options.decode().batchBytes() || batch.rows() == 1,
                at + ": " + bytes + " bytes in " + batch.rows() + " rows");
            cursor[c] = check(cb, oracle.get(c), cursor[c], at);
          }
          rows += batch.rows();
          scanner.decodeAhead();
        }
      }
      assertEquals(rowsInGroup, rows, what + ": rows of group " + g);
    }
    for (int c = 0; c < columns.size(); c++) {
      assertEquals(oracle.get(c).entries().size(), cursor[c], what + ": entries of " + columns.get(c).dottedPath());
    }
    assertEquals(0, buffers.outstanding(), what + ": buffers leaked");
    return early;
  }

  /** Compares a column's batch with the oracle's entries from {@code from} on; returns the next entry. */
  private static int check(ColumnBatch cb, OracleColumn oracle, int from, String at) {
    List<OracleColumn.Entry> entries = oracle.entries();
    ColumnDescriptor column = cb.column();
    int maxDef = column.maxDefinitionLevel();
    int next = from;
    if (column.isFlat()) {
      for (int i = 0; i < cb.rowCount(); i++) {
        OracleColumn.Entry e = entries.get(next++);
        boolean defined = cb.validity() == null || cb.validity().getByte(i) != 0;
        assertEquals(e.definitionLevel() == maxDef, defined, at + " row " + i);
        if (defined) {
          assertValue(e.value(), cb.values(), i, at + " row " + i);
        }
      }
      return next;
    }
    assertEquals(0, cb.repetitionLevels().getByte(0), at + ": starts inside a record");
    int starts = 0;
    int value = 0;
    for (int j = 0; j < cb.entryCount(); j++) {
      OracleColumn.Entry e = entries.get(next++);
      int rep = cb.repetitionLevels().getByte(j);
      int def = cb.definitionLevels().getByte(j);
      starts += rep == 0 ? 1 : 0;
      assertEquals(e.repetitionLevel(), rep, at + " entry " + j);
      assertEquals(e.definitionLevel(), def, at + " entry " + j);
      if (def == maxDef) {
        assertValue(e.value(), cb.values(), value++, at + " entry " + j);
      }
    }
    assertEquals(cb.rowCount(), starts, at + ": record starts");
    assertEquals(cb.nonNullCount(), value, at + ": defined values");
    return next;
  }

  private static void assertValue(Object expected, ValueSink values, int slot, String at) {
    if (expected instanceof byte[] b) {
      ByteBuf offsets = values.offsets();
      int start = offsets.getIntLE(slot << 2);
      int end = offsets.getIntLE((slot + 1) << 2);
      byte[] actual = new byte[end - start];
      values.values().getBytes(start, actual);
      assertArrayEquals(b, actual, at);
    } else if (expected instanceof Long l) {
      assertEquals(l.longValue(), values.values().getLongLE(8 * slot), at);
    } else {
      assertEquals(((Integer) expected).intValue(), values.values().getIntLE(4 * slot), at);
    }
  }
}
