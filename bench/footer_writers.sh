#!/usr/bin/env bash
# Footer decoding across writers (issue 17; docs/benchmarks.md, "Footer decoding across
# writers"): our decoder (FooterWritersBenchmark, JMH), parquet-java's NO_FILTER read (same JMH
# run) and arrow-rs (bench/footer-arrow-rs) on the same files {writer}_{N}c.parquet, interleaved:
# each round visits every file and runs arrow-rs on it, then one JMH fork for that file, so the
# shared machine's load changes hit all three alike. After the rounds, the heap held by each
# decoded 1000-column footer (FooterRetainedHeap, JOL). Raw results are appended to OUT as JSON
# lines (one "run" line with versions and load averages, one "time" line per tool, method, file
# and round, "heap" and "error" lines), then bench/footer_writers_table.py prints the table.
#
# usage: bench/footer_writers.sh [--dir DIR] [--columns "1000 100 10000"] [--writers "w1 w2"]
#            [--rounds R] [--out FILE] [--no-heap]
#   --dir      the files (default target/footer-writers): the pyarrow/duckdb/polars/fastparquet
#              ones from the writer script (bench/footer_writers.py --columns N --row-groups 20
#              --out DIR); parquet-java's are written here if missing (FooterBenchmark's FLOAT
#              layout with statistics, 20 row groups, a sparse footer-only copy)
#   --columns  N values, default 1000; --writers default: all eight; --rounds default 3
#   --out      default bench/results/footer-writers.jsonl (appended to; the table takes, per file, the
#              newest run that measured it)
# Needs `mvn -B -ntp -Pjmh -DskipTests package` first, and cargo (CARGO=...). Per round and
# file: arrow-rs full / noStats / stats10, 1 s warm-up and 5 one-second windows each; JMH -f 1
# -wi 3 -i 5 -w 1 -r 1 (turboFull, turboProjected, turboNoStats, parquetJavaNoFilter). About a
# minute per file and round at N = 1000. A file missing when its turn comes is skipped (and
# reported as such); a decode that fails is an "error" line, and the run goes on.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=target/footer-writers; COLUMNS=1000; ROUNDS=3; OUT=bench/results/footer-writers.jsonl; HEAP=1
WRITERS="parquet-java pyarrow pyarrow-nostats pyarrow-strings pyarrow-pageindex duckdb polars fastparquet"
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) DIR=$2; shift 2 ;;
    --columns) COLUMNS=$2; shift 2 ;;
    --writers) WRITERS=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --no-heap) HEAP=0; shift ;;
    *) echo "unknown argument $1 (see the comment at the top of $0)" >&2; exit 2 ;;
  esac
done
[ -f target/classpath.txt ] && [ -f target/classes/io/turboparquet/bench/FooterWritersBenchmark.class ] || {
  echo "run mvn -B -ntp -Pjmh -DskipTests package first" >&2; exit 1; }
DIR=$(realpath -m "$DIR")
CP="target/classes:$(cat target/classpath.txt)"
TABLE=bench/footer_writers_table.py
CARGO="${CARGO:-$(command -v cargo || echo "$HOME/.cargo/bin/cargo")}"
"$CARGO" build --release --quiet --manifest-path bench/footer-arrow-rs/Cargo.toml
ARS=bench/footer-arrow-rs/target/release/footer-arrow-rs
RUSTC="$(dirname "$CARGO")/rustc"; [ -x "$RUSTC" ] || RUSTC=rustc
java -cp "$CP" -Dfooter.writers.dir="$DIR" io.turboparquet.bench.FooterWritersBenchmark $COLUMNS > /dev/null
# Fixed malloc thresholds: the decoded metadata's memory stays in the process between decodes,
# as a JVM's heap does (bench/footer_arrow_rs.sh says why).
export MALLOC_MMAP_THRESHOLD_=33554432 MALLOC_TRIM_THRESHOLD_=1073741824
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
load() { cut -d' ' -f1-3 /proc/loadavg; }
RUN=$(date -u +%Y-%m-%dT%H:%M:%SZ)
COMMIT=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src pom.xml bench || echo "+dirty")
mkdir -p "$(dirname "$OUT")"
emit() { python3 "$TABLE" --emit "$@" >> "$OUT"; }
emit run run="$RUN" commit="$COMMIT" dir="$DIR" columns="$COLUMNS" writers="$WRITERS" rounds="$ROUNDS" \
  java="$(java -version 2>&1 | head -1)" rustc="$("$RUSTC" --version)" load_before="$(load)" \
  parquet_crate="$(sed -n '/^name = "parquet"$/{n;s/^version = "\(.*\)"/\1/p}' bench/footer-arrow-rs/Cargo.lock)" \
  jmh="-f 1 -wi 3 -i 5 -w 1 -r 1 -bm avgt" arrow_rs="--warmup 1 --seconds 5 --iteration-seconds 1"
echo "run $RUN at $COMMIT, load before: $(load)"
for round in $(seq 1 "$ROUNDS"); do
  for n in $COLUMNS; do
    for w in $WRITERS; do
      f=$DIR/${w}_${n}c.parquet
      if [ ! -f "$f" ]; then
        echo "$(date -u +%T) round $round: missing $f, skipped"
        emit missing run="$RUN" round="$round" writer="$w" columns="$n"
        continue
      fi
      echo "$(date -u +%T) round $round: $w ${n}c, load $(load)"
      $ARS --warmup 1 --seconds 5 --iteration-seconds 1 --methods full,noStats,stats10 "$f" > "$WORK/ars.jsonl"
      python3 "$TABLE" --ingest arrow-rs "$WORK/ars.jsonl" --run "$RUN" --round "$round" --load "$(load)" >> "$OUT"
      # Another session's JMH may hold /tmp/jmh.lock: wait for it rather than run two at once.
      until java -cp "$CP" org.openjdk.jmh.Main 'FooterWritersBenchmark' -p writer="$w" -p columns="$n" \
          -jvmArgsPrepend "-Dfooter.writers.dir=$DIR" -f 1 -wi 3 -i 5 -w 1 -r 1 -tu ms \
          -rf json -rff "$WORK/jmh.json" > "$WORK/jmh.txt" 2>&1; do
        grep -q 'JMH lock' "$WORK/jmh.txt" || break # a failed benchmark: reported by --ingest
        echo "$(date -u +%T) waiting for the JMH lock"; sleep 5
      done
      python3 "$TABLE" --ingest jmh "$WORK/jmh.json" --jmh-log "$WORK/jmh.txt" --run "$RUN" --round "$round" \
        --load "$(load)" --writer "$w" --columns "$n" >> "$OUT"
    done
  done
done
if [ $HEAP = 1 ]; then
  files=(); for w in $WRITERS; do [ -f "$DIR/${w}_1000c.parquet" ] && files+=("$DIR/${w}_1000c.parquet"); done
  echo "$(date -u +%T) retained heap of ${#files[@]} files, load $(load)"
  if [ ${#files[@]} -gt 0 ]; then
    java -Djdk.attach.allowAttachSelf -cp "$CP" io.turboparquet.bench.FooterRetainedHeap "${files[@]}" \
      > "$WORK/heap.txt"
    python3 "$TABLE" --ingest heap "$WORK/heap.txt" --run "$RUN" --load "$(load)" >> "$OUT"
  fi
fi
emit end run="$RUN" end="$(date -u +%Y-%m-%dT%H:%M:%SZ)" load_after="$(load)"
echo "end $(date -u +%T), load after: $(load)"
python3 "$TABLE" "$OUT" --heap
