#!/usr/bin/env python3
"""Bar charts (SVG, standard library only) of Drill benchmark results.

`bin/drill bench` results: median scan-operator time (the longest scan operator of each query) per
file and width, Drill's parquet reader against turbo-parquet, with the ratio over each pair.

`bin/drill selective` results (lines with a "case"): median query wall time per case and width,
Drill's parquet reader, turbo-parquet, and Drill's floor (the same query on the one-page file,
through turbo-parquet), with the ratio built-in / turbo-parquet under each group.

usage: bench/drill_plot.py RESULTS.jsonl OUT.svg
"""
import json
import statistics
import sys
from collections import defaultdict


def selective(lines, out_path):
    runs = defaultdict(list)
    for r in lines:
        series = "floor" if r["table"] == "floor" else r["format"]
        if r["table"] == "floor" and r["format"] != "turbo-parquet":
            continue
        runs[(r["width"], r["case"], series)].append(r["wall_ms"])
    cases = list(dict.fromkeys(r["case"] for r in lines))
    groups = sorted({(w, c) for w, c, _ in runs}, key=lambda g: (g[0], cases.index(g[1])))
    med = {k: statistics.median(v) for k, v in runs.items()}
    series = [("parquet", "#9e9e9e", "Drill 1.22 built-in parquet"), ("turbo-parquet", "#1f77b4", "turbo-parquet"),
              ("floor", "#ffbb78", "floor: same query, one-page file (turbo-parquet)")]
    tick = 100 if max(med.values()) <= 1000 else 500
    ticks = int(max(med.values()) * 1.1 // tick) + 1
    top = ticks * tick
    step = 120
    width, height, left, bottom, top_pad = step * len(groups) + 80, 380, 60, 84, 40
    plot_h = height - bottom - top_pad
    bar = 32
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           f'<text x="{width / 2}" y="18" text-anchor="middle" font-size="13">Selective scans inside Drill, TPC-H '
           f'lineitem SF1: query wall time (median, ms; lower is better)</text>']
    for i in range(ticks + 1):
        v = tick * i
        y = top_pad + plot_h - plot_h * v / top
        out.append(f'<line x1="{left}" x2="{width - 10}" y1="{y:.1f}" y2="{y:.1f}" stroke="#eee"/>')
        out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{v:.0f}</text>')
    for gi, (w, c) in enumerate(groups):
        x0 = left + 10 + gi * step
        for bi, (name, color, _) in enumerate(series):
            v = med.get((w, c, name))
            if v is None:
                continue
            h = plot_h * v / top
            x = x0 + bi * (bar + 2)
            y = top_pad + plot_h - h
            out.append(f'<rect x="{x}" y="{y:.1f}" width="{bar}" height="{h:.1f}" fill="{color}"/>')
            out.append(f'<text x="{x + bar / 2}" y="{y - 3:.1f}" text-anchor="middle" font-size="10">{v:.0f}</text>')
        mid = x0 + 1.5 * bar + 2
        out.append(f'<text x="{mid}" y="{height - bottom + 16}" text-anchor="middle">{c}</text>')
        out.append(f'<text x="{mid}" y="{height - bottom + 30}" text-anchor="middle">width {w}</text>')
        a, b = med.get((w, c, "parquet")), med.get((w, c, "turbo-parquet"))
        if a and b:
            out.append(f'<text x="{mid}" y="{height - bottom + 46}" text-anchor="middle" '
                       f'font-weight="bold">{a / b:.1f}x</text>')
    for li, (_, color, label) in enumerate(series):
        x = left + 10 + li * 200
        out.append(f'<rect x="{x}" y="{height - 14}" width="10" height="10" fill="{color}"/>')
        out.append(f'<text x="{x + 14}" y="{height - 5}">{label}</text>')
    out.append("</svg>")
    open(out_path, "w").write("\n".join(out) + "\n")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    lines = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
    if lines and "case" in lines[0]:
        selective(lines, sys.argv[2])
        return
    runs = defaultdict(list)
    for r in lines:
        runs[(r["file"], r["width"], r["format"])].append(r["scan_max_s"])
    groups = sorted({(f, w) for f, w, _ in runs}, key=lambda g: (g[1], g[0]))
    med = {k: statistics.median(v) for k, v in runs.items()}
    top = max(med.values()) * 1.15
    width, height, left, bottom, top_pad = 120 * len(groups) + 80, 360, 60, 70, 40
    plot_h = height - bottom - top_pad
    bar = 36
    colors = {"parquet": "#9e9e9e", "turbo-parquet": "#1f77b4"}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           f'<text x="{width / 2}" y="18" text-anchor="middle" font-size="13">Drill scan-operator time, '
           f'TPC-H lineitem SF1, all 16 columns (median, s; lower is better)</text>']
    for i in range(6):
        v = top * i / 5
        y = top_pad + plot_h - plot_h * v / top
        out.append(f'<line x1="{left}" x2="{width - 10}" y1="{y:.1f}" y2="{y:.1f}" stroke="#eee"/>')
        out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{v:.1f}</text>')
    for gi, (f, w) in enumerate(groups):
        x0 = left + 20 + gi * 120
        for bi, fmt in enumerate(("parquet", "turbo-parquet")):
            v = med.get((f, w, fmt))
            if v is None:
                continue
            h = plot_h * v / top
            x = x0 + bi * (bar + 4)
            y = top_pad + plot_h - h
            out.append(f'<rect x="{x}" y="{y:.1f}" width="{bar}" height="{h:.1f}" fill="{colors[fmt]}"/>')
            out.append(f'<text x="{x + bar / 2}" y="{y - 3:.1f}" text-anchor="middle">{v:.2f}</text>')
        a, b = med.get((f, w, "parquet")), med.get((f, w, "turbo-parquet"))
        label = f.replace("lineitem-sf1-", "").replace(".parquet", "")
        out.append(f'<text x="{x0 + bar + 2}" y="{height - bottom + 16}" text-anchor="middle">{label}</text>')
        out.append(f'<text x="{x0 + bar + 2}" y="{height - bottom + 30}" text-anchor="middle">width {w}</text>')
        if a and b:
            out.append(f'<text x="{x0 + bar + 2}" y="{height - bottom + 46}" text-anchor="middle" '
                       f'font-weight="bold">{a / b:.2f}x</text>')
    for li, fmt in enumerate(("parquet", "turbo-parquet")):
        x = left + 10 + li * 170
        out.append(f'<rect x="{x}" y="{height - 14}" width="10" height="10" fill="{colors[fmt]}"/>')
        name = "Drill 1.22 built-in parquet" if fmt == "parquet" else "turbo-parquet"
        out.append(f'<text x="{x + 14}" y="{height - 5}">{name}</text>')
    out.append("</svg>")
    open(sys.argv[2], "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
