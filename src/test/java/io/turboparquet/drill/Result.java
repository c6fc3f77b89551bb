package io.turboparquet.drill;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.drill.exec.physical.rowSet.DirectRowSet;
import org.apache.drill.exec.physical.rowSet.RowSetReader;
import org.apache.drill.exec.record.metadata.ColumnMetadata;
import org.apache.drill.test.ClientFixture;
import org.apache.drill.test.QueryRowSetIterator;

/**
 * All batches of a query: the column names and types (of the first batch), the rows as sorted
 * strings, and the cells in the order the query returned them. Binary cells are hex.
 */
record Result(List<String> schema, List<String> rows, List<List<String>> cells) {

  static Result of(ClientFixture client, String sql) throws Exception {
    return of(client.queryBuilder().sql(sql).rowSetIterator());
  }

  static Result of(QueryRowSetIterator batches) {
    List<String> schema = null;
    List<String> rows = new ArrayList<>();
    List<List<String>> cells = new ArrayList<>();
    for (DirectRowSet batch : batches) {
      try {
        List<String> batchSchema = new ArrayList<>();
        for (ColumnMetadata c : batch.schema()) {
          batchSchema.add(c.name() + " " + c.majorType().toString().replace('\n', ' '));
        }
        if (schema == null) {
          schema = batchSchema;
        }
        RowSetReader reader = batch.reader();
        while (reader.next()) {
          StringBuilder row = new StringBuilder();
          List<String> cellsOfRow = new ArrayList<>();
          for (int i = 0; i < reader.columnCount(); i++) {
            String v = text(reader.column(i).getObject());
            cellsOfRow.add(v);
            row.append(v).append(" | ");
          }
          rows.add(row.toString());
          cells.add(cellsOfRow);
        }
      } finally {
        batch.clear();
      }
    }
    rows.sort(null);
    return new Result(schema == null ? List.of() : schema, rows, cells);
  }

  static String text(Object v) {
    return v instanceof byte[] b ? HexFormat.of().formatHex(b) : String.valueOf(v);
  }
}
