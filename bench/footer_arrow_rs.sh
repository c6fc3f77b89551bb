#!/usr/bin/env bash
# Footer decode time of arrow-rs (the Rust `parquet` crate) on FooterBenchmark's files, for a
# same-machine ratio with our decoder (docs/benchmarks.md, "Footer decoding").
#
# usage: bench/footer_arrow_rs.sh [--glibc-default] [--seconds S] [--warmup S] [--min-reps N] [FILE...]
# Builds bench/footer-arrow-rs (cargo, --release; not part of the Maven build or CI) and runs it
# on the given files, by default the twelve sparse footer-only copies FooterBenchmark keeps under
# target/footer-bench (run FooterBenchmark once to write them). Prints the crate and rustc
# versions, the load average before and after, and one JSON line per file and method
# (full, noStats, noStatsNoPes, stats10; see src/main.rs): median/min/p10/p90 ms, repetitions.
# glibc's malloc is run with fixed thresholds (no mmap below 32 MiB, no trimming below 1 GiB), so
# the decoded metadata's memory stays in the process between decodes as a JVM heap does; with its
# default, adaptive thresholds (--glibc-default) a process may instead return that memory and
# fault it in again on every decode (thousands of page faults, 2x the time at 1000 columns),
# depending on what it allocated before: see faults_per_decode in the output.
set -euo pipefail
cd "$(dirname "$0")/.."
CARGO="${CARGO:-$(command -v cargo || echo "$HOME/.cargo/bin/cargo")}"
OPTS=(); FILES=(); STEADY_MALLOC=1
while [ $# -gt 0 ]; do
  case "$1" in
    --glibc-default) STEADY_MALLOC=0; shift ;;
    --seconds|--warmup|--min-reps) OPTS+=("$1" "$2"); shift 2 ;;
    *) FILES+=("$1"); shift ;;
  esac
done
if [ ${#FILES[@]} -eq 0 ]; then
  for n in 100 1000 10000; do
    for t in FLOAT STRING; do
      for s in stats nostats; do FILES+=("target/footer-bench/wide_${n}_${t}_${s}.parquet"); done
    done
  done
fi
for f in "${FILES[@]}"; do
  [ -f "$f" ] || { echo "missing $f (run FooterBenchmark once to write the footer files)" >&2; exit 1; }
done
"$CARGO" build --release --quiet --manifest-path bench/footer-arrow-rs/Cargo.toml
RUSTC="$(dirname "$CARGO")/rustc"; [ -x "$RUSTC" ] || RUSTC=rustc
echo "parquet crate $(grep -A1 '^name = "parquet"$' bench/footer-arrow-rs/Cargo.lock | sed -n 's/^version = "\(.*\)"/\1/p'), $("$RUSTC" --version)"
if [ $STEADY_MALLOC = 1 ]; then
  export MALLOC_MMAP_THRESHOLD_=33554432 MALLOC_TRIM_THRESHOLD_=1073741824
  echo "malloc: MALLOC_MMAP_THRESHOLD_=$MALLOC_MMAP_THRESHOLD_ MALLOC_TRIM_THRESHOLD_=$MALLOC_TRIM_THRESHOLD_"
else
  echo "malloc: glibc defaults"
fi
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
bench/footer-arrow-rs/target/release/footer-arrow-rs "${OPTS[@]}" "${FILES[@]}"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
