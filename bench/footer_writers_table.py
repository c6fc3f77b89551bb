#!/usr/bin/env python3
"""Results of bench/footer_writers.sh (footer decoding across writers): the raw JSON lines it
keeps, and the table and plot made from them.

    python3 bench/footer_writers_table.py FILE.jsonl [--heap] [--plot OUT.svg]

prints one markdown table, a row per writer and N: per tool and method the median, over all
rounds, of the one-second iterations' mean decode time (JMH average-time iterations for turbo and
parquet-java, the same windows of arrow-rs's decodes; ms per decode), and turbo's time over
arrow-rs's (below 1: turbo faster). Per file the newest run that measured it counts. --heap adds
the table of retained heap, --plot draws the times (matplotlib; log scale).

The driver's helpers, which write those lines to standard output:

    --ingest arrow-rs OUT.jsonl --run R --round K --load L
    --ingest jmh JMH.json --jmh-log JMH.txt --run R --round K --load L --writer W --columns N
    --ingest heap HEAP.txt --run R --load L
    --emit KIND key=value...
"""
import argparse
import json
import os
import re
import statistics
import sys
import time

WRITERS = ["parquet-java", "pyarrow", "pyarrow-nostats", "pyarrow-strings", "pyarrow-pageindex", "duckdb",
           "polars", "fastparquet"]
# JMH method -> (tool, method); arrow-rs's method -> method (stats10 is its closest to a projection).
JMH_METHODS = {"turboFull": ("turbo", "full"), "turboProjected": ("turbo", "projected"),
               "turboNoStats": ("turbo", "noStats"), "parquetJavaNoFilter": ("parquet-java", "full")}
ARROW_RS_METHODS = {"full": "full", "noStats": "noStats", "stats10": "projected", "noStatsNoPes": "noStatsNoPes"}
# The table's time columns.
COLUMNS = [("turbo", "full"), ("turbo", "projected"), ("turbo", "noStats"), ("arrow-rs", "full"),
           ("arrow-rs", "noStats"), ("parquet-java", "full")]


def writer_and_columns(path):
    """('pyarrow', 1000) from .../pyarrow_1000c.parquet."""
    m = re.fullmatch(r"(.+)_(\d+)c\.parquet", os.path.basename(path))
    return (m.group(1), int(m.group(2))) if m else (path, None)


def utc():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def out(record):
    print(json.dumps(record, separators=(",", ":")))


def ingest_arrow_rs(path, a):
    for line in open(path):
        r = json.loads(line)
        writer, columns = writer_and_columns(r["file"])
        base = {"run": a.run, "round": a.round, "tool": "arrow-rs", "writer": writer, "columns": columns}
        if "error" in r:
            out({"kind": "error", **base, "method": "all", "error": r["error"]})
            continue
        out({"kind": "time", **base, "method": ARROW_RS_METHODS[r["method"]], "raw_method": r["method"],
             "iterations_ms": r["iteration_means_ms"], "footer_bytes": r["footer_bytes"],
             "row_groups": r["row_groups"], "leaves": r["columns"], "reps": r["reps"],
             **{k: r[k] for k in ("median_ms", "min_ms", "p10_ms", "p90_ms", "mean_ms", "faults_per_decode")},
             "load": a.load, "utc": utc()})


def ingest_jmh(path, a):
    base = {"run": a.run, "round": a.round, "writer": a.writer, "columns": a.columns}
    done = set()
    if os.path.exists(path) and os.path.getsize(path) > 0:
        for r in json.load(open(path)):
            name = r["benchmark"].rsplit(".", 1)[1]
            tool, method = JMH_METHODS[name]
            scale = {"ms/op": 1.0, "us/op": 1e-3, "s/op": 1e3}[r["primaryMetric"]["scoreUnit"]]
            out({"kind": "time", **base, "tool": tool, "method": method, "raw_method": name,
                 "iterations_ms": [x * scale for x in r["primaryMetric"]["rawData"][0]],
                 "score_ms": r["primaryMetric"]["score"] * scale, "load": a.load, "utc": utc()})
            done.add(name)
    # A benchmark that threw has no result: find its exception in the log.
    log = open(a.jmh_log).read() if a.jmh_log and os.path.exists(a.jmh_log) else ""
    for name, (tool, method) in JMH_METHODS.items():
        if name in done:
            continue
        m = re.search(r"# Benchmark: \S+\." + name + r"\n(?:.*\n)*?.*<failure>\s*\n\s*\n?(.*)", log)
        error = m.group(1).strip() if m else "no result (see the JMH output)"
        out({"kind": "error", **base, "tool": tool, "method": method, "raw_method": name, "error": error,
             "utc": utc()})


def ingest_heap(path, a):
    for line in open(path):
        if line.startswith("{"):
            out({**json.loads(line), "run": a.run, "load": a.load})


def emit(args):
    record = {"kind": args[0]}
    for kv in args[1:]:
        k, v = kv.split("=", 1)
        record[k] = int(v) if re.fullmatch(r"-?\d+", v) else v
    out(record)


def load(path):
    """Per (writer, N): the newest run's time lines about it and the newest heap lines, and the run lines."""
    lines = [json.loads(l) for l in open(path) if l.strip()]
    runs = {r["run"]: r for r in lines if r["kind"] == "run"}
    for r in lines:
        if r["kind"] == "end" and r["run"] in runs:
            runs[r["run"]].update(r)
    # Times and heap apart: a run with --no-heap must not hide the newest heap measurement.
    newest = {}
    for r in lines:
        if r["kind"] in ("time", "error", "heap") and r.get("writer"):
            key = (r["writer"], r["columns"], r["kind"] == "heap")
            newest[key] = max(newest.get(key, r["run"]), r["run"])
    cells = {}
    for r in lines:
        if r["kind"] in ("time", "error", "heap") and r.get("writer"):
            if r["run"] == newest[(r["writer"], r["columns"], r["kind"] == "heap")]:
                cells.setdefault((r["writer"], r["columns"]), []).append(r)
    return cells, runs


def order(key):
    writer, columns = key
    return (columns, WRITERS.index(writer) if writer in WRITERS else len(WRITERS), writer)


def medians(records):
    """(tool, method) -> median ms over all rounds' iterations, or 'fail'."""
    times, failed = {}, set()
    for r in records:
        if r["kind"] == "time":
            times.setdefault((r["tool"], r["method"]), []).extend(r["iterations_ms"])
        elif r["kind"] == "error":
            failed.add((r["tool"], r["method"]))
    result = {k: statistics.median(v) for k, v in times.items() if v}
    for tool, method in failed:
        for k in COLUMNS:
            if k[0] == tool and (method in ("all", k[1])) and k not in result:
                result[k] = "fail"
    return result


def ms(v):
    if v is None:
        return ""
    if v == "fail":
        return "fail"
    return f"{v:.2f}" if v < 10 else (f"{v:.1f}" if v < 100 else f"{v:.0f}")


def ratio(ours, theirs):
    return f"{ours / theirs:.2f}" if isinstance(ours, float) and isinstance(theirs, float) else ""


def table(cells, runs):
    for run in sorted(runs.values(), key=lambda r: r["run"]):
        print(f"<!-- run {run['run']} at {run['commit']}, {run.get('rounds')} rounds, N {run.get('columns')}; "
              f"load before {run.get('load_before')}, after {run.get('load_after', '?')} "
              f"(end {run.get('end', '?')}); {run.get('java')}; parquet crate {run.get('parquet_crate')}, "
              f"{run.get('rustc')} -->")
    print("| writer | N | footer KiB | turbo full | turbo projected | turbo noStats | arrow-rs full "
          "| arrow-rs noStats | parquet-java full | turbo / arrow-rs full | turbo / arrow-rs noStats |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for key in sorted(cells, key=order):
        m = medians(cells[key])
        if not m:
            continue
        sizes = [r["footer_bytes"] for r in cells[key] if "footer_bytes" in r]
        row = [key[0], str(key[1]), f"{sizes[0] / 1024:.0f}" if sizes else ""]
        row += [ms(m.get(c)) for c in COLUMNS]
        row.append(ratio(m.get(("turbo", "full")), m.get(("arrow-rs", "full"))))
        row.append(ratio(m.get(("turbo", "noStats")), m.get(("arrow-rs", "noStats"))))
        print("| " + " | ".join(row) + " |")


def heap_table(cells):
    print("| writer | N | footer KiB | turbo full MiB | turbo noStats MiB | parquet-java NO_FILTER MiB "
          "| parquet-java / turbo full | bytes per chunk, turbo full |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for key in sorted(cells, key=order):
        for r in cells[key]:
            if r["kind"] != "heap":
                continue
            mib = lambda k: f"{r[k + '_bytes'] / 2**20:.2f}" if k + "_bytes" in r else "fail"
            full, pj = r.get("turbo_full_bytes"), r.get("parquet_java_bytes")
            chunks = [r.get("leaves", 0) * r.get("row_groups", 0)]
            print(f"| {key[0]} | {key[1]} | {r['footer_bytes'] / 1024:.0f} | {mib('turbo_full')} "
                  f"| {mib('turbo_nostats')} | {mib('parquet_java')} "
                  f"| {f'{pj / full:.1f}x' if full and pj else ''} "
                  f"| {f'{full / chunks[0]:.0f}' if full and chunks and chunks[0] else ''} |")


def plot(cells, runs, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ns = sorted({k[1] for k in cells})
    fig, axes = plt.subplots(len(ns), 1, figsize=(11, 3.6 * len(ns)), squeeze=False)
    # Pairs side by side: turbo and arrow-rs full, then noStats; then turbo projected, parquet-java.
    bars = [("turbo", "full"), ("arrow-rs", "full"), ("turbo", "noStats"), ("arrow-rs", "noStats"),
            ("turbo", "projected"), ("parquet-java", "full")]
    labels = [f"{t} {m}" for t, m in bars]
    colours = ["#1f4e9c", "#c0392b", "#6a9ee0", "#f1948a", "#b9d3f2", "#7f7f7f"]
    for ax, n in zip(axes[:, 0], ns):
        keys = sorted((k for k in cells if k[1] == n), key=order)
        width = 0.8 / len(bars)
        for i, (c, label, colour) in enumerate(zip(bars, labels, colours)):
            values = [medians(cells[k]).get(c) for k in keys]
            xs = [j + (i - (len(bars) - 1) / 2) * width for j in range(len(keys))]
            ax.bar(xs, [v if isinstance(v, float) else 0 for v in values], width, label=label, color=colour)
            for x, v in zip(xs, values):
                if v == "fail":
                    ax.text(x, 1, "fail", rotation=90, ha="center", va="bottom", fontsize=7)
        ax.set_yscale("log")
        ax.set_xticks(range(len(keys)))
        ax.set_xticklabels([k[0] for k in keys], fontsize=9)
        ax.set_ylabel("ms per decode (log)")
        ax.set_title(f"{n} columns x 20 row groups", fontsize=10)
        ax.grid(axis="y", which="both", alpha=0.3)
    handles, names = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, names, ncol=6, fontsize=8, loc="lower center")
    commits = ", ".join(sorted({runs[r["run"]]["commit"] for records in cells.values() for r in records}))
    fig.suptitle(f"Footer decode time across writers (median of 1 s iterations; {commits})", fontsize=11)
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    fig.savefig(path)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", nargs="?")
    p.add_argument("--heap", action="store_true")
    p.add_argument("--plot")
    p.add_argument("--ingest", choices=["arrow-rs", "jmh", "heap"])
    p.add_argument("--emit", nargs="+", metavar="ARG")
    p.add_argument("--jmh-log")
    p.add_argument("--run")
    p.add_argument("--round", type=int)
    p.add_argument("--load")
    p.add_argument("--writer")
    p.add_argument("--columns", type=int)
    a = p.parse_args()
    if a.emit:
        emit(a.emit)
    elif a.ingest:
        {"arrow-rs": ingest_arrow_rs, "jmh": ingest_jmh, "heap": ingest_heap}[a.ingest](a.file, a)
    else:
        cells, runs = load(a.file)
        table(cells, runs)
        if a.heap:
            print()
            heap_table(cells)
        if a.plot:
            plot(cells, runs, a.plot)


if __name__ == "__main__":
    sys.exit(main())
