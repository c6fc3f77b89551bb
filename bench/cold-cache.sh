#!/usr/bin/env bash
# Cold-cache scan next to a raw read of the same file (needs root: drops the page cache).
#
# usage: bench/cold-cache.sh [-n REPEAT] [FILE] [-- scan flags...]
# Each repetition: sync + drop caches, `dd` the file to /dev/null (raw sequential read); drop
# again, then `bin/turbo-parquet scan FILE --json` (all columns, default options). Prints the
# median of each and the scan's time as a multiple of the raw read's.
set -euo pipefail
cd "$(dirname "$0")/.."
REPEAT=3
FILE=bench-data/lineitem-sf1-snappy.parquet
EXTRA=()
while [ $# -gt 0 ]; do
  case "$1" in
    -n) REPEAT="$2"; shift 2 ;;
    --) shift; EXTRA=("$@"); break ;;
    *) FILE="$1"; shift ;;
  esac
done
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }
raw=(); scan=()
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$REPEAT"); do
  drop
  t0=$(date +%s.%N); dd if="$FILE" of=/dev/null bs=4M status=none; t1=$(date +%s.%N)
  raw+=("$(echo "$t1 - $t0" | bc)")
  drop
  scan+=("$(bin/turbo-parquet scan "$FILE" --json "${EXTRA[@]}" | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["wall_ms"] / 1e3)')")
done
python3 - "$FILE" "${raw[*]}" "${scan[*]}" <<'PY'
import os, statistics, sys
raw = [float(x) for x in sys.argv[2].split()]
scan = [float(x) for x in sys.argv[3].split()]
size = os.path.getsize(sys.argv[1]) / 2**20
r, s = statistics.median(raw), statistics.median(scan)
print(f"raw read (dd): median {r:.2f} s ({size / r:.0f} MiB/s)  runs {raw}")
print(f"scan, cold:    median {s:.2f} s ({size / s:.0f} MiB/s)  runs {scan}")
print(f"scan / raw read: {s / r:.2f}x")
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
