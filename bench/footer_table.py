#!/usr/bin/env python3
"""Markdown table of a FooterBenchmark JMH JSON result (-rf json): one row per file, medians of
the measured iterations in ms per decode, min-max in brackets, and parquet-java's NO_FILTER time
over turboFull and turboProjected.

    python3 bench/footer_table.py bench/results/footer-jmh.json
"""
import json
import statistics
import sys

METHODS = ["turboFull", "turboNoStats", "turboProjected", "parquetJavaNoFilter", "parquetJavaThriftOnly"]


def main(path):
    cells = {}
    for r in json.load(open(path)):
        method = r["benchmark"].rsplit(".", 1)[1]
        p = r["params"]
        key = (int(p["columns"]), p["type"], p["statistics"])
        raw = r["primaryMetric"]["rawData"][0]
        scale = {"ms/op": 1.0, "us/op": 1e-3, "s/op": 1e3}[r["primaryMetric"]["scoreUnit"]]
        cells.setdefault(key, {})[method] = [x * scale for x in raw]

    def fmt(values):
        m = statistics.median(values)
        digits = 2 if m < 10 else (1 if m < 100 else 0)
        return f"{m:.{digits}f} ({min(values):.{digits}f}-{max(values):.{digits}f})"

    print("| N | type | stats | turboFull | turboNoStats | turboProjected | parquet-java NO_FILTER "
          "| parquet-java Thrift only | NO_FILTER / turboFull | NO_FILTER / turboProjected |")
    print("|---:|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for key in sorted(cells, key=lambda k: (k[0], k[1], k[2] != "true")):
        c = cells[key]
        row = [str(key[0]), key[1], "yes" if key[2] == "true" else "no"]
        row += [fmt(c[m]) if m in c else "" for m in METHODS]
        pj = statistics.median(c["parquetJavaNoFilter"]) if "parquetJavaNoFilter" in c else None
        for ours in ("turboFull", "turboProjected"):
            row.append(f"{pj / statistics.median(c[ours]):.1f}x" if pj and ours in c else "")
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main(sys.argv[1])
