#!/usr/bin/env python3
"""The Markdown table of one `bin/drill clickbench` run, from its bench-data/clickbench-*.jsonl:
per query the hot medians of both readers, their ratio, the built-in reader's error and whether
turbo-parquet's answer equals DuckDB's; then the hot sums over the queries both readers ran.

usage: bench/clickbench_table.py bench-data/clickbench-DATE.jsonl"""
import json
import sys


def main(path):
    queries = [q for q in map(json.loads, open(path)) if "turbo_vs_duckdb" in q]
    print("| query | built-in ms | turbo-parquet ms | ratio | turbo-parquet vs DuckDB | built-in |")
    print("|---|---:|---:|---:|---|---|")
    sums = [0.0, 0.0]
    both = 0
    for q in queries:
        p, t = q["parquet_hot_median_ms"], q["turbo_hot_median_ms"]
        ok = q["parquet_error"] is None and q["turbo_error"] is None
        if ok:
            sums[0] += p
            sums[1] += t
            both += 1
        builtin = q["parquet_vs_duckdb"] if q["parquet_error"] is None else "fails: " + q["parquet_error"]
        print("| Q%d | %s | %s | %s | %s | %s |" % (
            q["query"], "-" if q["parquet_error"] else "%.0f" % p, "-" if q["turbo_error"] else "%.0f" % t,
            "%.2fx" % (p / t) if ok else "-", q["turbo_vs_duckdb"], builtin))
    if both:
        print("| **sum of %d** | **%.1f s** | **%.1f s** | **%.2fx** | | |" % (
            both, sums[0] / 1e3, sums[1] / 1e3, sums[0] / sums[1]))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
