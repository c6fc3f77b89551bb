#!/usr/bin/env python3
"""Markdown tables of `bin/drill selective` results (docs/benchmarks.md, "Selective scans inside
Drill"): medians per case and width of the two formats' query wall time, their ratio,
Drill's floor (the same query on the one-page file), bytes read, what turbo-parquet skipped; then
where the time goes (planning, the rest of the profile, the scan operator, outside the profile: the
JDBC client).

usage: bench/selective_table.py RESULTS.jsonl
"""
import json
import statistics
import sys
from collections import defaultdict


def mb(v):
    return f"{v / 1e6:.1f} MB" if v >= 1e5 else f"{v / 1e3:.0f} KB" if v else "0"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    lines = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
    runs = defaultdict(list)
    for r in lines:
        runs[(r["width"], r["case"], r["table"], r["format"])].append(r)
    cases = list(dict.fromkeys(r["case"] for r in lines))
    widths = sorted({r["width"] for r in lines})

    def med(w, c, t, f, key):
        return statistics.median(key(r) for r in runs[(w, c, t, f)])

    def last(w, c, t, f):
        return runs[(w, c, t, f)][-1]

    print("| case | rows kept | width | built-in ms | turbo ms | **ratio** | floor ms (built-in / turbo) "
          "| turbo / floor | built-in / floor | bytes read built-in | bytes read turbo | turbo skipped |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for w in widths:
        for c in cases:
            if (w, c, "main", "parquet") not in runs:
                continue
            d = med(w, c, "main", "parquet", lambda r: r["wall_ms"])
            t = med(w, c, "main", "turbo-parquet", lambda r: r["wall_ms"])
            fd = med(w, c, "floor", "parquet", lambda r: r["wall_ms"])
            ft = med(w, c, "floor", "turbo-parquet", lambda r: r["wall_ms"])
            rd = last(w, c, "main", "parquet")
            rt = last(w, c, "main", "turbo-parquet")
            m = rt["scan_metrics"]
            skipped = []
            if m.get("NUM_PAGES_SKIPPED"):
                skipped.append(f"{m['NUM_PAGES_SKIPPED']} pages, {m['NUM_ROWS_SKIPPED']:,} rows")
            pruned = m.get("NUM_ROWGROUPS_PRUNED_BY_DICTIONARY", 0) + m.get("NUM_ROWGROUPS_PRUNED_BY_BLOOM_FILTER", 0)
            if pruned:
                skipped.append(f"{pruned} row group (bloom filter)" if m.get("NUM_ROWGROUPS_PRUNED_BY_BLOOM_FILTER")
                               else f"{pruned} row group (dictionary)")
            expected = rd["answer"][0]
            print(f"| {c} | {int(expected):,} ({100 * rd['fraction']:.3g}%) | {w} | {d:.0f} | {t:.0f} | **{d / t:.1f}x** "
                  f"| {fd:.0f} / {ft:.0f} | {t / ft:.2f}x | {d / fd:.1f}x | {mb(rd['bytes_read'])} "
                  f"| {mb(rt['bytes_read'])} | {', '.join(skipped) or '-'} |")
    print()
    print("| case | width | format | wall | planning | rest of the profile | scan operator | outside the profile "
          "(JDBC) | rows out of the scan |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|")
    for w in widths:
        for c in cases:
            for t, f in (("main", "parquet"), ("main", "turbo-parquet"), ("floor", "turbo-parquet")):
                if (w, c, t, f) not in runs:
                    continue
                wall = med(w, c, t, f, lambda r: r["wall_ms"])
                plan = med(w, c, t, f, lambda r: r["planning_ms"])
                prof = med(w, c, t, f, lambda r: r["profile_ms"])
                scan = med(w, c, t, f, lambda r: r["scan_max_ms"])
                name = ("floor, " if t == "floor" else "") + ("built-in" if f == "parquet" else "turbo")
                print(f"| {c} | {w} | {name} | {wall:.0f} | {plan:.0f} | {prof - plan:.0f} | {scan:.0f} "
                      f"| {wall - prof:.0f} | {last(w, c, t, f)['scan_rows']:,} |")
    loads = [r["load1"] for r in lines]
    print()
    print(f"{len(lines)} runs, {lines[0]['utc'][:19]} to {lines[-1]['utc'][:19]} UTC, "
          f"1-minute load {min(loads):.2f}-{max(loads):.2f} (the benchmark's own drillbit included)")


if __name__ == "__main__":
    main()
