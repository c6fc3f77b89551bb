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
 * DuckDB (in memory, through its JDBC driver, found at run time) answering a benchmark's queries on
 * a view over a Parquet file: the second engine whose answers Drill's are checked against.
 */
public final class DuckDbOracle implements AutoCloseable {
  private final Connection connection;

  private DuckDbOracle(String... setup) throws SQLException {
    connection = DriverManager.getConnection("jdbc:duckdb:");
    try (Statement s = connection.createStatement()) {
      for (String sql : setup) {
        s.execute(sql);
      }
    }
  }

  /**
   * A hits file set up as ClickBench's duckdb-parquet/create.sql sets it up: a view {@code hits}
   * with EventDate as a DATE, and {@code toDateTime(t)} for epoch seconds; plus
   * {@code epochDays(d)} for the answers that return EventDate as Drill reads it (days since 1970).
   */
  public static DuckDbOracle hits(Path file) throws SQLException {
    return new DuckDbOracle("CREATE VIEW hits AS SELECT * REPLACE (make_date(EventDate) AS EventDate) FROM "
        + readParquet(file), "CREATE MACRO toDateTime(t) AS epoch_ms(t * 1000)",
        "CREATE MACRO epochDays(d) AS d - DATE '1970-01-01'");
  }

  /** A view {@code name} of the file as it is. */
  public static DuckDbOracle view(String name, Path file) throws SQLException {
    return new DuckDbOracle("CREATE VIEW " + name + " AS SELECT * FROM " + readParquet(file));
  }

  private static String readParquet(Path file) {
    return "read_parquet('" + file.toAbsolutePath().toString().replace("'", "''") + "', binary_as_string=True)";
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
