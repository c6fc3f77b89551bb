#!/usr/bin/env bash
# Planning benchmark inside Drill (docs/benchmarks.md, "Inside Drill: planning on turbo footers"): the tables where
# footers dominate planning, then bin/drill planning on them (PlanningBench: both formats, turbo's
# footer cache cold and warm, medians of the profile's planning phase and of the wall time).
#
# usage: bench/planning.sh [--repeat N]     (default 5; one untimed round first)
#
# Tables (io.turboparquet.bench.GeneratePlanningTables, kept under bench-data/planning between runs):
#   wide50     50 copies of a 1000-column x 20-row-group file (DOUBLE columns with statistics)
#   small1000  1,000 files of 10 columns, one row group each
#   wide1500   one 1,500-column x 20-row-group file
# The drillbit runs with Drill's default heap (4 GiB, so the footer cache's auto bound is 512 MiB)
# unless DRILL_JAVA_OPTS says otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
repeat=5
[[ "${1:-}" == --repeat ]] && repeat="$2"
mvn -B -q -ntp -Dstyle.color=never -Pjmh -DskipTests package >&2
data=bench-data/planning
mkdir -p "$data"
echo "== generating the tables under $data (kept; delete to regenerate)" >&2
java -cp "$(ls target/turbo-parquet-*.jar | grep -v -e -drill.jar | head -1):$(cat target/classpath.txt)" \
  io.turboparquet.bench.GeneratePlanningTables "$data"
echo "== $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)" >&2
DRILL_JAVA_OPTS="${DRILL_JAVA_OPTS:--Xmx4g -XX:MaxDirectMemorySize=2g}" \
  exec bin/drill planning --repeat "$repeat" "$data/wide50" "$data/small1000" "$data/wide1500"
