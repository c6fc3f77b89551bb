package io.turboparquet.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.testing.OracleColumn;
import io.turboparquet.testing.OracleDigest;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code FileMetaData.column_orders} and {@code Statistics.nan_count}, decoded from parquet-testing's
 * floating_orders_nan_count.parquet (parquet-java 1.18, FLOAT / DOUBLE / FLOAT16 each in IEEE 754
 * total order and in the type order, five row groups): every leaf's order as its name says, and
 * every chunk's nan_count equal to the NaN parquet-java's reader returns for that row group.
 */
class ColumnOrdersTest {
  @Test
  void ordersAndNanCountsOfParquetJava118() throws Exception {
    Path file = Path.of(getClass().getResource("/parquet-testing/floating_orders_nan_count.parquet").toURI());
    FileMetadata footer;
    try (var in = org.apache.hadoop.fs.FileSystem.getLocal(new org.apache.hadoop.conf.Configuration())
        .open(new org.apache.hadoop.fs.Path(file.toUri()))) {
      footer = FooterReader.read(in, file.toString(), Files.size(file),
          FooterOptions.DEFAULT.withStatistics(FooterOptions.ColumnSelector.ALL));
    }
    assertEquals(footer.schema().columns().size(), footer.columnOrders().size());
    int checked = 0;
    for (ColumnDescriptor column : footer.schema().columns()) {
      String name = column.dottedPath();
      ColumnOrder expected = name.contains("ieee754") ? ColumnOrder.IEEE_754_TOTAL : ColumnOrder.TYPE_DEFINED;
      assertEquals(expected, footer.columnOrder(column), name);
      OracleColumn values = OracleDigest.readColumn(file, name);
      int row = 0;
      for (RowGroupMeta rg : footer.rowGroups()) {
        long nan = 0;
        for (int i = 0; i < rg.numRows(); i++) {
          nan += isNaN(values.entries().get(row++).value()) ? 1 : 0;
        }
        ColumnStatistics s = rg.column(column.index()).statistics();
        assertEquals(nan, s.nanCount(), name + " row group " + rg.index());
        checked += nan > 0 ? 1 : 0;
      }
    }
    assertTrue(checked >= 12, "chunks with NaN checked: " + checked);
  }

  private static boolean isNaN(Object v) {
    if (v instanceof Float f) {
      return f.isNaN();
    }
    if (v instanceof Double d) {
      return d.isNaN();
    }
    int half = ByteBuffer.wrap((byte[]) v).order(ByteOrder.LITTLE_ENDIAN).getShort() & 0xffff; // FLOAT16
    return (half & 0x7c00) == 0x7c00 && (half & 0x3ff) != 0;
  }
}
