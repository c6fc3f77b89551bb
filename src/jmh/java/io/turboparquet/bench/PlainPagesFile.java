package io.turboparquet.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;

/**
 * Writes a file of required columns, one PLAIN uncompressed page per column chunk, with
 * parquet-java's low-level writer: wide files in seconds, where a record writer would take minutes.
 */
final class PlainPagesFile {
  /** Puts one page's values, and their statistics where wanted, for a column of a row group. */
  interface Values {
    void write(int rowGroup, ColumnDescriptor column, ByteBuffer page, Statistics<?> stats);
  }

  private PlainPagesFile() {}

  /** {@code pageBytes}: room for one page's values (little-endian). */
  static void write(Path file, MessageType schema, int rowGroups, int rows, int pageBytes, Values values)
      throws IOException {
    ParquetFileWriter w = new ParquetFileWriter(new Configuration(), schema,
        new org.apache.hadoop.fs.Path(file.toUri()), ParquetFileWriter.Mode.OVERWRITE);
    w.start();
    for (int g = 0; g < rowGroups; g++) {
      w.startBlock(rows);
      for (ColumnDescriptor column : schema.getColumns()) {
        w.startColumn(column, rows, CompressionCodecName.UNCOMPRESSED);
        Statistics<?> stats = Statistics.createStats(column.getPrimitiveType());
        ByteBuffer page = ByteBuffer.allocate(pageBytes).order(ByteOrder.LITTLE_ENDIAN);
        values.write(g, column, page, stats);
        page.flip();
        w.writeDataPage(rows, page.remaining(), BytesInput.from(page), stats, rows, Encoding.BIT_PACKED,
            Encoding.BIT_PACKED, Encoding.PLAIN);
        w.endColumn();
      }
      w.endBlock();
    }
    w.end(Map.of());
  }
}
