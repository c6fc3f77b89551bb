package io.turboparquet.drill.demo;

import io.turboparquet.clickbench.ClickBenchQueries;
import io.turboparquet.clickbench.DuckDbOracle;

/**
 * ClickBench's 43 Drill queries (bin/drill clickbench) on a hits file through both readers, every
 * answer checked against DuckDB's ({@link ReaderComparison}).
 *
 * <p>usage: ClickBench --out FILE.jsonl [--repeat N] [--queries 1,7,37] FILE.parquet
 */
public final class ClickBench {
  private ClickBench() {}

  public static void main(String[] args) throws Exception {
    ReaderComparison.Arguments a = ReaderComparison.Arguments.parse(args,
        "ClickBench --out FILE.jsonl [--repeat N] [--queries 1,7,37] FILE.parquet");
    ReaderComparison.runAndExit(ClickBenchQueries.all(), DuckDbOracle.hits(a.file()), a);
  }
}
