#!/usr/bin/env bash
# Slow-storage benchmark: full scans of TPC-H lineitem through the slow:// harness
# (io.turboparquet.storage.SlowFileSystem), as a fraction of the storage's ceiling.
#
# usage: bench/slow-storage.sh [-n REPEAT] [--latency 10ms] [--stream 100m] [--total 400m]
#                              [--threads 2] [--scan-threads 8] [FILE]
#   FILE       default bench-data/lineitem-sf1-snappy.parquet (bench/lineitem.sh generates it)
#   -n         timed repetitions per configuration, after one warm-up (default 5)
#   --latency  per read call; --stream / --total: bandwidth per stream / across streams, bytes per
#              second with Hadoop's suffixes (100m = 100 MiB/s)
# Runs async on/off x coalesced reads on/off (prefetch of the next row group on, the default) and
# prints a Markdown table: median wall time, the ceiling time (bytes the storage served / total
# bandwidth) and their ratio. The page cache is warm: the harness is the storage.
set -euo pipefail
cd "$(dirname "$0")/.."
REPEAT=5
LATENCY=10ms
STREAM=100m
TOTAL=400m
THREADS=2
SCAN_THREADS=8
FILE=bench-data/lineitem-sf1-snappy.parquet
while [ $# -gt 0 ]; do
  case "$1" in
    -n) REPEAT="$2"; shift 2 ;;
    --latency) LATENCY="$2"; shift 2 ;;
    --stream) STREAM="$2"; shift 2 ;;
    --total) TOTAL="$2"; shift 2 ;;
    --threads) THREADS="$2"; shift 2 ;;
    --scan-threads) SCAN_THREADS="$2"; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) FILE="$1"; shift ;;
  esac
done
[ -s "$FILE" ] || { echo "missing $FILE: run bench/lineitem.sh --readers floor snappy first" >&2; exit 1; }
ABS="$(cd "$(dirname "$FILE")" && pwd)/$(basename "$FILE")"
to_bytes() { # 100m -> bytes (binary suffixes, as Hadoop's getLongBytes)
  local v="$1"; local n="${v%[kKmMgG]}"; case "$v" in
    *[kK]) echo $((n * 1024)) ;; *[mM]) echo $((n * 1024 * 1024)) ;; *[gG]) echo $((n * 1024 * 1024 * 1024)) ;;
    *) echo "$v" ;; esac
}
TOTAL_BPS=$(to_bytes "$TOTAL")
echo "file: $ABS"
echo "storage: latency $LATENCY per call, $STREAM/s per stream, $TOTAL/s total; --threads $THREADS --scan-threads $SCAN_THREADS"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| async | coalesced | median wall s | ceiling s | fraction of ceiling | read calls | storage wait share | CPU s |"
echo "|---|---|---|---|---|---|---|---|"
for async in true false; do
  for coalesce in true false; do
    out=$(bin/turbo-parquet scan "slow://$ABS" --json --repeat $((REPEAT + 1)) --threads "$THREADS" \
        --scan-threads "$SCAN_THREADS" --async "$async" --coalesce "$coalesce" \
        -D fs.slow.read.latency="$LATENCY" -D fs.slow.stream.bytes-per-second="$STREAM" \
        -D fs.slow.total.bytes-per-second="$TOTAL" | tail -n "$REPEAT")
    python3 - "$async" "$coalesce" "$TOTAL_BPS" <<PY
import json, statistics, sys
rows = [json.loads(l) for l in """$out""".strip().splitlines()]
wall = statistics.median(r["wall_ms"] for r in rows) / 1e3
cpu = statistics.median(r["cpu_ms"] for r in rows) / 1e3
ceiling = rows[0]["storage_bytes"] / int(sys.argv[3])
share = statistics.median(r["storage_wait_share"] for r in rows)
print(f"| {sys.argv[1]} | {sys.argv[2]} | {wall:.2f} | {ceiling:.2f} | {ceiling / wall:.0%} | "
      f"{rows[0]['storage_read_calls']} | {share:.2f} | {cpu:.2f} |")
PY
  done
done
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
