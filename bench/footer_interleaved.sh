#!/usr/bin/env bash
# arrow-rs and our footer decoder on the same files at nearly the same moment (docs/benchmarks.md,
# "arrow-rs on the same machine"): per file of one N, arrow-rs (bench/footer_arrow_rs.sh's tool,
# fixed malloc thresholds), then FooterBenchmark's turbo methods for that one cell in JMH, then
# arrow-rs again; the shared machine's load changes by the minute, so cell by cell is fairer
# than one whole run after the other.
#
# usage: bench/footer_interleaved.sh N [avgt|sample] [OUTDIR]
# N in {100, 1000, 10000}; sample = JMH -bm sample (each decode timed, as the Rust tool does).
# Writes OUTDIR (default bench-data/footer-interleaved/MODE_nN): arrowrs_a.jsonl (before),
# arrowrs_b.jsonl (after), jmh_TYPE_STATS.json/.txt, log (times and load averages).
# Needs `mvn -B -ntp -Pjmh -DskipTests package` first and the files under target/footer-bench.
set -euo pipefail
cd "$(dirname "$0")/.."
N=$1; MODE=${2:-avgt}; OUT=${3:-bench-data/footer-interleaved/${MODE}_n$N}
mkdir -p "$OUT"
bench/footer_arrow_rs.sh --seconds 0.2 --warmup 0.1 target/footer-bench/wide_100_FLOAT_stats.parquet > /dev/null
export MALLOC_MMAP_THRESHOLD_=33554432 MALLOC_TRIM_THRESHOLD_=1073741824
ARS=bench/footer-arrow-rs/target/release/footer-arrow-rs
for t in FLOAT STRING; do for s in stats nostats; do
  f=target/footer-bench/wide_${N}_${t}_${s}.parquet
  st=$([ $s = stats ] && echo true || echo false)
  echo "$(date -u +%T) $t $s load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/log"
  $ARS "$f" >> "$OUT/arrowrs_a.jsonl"
  echo "$(date -u +%T) jmh load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/log"
  # Another session's JMH holds /tmp/jmh.lock: wait for it rather than run two at once.
  until java -cp "target/classes:$(cat target/classpath.txt)" org.openjdk.jmh.Main 'FooterBenchmark.turbo' \
      -f 1 -wi 3 -i 6 -w 1 -r 1 -bm "$MODE" -tu ms -rf json -rff "$OUT/jmh_${t}_${s}.json" \
      -p columns="$N" -p type=$t -p statistics=$st > "$OUT/jmh_${t}_${s}.txt" 2>&1; do
    grep -q 'JMH lock' "$OUT/jmh_${t}_${s}.txt" || { cat "$OUT/jmh_${t}_${s}.txt" >&2; exit 1; }
    echo "$(date -u +%T) waiting for the JMH lock" >> "$OUT/log"; sleep 5
  done
  echo "$(date -u +%T) arrow-rs load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/log"
  $ARS "$f" >> "$OUT/arrowrs_b.jsonl"
done; done
echo "$(date -u +%T) end load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/log"
