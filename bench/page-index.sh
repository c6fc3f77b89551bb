#!/usr/bin/env bash
# Selective scans with page-index skipping (docs/benchmarks.md, "Selective scans: page-index
# skipping (core)"): writes bench-data/sorted-2m.parquet with parquet-java (2M rows, sorted int64
# key, 20,000 rows per page; needs `mvn -DskipTests test-compile package`), then scans it with
# --filter "key < N" at 0.1%, 1%, 10% and 100% of the rows, with and without skipping, one thread;
# prints: selectivity skipping wall_ms(median of 2..REPEAT) rows bytes_read pages_skipped.
# usage: bench/page-index.sh [REPEAT]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
repeat="${1:-5}"
file="$here/bench-data/sorted-2m.parquet"
if [[ ! -f "$file" ]]; then
  mkdir -p "$here/bench-data"
  java -cp "$here/target/test-classes:$here/target/classes:$(cat "$here/target/classpath.txt")" \
    io.turboparquet.scan.PageIndexFiles "$file" 2000000 20000
fi
for pct in 0.1 1 10 100; do
  n=$(python3 -c "print(int(2000000 * $pct / 100))")
  for flag in "" "--no-page-index"; do
    "$here/bin/turbo-parquet" scan "$file" --threads 1 --repeat "$repeat" --json --filter "key < $n" $flag \
      | python3 -c "
import sys, json, statistics
r = [json.loads(l) for l in sys.stdin if l.startswith('{')]
w = statistics.median(x['wall_ms'] for x in r[1:])
x = r[-1]
print('$pct%', 'off' if '$flag' else 'on', round(w), x['rows'], x['bytes_read'], x['pages_skipped'])
"
  done
done
