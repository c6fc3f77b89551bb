#!/usr/bin/env bash
# Selective scans inside Drill (docs/benchmarks.md, "Selective scans inside Drill").
#
# usage: bench/selective.sh [--repeat N] [--widths 1,2] [--max-load L] [--wait-minutes M]
#   --repeat        timed rounds after one warm-up round (default 5)
#   --widths        planner.width.max_per_node values (default 1,2)
#   --max-load      wait until the 1-minute load average is below L (default 1.5), polling every 30 s...
#   --wait-minutes  ...for at most M minutes (default 20), then run anyway and say so
#
# 1. Writes three TPC-H lineitem files with parquet-java (io.turboparquet.bench.GenerateLineitem, SNAPPY,
#    row groups cut at parquet-java's default 128 MiB, pages of at most 20,000 rows and 1 MiB, column and
#    offset indexes on; kept under bench-data/ between runs):
#      lineitem-sf1-by-shipdate.parquet        SF1 sorted by l_shipdate
#      lineitem-sf1-by-orderkey-bloom.parquet  SF1 sorted by l_orderkey, bloom filter on l_partkey
#      lineitem-floor-one-page.parquet         SF 0.001 (6,005 rows, one page a column): Drill's floor
# 2. Waits for a quiet machine, then runs bin/drill selective (io.turboparquet.drill.demo.SelectiveBench):
#    one embedded drillbit, both formats interleaved, ranges keeping ~0.1/1/10/100% of the rows and
#    point lookups, each also over the one-page file; every answer checked.
# 3. Copies the JSON lines to bench/results/drill-selective.jsonl and draws docs/drill-selective.svg.
set -euo pipefail
cd "$(dirname "$0")/.."
repeat=5; widths=1,2; max_load=1.5; wait_minutes=20
while [[ $# -gt 0 ]]; do
  case "$1" in
    --repeat) repeat="$2"; shift 2 ;;
    --widths) widths="$2"; shift 2 ;;
    --max-load) max_load="$2"; shift 2 ;;
    --wait-minutes) wait_minutes="$2"; shift 2 ;;
    *) sed -n '4,8p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done

mvn -B -q -ntp -Dstyle.color=never -Pjmh -DskipTests package >&2
cp="$(ls target/turbo-parquet-*.jar | grep -v -e -drill.jar | head -1):$(cat target/classpath.txt)"
data=bench-data
mkdir -p "$data"
generate() {
  local out="$data/$1"; shift
  [[ -f "$out" ]] || java -Xmx4g -cp "$cp" io.turboparquet.bench.GenerateLineitem "$out" "$@" >&2
}
generate lineitem-sf1-by-shipdate.parquet --row-group-bytes 134217728 --sort-by l_shipdate --page-row-limit 20000
generate lineitem-sf1-by-orderkey-bloom.parquet --row-group-bytes 134217728 --sort-by l_orderkey --bloom-filter l_partkey
generate lineitem-floor-one-page.parquet --scale 0.001 --row-group-bytes 134217728

load() { cut -d' ' -f1 /proc/loadavg; }
quiet() { python3 -c "import sys; sys.exit(0 if $(load) < $max_load else 1)"; }
for ((i = 0; i < wait_minutes * 2; i++)); do
  quiet && break
  echo "== $(date -u +%T) $(uptime | sed 's/.*load/load/') : waiting for the 1-minute load to fall below $max_load" >&2
  sleep 30
done
quiet || echo "== still loaded after $wait_minutes minutes; running anyway" >&2

stamp=$(date -u +%Y%m%d-%H%M%S)
results="$data/selective-$stamp.jsonl"
log="$data/selective-$stamp.txt"
{
  echo "== $(nproc) cores, $(java -version 2>&1 | head -1), commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo '+changes')"
  echo "== before: $(date -u +%FT%TZ) $(uptime | sed 's/.*load/load/')"
} | tee "$log" >&2
SELECTIVE_OUT="$results" bin/drill selective --repeat "$repeat" --widths "$widths" \
  "$data/lineitem-sf1-by-shipdate.parquet" "$data/lineitem-sf1-by-orderkey-bloom.parquet" \
  "$data/lineitem-floor-one-page.parquet" | tee -a "$log"
echo "== after: $(date -u +%FT%TZ) $(uptime | sed 's/.*load/load/')" | tee -a "$log" >&2
mkdir -p bench/results
cp "$results" bench/results/drill-selective.jsonl
python3 bench/drill_plot.py bench/results/drill-selective.jsonl docs/drill-selective.svg
echo "== bench/results/drill-selective.jsonl, docs/drill-selective.svg; log $log" >&2
