package io.turboparquet.clickbench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * DuckDB (in memory, through its JDBC driver, found at run time) on a hits file, set up as
 * ClickBench's duckdb-parquet/create.sql sets it up: a view {@code hits} over the file with
 * EventDate as a DATE, and {@code toDateTime(t)} for epoch seconds; plus {@code epochDays(d)} for
 * the answers that return EventDate as Drill reads it (days since 1970).
 */
public final class DuckDbHits implements AutoCloseable {
  private final Connection connection;

  public DuckDbHits(Path file) throws SQLException {
    connection = DriverManager.getConnection("jdbc:duckdb:");
    String path = file.toAbsolutePath().toString().replace("'", "''");
    try (Statement s = connection.createStatement()) {
      s.execute("CREATE VIEW hits AS SELECT * REPLACE (make_date(EventDate) AS EventDate) FROM read_parquet('"
          + path + "', binary_as_string=True)");
      s.execute("CREATE MACRO toDateTime(t) AS epoch_ms(t * 1000)");
      s.execute("CREATE MACRO epochDays(d) AS d - DATE '1970-01-01'");
    }
  }

  /** Every row of the answer, values as the driver returns them. */
  public List<List<Object>> rows(String sql) throws SQLException {
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      return rows(rs);
    }
  }

  /** Every row of a JDBC result set, values as the driver returns them (getObject). */
  public static List<List<Object>> rows(ResultSet rs) throws SQLException {
    int columns = rs.getMetaData().getColumnCount();
    List<List<Object>> rows = new ArrayList<>();
    while (rs.next()) {
      List<Object> row = new ArrayList<>(columns);
      for (int c = 1; c <= columns; c++) {
        row.add(rs.getObject(c));
      }
      rows.add(row);
    }
    return rows;
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
