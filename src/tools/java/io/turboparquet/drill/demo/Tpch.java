package io.turboparquet.drill.demo;

import io.turboparquet.clickbench.ClickBenchQueries.Query;
import io.turboparquet.clickbench.DuckDbOracle;
import java.util.List;

/**
 * TPC-H Q1 and Q6 (bin/drill tpch) on a lineitem file through both readers, every answer checked
 * against DuckDB's ({@link ReaderComparison}). The queries are TPC-H's with the validation
 * parameters substituted (Q1's {@code DATE '1998-12-01' - INTERVAL '90' DAY} as the date it is):
 * Q1 keeps 98.5% of the rows, Q6 about 2%.
 *
 * <p>usage: Tpch --out FILE.jsonl [--repeat N] [--queries 1,6] FILE.parquet
 */
public final class Tpch {
  static final String Q1 = "SELECT l_returnflag, l_linestatus, sum(l_quantity) AS sum_qty,"
      + " sum(l_extendedprice) AS sum_base_price, sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price,"
      + " sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge, avg(l_quantity) AS avg_qty,"
      + " avg(l_extendedprice) AS avg_price, avg(l_discount) AS avg_disc, count(*) AS count_order"
      + " FROM lineitem WHERE l_shipdate <= DATE '1998-09-02'"
      + " GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus";
  static final String Q6 = "SELECT sum(l_extendedprice * l_discount) AS revenue FROM lineitem"
      + " WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01'"
      + " AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24";

  private Tpch() {}

  static List<Query> queries() {
    return List.of(new Query(1, "lineitem", Q1, Q1, new int[] {0, 1}, -1),
        new Query(6, "lineitem", Q6, Q6, null, -1));
  }

  public static void main(String[] args) throws Exception {
    ReaderComparison.Arguments a = ReaderComparison.Arguments.parse(args,
        "Tpch --out FILE.jsonl [--repeat N] [--queries 1,6] FILE.parquet");
    ReaderComparison.runAndExit(queries(), DuckDbOracle.view("lineitem", a.file()), a);
  }
}
