#!/usr/bin/env bash
# Latency-bound storage inside Drill: the share of the storage ceiling a full scan reaches, for
# Drill's built-in Parquet reader, turbo-parquet, and the standalone CLI, through the slow:// harness
# (io.turboparquet.storage.SlowFileSystem) with S3-like first-byte latency and bandwidth caps.
#
# usage: bench/latency-share.sh [-n REPEAT] [--latencies "10ms 50ms"] [--caps "100m 400m"]
#                               [--stream 90m] [--widths 1,2] [--scan-pool N] [--no-builtin] [FILE]
#        bench/latency-share.sh --report RESULTS.jsonl...      (only print the table of earlier runs)
#   FILE         default bench-data/lineitem-sf1-snappy.parquet (bench/lineitem.sh makes it: TPC-H
#                lineitem SF1, SNAPPY, 50 row groups, 215.6 MB (206 MiB) of column chunks)
#   -n           timed rounds per configuration, after one warm-up round (default 3)
#   --latencies  first-byte latency of every read call (default "10ms 50ms")
#   --caps       total bandwidth across all streams of the file system (default "100m 400m"; Hadoop's
#                binary suffixes: 100m = 100 MiB/s)
#   --stream     bandwidth of each stream (default 90m: a single S3 GET delivers roughly 90 MB/s, so
#                one connection cannot take the whole cap; every part of a coalesced read, and every
#                column stream of Drill's reader, is a stream of its own)
#   --widths     planner.width.max_per_node values (default 1,2)
#   --scan-pool  the drillbit's scan pool (drill.exec.scan.threadpool_size; default: conf/'s 8), also
#                the standalone scan's --scan-threads
#   --no-builtin leave Drill's reader out (it takes 40-75 s per query at 50 ms)
#
# For each latency x cap, `bin/drill bench --slow LATENCY,STREAM,CAP --cli --widths W --repeat N FILE`
# starts one embedded drillbit (conf/ as shipped: scan pool 8, scan-decode pool 2) with a storage
# plugin `slow` on the harness and runs, per width, one warm-up round and N timed rounds, each round
# interleaving: the demo query over all 16 columns through Drill's reader
# (table(slow.`FILE`(type => 'parquet'))), the same through turbo-parquet, and the standalone scan
# (bin/turbo-parquet scan slow://FILE --json --repeat 2 --threads 2 --scan-threads P, P the drillbit's
# scan pool, with the same storage settings: its second repetition, a fresh JVM each round). Every
# Drill run's answer is checked equal. The harness is
# re-created for each configuration (each is a new JVM); the page cache is warm: the harness is the
# storage.
#
# What the table reports (medians over the N rounds):
#   bytes      what the harness served the reader during the query (read calls' bytes; inside Drill
#              the drillbit's slow:// file system, the same instance Drill reads through). turbo reads
#              exactly the column chunks (its footer comes from the footer cache); the CLI adds the
#              footer; Drill's reader reads in refills of the harness's 64 KiB sequential buffer.
#   ceiling s  bytes needed / cap: the file's column chunks (turbo's TOTAL_READ_BYTES, 215.6 MB for
#              SF1) over the total bandwidth. No reader can finish the scan sooner; the same ceiling
#              for every reader of a cell, whatever extra bytes it chose to read.
#   scan s     inside Drill: the scan operator's time in the query profile, processNanos + waitNanos
#              of the longest scan operator (at width 2 the two fragments' scans run side by side on
#              the shared cap). This is the time the fragment thread spent inside the scan: opening
#              readers, waiting for bytes (turbo waits inside next(), counted as process time; Drill's
#              reader's async page-read waits are its waitNanos), and any decode not done ahead.
#              Standalone: the CLI's wall_ms (footer read and the whole scan), its runs of both
#              widths' rounds together.
#   share      ceiling / scan s: the share of the storage ceiling the scan reaches. 100% = the scan
#              cost the query exactly the storage's minimum time. Inside Drill it can exceed 100%:
#              turbo reads row groups ahead and decodes ahead while Drill's aggregation
#              works on the current batch, so part of the storage time is hidden behind the rest of
#              the query rather than spent in the operator.
#   wall s     the whole query (JDBC, planning included) / the standalone scan; "query share" =
#              ceiling / wall s, bounded by everything else the query does (Drill's aggregation of
#              16 columns takes longer than the 100 MiB/s ceiling at width 1).
# A second table gives turbo's and the CLI's storage metrics: the scan's wait for bytes
# (TIME_DISK_SCAN_WAIT / page_reader_wait_ms), read calls, coalesced ranges, row groups prefetched,
# and the CPU time of the drillbit JVM (or the CLI process) per query.
#
# Everything goes to bench-data/ (git-ignored): one drill-bench-*.jsonl per configuration and their
# concatenation latency-share-DATE.jsonl, which --report reads (lines with a "set" field, as in
# bench/results/drill-latency-share.jsonl, give one pair of tables per set).
set -euo pipefail
cd "$(dirname "$0")/.."
REPEAT=3
LATENCIES="10ms 50ms"
CAPS="100m 400m"
STREAM=90m
WIDTHS=1,2
FILE=bench-data/lineitem-sf1-snappy.parquet
REPORT=()
DRILL_ARGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    -n) REPEAT="$2"; shift 2 ;;
    --latencies) LATENCIES="$2"; shift 2 ;;
    --caps) CAPS="$2"; shift 2 ;;
    --stream) STREAM="$2"; shift 2 ;;
    --widths) WIDTHS="$2"; shift 2 ;;
    --scan-pool) export DRILL_SCAN_POOL="$2"; shift 2 ;;
    --no-builtin) DRILL_ARGS+=(--no-builtin); shift ;;
    --report) shift; REPORT=("$@"); break ;;
    -h|--help) sed -n '2,63p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) FILE="$1"; shift ;;
  esac
done

report() {
  python3 - "$@" <<'PY'
import json, statistics, sys
from collections import defaultdict

def bytes_per_s(v):
    n = float(v.rstrip("kKmMgG"))
    return n * {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}.get(v[-1].lower(), 1)

def lat_ms(v):
    return float(v[:-2]) if v.endswith("ms") else float(v[:-1]) * 1000 if v.endswith("s") else float(v)

# Lines of runs on the harness; lines may carry a "set" (bench/results/drill-latency-share.jsonl): one
# pair of tables per set, in the order they first appear.
rows = [json.loads(l) for f in sys.argv[1:] for l in open(f) if l.strip()]
sets = defaultdict(list)
for r in rows:
    if "slow" in r:
        sets[r.get("set", "")].append(r)

def tables(rows):
    cells = defaultdict(list)
    needed = {}
    for r in rows:
        lat, stream, cap = r["slow"].split(",")
        # The standalone scan runs in every round of both widths; it has no width: one row per cell.
        cells[(lat, cap, stream, r.get("scan_pool", 8), 99 if r["format"] == "cli" else r["width"], r["format"])].append(r)
        if r["format"] == "turbo-parquet":
            needed[r["file"]] = r["metrics"]["TOTAL_READ_BYTES"]
    med = statistics.median
    order = {"parquet": 0, "turbo-parquet": 1, "turbo-no-ahead": 2, "cli": 3}
    label = {"parquet": "Drill built-in", "turbo-parquet": "turbo-parquet", "turbo-no-ahead": "turbo, decodeAhead off",
             "cli": "standalone CLI"}
    keys = sorted(cells, key=lambda k: (k[3], lat_ms(k[0]), bytes_per_s(k[1]), k[4], order.get(k[5], 9)))
    print("| latency | cap (per stream) | scan pool | width | reader | scan s | wall s | bytes read (MB) | ceiling s | **share** | query share | runs |")
    print("|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for k in keys:
        lat, cap, stream, pool, width, fmt = k
        rs = cells[k]
        ceiling = needed[rs[0]["file"]] / bytes_per_s(cap)
        scan = med(r["scan_with_wait_s"] for r in rs)
        wall = med(r["wall_s"] for r in rs)
        mb = med(r["storage_bytes"] for r in rs) / 1e6
        width_s = "-" if fmt == "cli" else str(width)
        print(f"| {lat} | {cap}/s ({stream}/s) | {pool} | {width_s} | {label.get(fmt, fmt)} | {scan:.2f} | {wall:.2f} | {mb:.1f} | "
              f"{ceiling:.2f} | **{ceiling / scan:.0%}** | {ceiling / wall:.0%} | {len(rs)} |")
    print()
    print("| latency | cap | scan pool | width | reader | wait for bytes s | read calls | coalesced ranges | row groups prefetched | CPU s | load (1 min) |")
    print("|---|---|---:|---:|---|---:|---:|---:|---:|---:|---|")
    for k in keys:
        lat, cap, stream, pool, width, fmt = k
        rs = cells[k]
        loads = [float(r["load"]) for r in rs if r.get("load")]
        load = f"{min(loads):.1f}-{max(loads):.1f}" if loads else ""
        cpu = med(r["cpu_s"] for r in rs)
        m = lambda name: med(r["metrics"].get(name, 0) for r in rs)
        if fmt == "cli":
            print(f"| {lat} | {cap} | {pool} | - | {label[fmt]} | {m('page_reader_wait_ms') / 1e3:.2f} | {m('read_calls'):.0f} | "
                  f"{m('coalesced_ranges'):.0f} | {m('prefetched_row_groups'):.0f} | {cpu:.2f} | {load} |")
        elif fmt.startswith("turbo"):
            print(f"| {lat} | {cap} | {pool} | {width} | {label[fmt]} | {m('TIME_DISK_SCAN_WAIT') / 1e9:.2f} | {m('NUM_READ_CALLS'):.0f} | "
                  f"{m('NUM_COALESCED_RANGES'):.0f} | {m('NUM_PREFETCHED_ROWGROUPS'):.0f} | {cpu:.2f} | {load} |")
        else:
            print(f"| {lat} | {cap} | {pool} | {width} | {label.get(fmt, fmt)} | {m('TIME_DISK_SCAN_WAIT') / 1e9:.2f} | "
                  f"{med(r['storage_calls'] for r in rs):.0f} (harness) | - | - | {cpu:.2f} | {load} |")

for name, set_rows in sets.items():
    if name:
        print(f"### {name}\n")
    tables(set_rows)
    print()
PY
}

if [ ${#REPORT[@]} -gt 0 ]; then
  report "${REPORT[@]}"
  exit 0
fi
[ -s "$FILE" ] || { echo "missing $FILE: run bench/lineitem.sh --readers floor snappy first" >&2; exit 1; }
STAMP="$(date -u +%Y%m%d-%H%M%S)"
ALL="bench-data/latency-share-$STAMP.jsonl"
: > "$ALL"
echo "file: $FILE ($(du -L -h "$FILE" | cut -f1)); stream cap $STREAM/s; widths $WIDTHS; $REPEAT rounds after a warm-up; scan pool ${DRILL_SCAN_POOL:-8 (conf/)}"
echo "machine: $(nproc) CPUs, $(java -version 2>&1 | head -1); commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src bin conf || echo ' (modified)')"
echo "start: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); load $(cut -d' ' -f1-3 /proc/loadavg)"
for latency in $LATENCIES; do
  for cap in $CAPS; do
    echo "== $latency per call, $STREAM/s per stream, $cap/s total: load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
    log="bench-data/latency-share-$STAMP-$latency-$cap.log"
    bin/drill bench --repeat "$REPEAT" --widths "$WIDTHS" --slow "$latency,$STREAM,$cap" --cli \
        ${DRILL_ARGS[@]+"${DRILL_ARGS[@]}"} "$FILE" 2> "$log" >&2 \
      || { echo "bin/drill bench failed: $log" >&2; tail -20 "$log" >&2; exit 1; }
    # (Maven's colour codes can precede the line)
    results=$(grep -o '== results: .*' "$log" | head -1 | sed 's/^== results: //')
    [ -s "$results" ] || { echo "no results from bin/drill bench: $log" >&2; exit 1; }
    cat "$results" >> "$ALL"
  done
done
echo "end: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "raw runs: $ALL"
echo
report "$ALL"
