package io.turboparquet.drill.demo;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** A JDBC connection to a drillbit: timed queries with their query ids, and their profiles. */
final class DrillSession {
  private final Connection connection;

  DrillSession(Connection connection) {
    this.connection = connection;
  }

  /** One query: its id, wall time, and the first row of its answer. */
  record Run(String queryId, double seconds, List<String> columns, List<String> answer) {}

  Run timed(String sql) throws Exception {
    try (Statement statement = connection.createStatement()) {
      long start = System.nanoTime();
      try (ResultSet rs = statement.executeQuery(sql)) {
        ResultSetMetaData meta = rs.getMetaData();
        List<String> columns = new ArrayList<>();
        List<String> answer = new ArrayList<>();
        if (!rs.next()) {
          throw new SQLException("no answer row");
        }
        for (int c = 1; c <= meta.getColumnCount(); c++) {
          columns.add(meta.getColumnLabel(c));
          answer.add(rs.getString(c));
        }
        while (rs.next()) {
          // to the end: closing a result set early cancels the query, and with it its profile
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        return new Run(queryId(rs), seconds, columns, answer);
      }
    }
  }

  /** Drill's JDBC result set knows its query id (org.apache.drill.jdbc.DrillResultSet, not compiled against). */
  private static String queryId(ResultSet rs) throws Exception {
    Class<?> drillResultSet = Class.forName("org.apache.drill.jdbc.DrillResultSet");
    return (String) drillResultSet.getMethod("getQueryId").invoke(rs.unwrap(drillResultSet));
  }

  /**
   * The query's profile. The answer's row can arrive before the query has completed and written
   * its profile, so a missing profile is looked for again for up to 10 s.
   */
  String profile(String queryId) throws SQLException, InterruptedException {
    String sql = "select json from sys.profiles_json where queryId = '" + queryId + "'";
    for (int attempt = 0; ; attempt++) {
      try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
        if (rs.next()) {
          return drained(rs, rs.getString(1));
        }
      }
      if (attempt == 100) {
        throw new SQLException("no profile for query " + queryId);
      }
      Thread.sleep(100);
    }
  }

  /** Every row of the answer, each value as a string. */
  List<List<String>> rows(String sql) throws SQLException {
    try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
      int columns = rs.getMetaData().getColumnCount();
      List<List<String>> rows = new ArrayList<>();
      while (rs.next()) {
        List<String> row = new ArrayList<>(columns);
        for (int c = 1; c <= columns; c++) {
          row.add(rs.getString(c));
        }
        rows.add(row);
      }
      return rows;
    }
  }

  String single(String sql) throws SQLException {
    try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
      if (!rs.next()) {
        throw new SQLException("no row for: " + sql);
      }
      return drained(rs, rs.getString(1));
    }
  }

  /**
   * {@code value}, once {@code rs} is read to its end. A result set closed before its end cancels
   * its query; Drill, interrupted while writing that query's profile, can leave an empty profile
   * file behind, and from then on every {@code sys.profiles_json} listing fails on it and answers
   * one default row instead of the profiles.
   */
  private static String drained(ResultSet rs, String value) throws SQLException {
    while (rs.next()) {
      // to the end
    }
    return value;
  }

  void execute(String sql) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }}
