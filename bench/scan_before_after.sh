#!/usr/bin/env bash
# Interleaved before/after of `bin/turbo-parquet scan FILE --threads 1` for two built checkouts
# (each: mvn -Pjmh -DskipTests package), ROUNDS rounds of 3 repetitions each; prints one line per
# repetition: side wall_ms cpu_ms decode_ms rows. Take the 2nd and 3rd of each round (the 1st warms the JIT).
# usage: bench/scan_before_after.sh BEFORE_DIR AFTER_DIR FILE [ROUNDS]
set -euo pipefail
before="$1"; after="$2"; file="$3"; rounds="${4:-4}"
for i in $(seq 1 "$rounds"); do
  for side in before after; do
    dir="$before"; [[ $side == after ]] && dir="$after"
    (cd "$dir" && bin/turbo-parquet scan "$file" --threads 1 --repeat 3 --json) | python3 -c "
import sys, json
for line in sys.stdin:
    if line.startswith('{'):
        d = json.loads(line); print('$side', d['wall_ms'], d['cpu_ms'], d['decode_ms'], d['rows'], flush=True)
"
  done
done
