#!/usr/bin/env bash
# TPC-H lineitem full-scan benchmark: turbo-parquet against pyarrow, duckdb and polars.
#
# usage: bench/lineitem.sh [-n REPEAT] [--scale SF] [--threads "1 2"] [--readers LIST]
#                          [--wait-idle SECONDS] [--no-build] [--pin] [CODEC ...]
#   CODEC    snappy | zstd | uncompressed | gzip | lz4_raw   (default: snappy zstd uncompressed)
#   -n       timed repetitions per reader and thread count, after one warm-up (default 5)
#   --scale  TPC-H scale factor of the generated files (default 1 -> bench-data/lineitem-sf1-*.parquet)
#   --threads  thread counts to run each reader with (default "1 2")
#   --readers  comma list from floor,turbo,pyarrow,duckdb,polars (default all)
#   --wait-idle  before each measurement wait up to SECONDS for other processes to use <10% of
#              the CPUs (default 0: don't wait; every row records the others' share anyway)
#   --no-build don't run maven even if target/ looks stale
#   --pin      run each T-thread row under `taskset -c 0-(T-1)`: every thread of the reader (I/O,
#              JIT, GC) shares T cores, so "1 thread" means one core for every reader
#
# Run from anywhere; it works in the repository root. Everything it makes goes to bench-data/
# (git-ignored): the generated Parquet files, a Python venv with the peer readers, and
# results-<date>.json with every repetition of every reader. It prints a Markdown table.
#
# What each row measures (warm page cache, full decode of all 16 columns):
#   floor          bin/turbo-parquet scan FILE --floor ...: read every column chunk and decompress
#                  every page on one thread, decoding nothing (the floor of DESIGN.md)
#   turbo-parquet  bin/turbo-parquet scan FILE --threads T --repeat N+1 --json; median wall_ms of
#                  repetitions 2..N+1 (the first is the warm-up). Skipped, with the reason, if the
#                  CLI is missing or fails.
#   pyarrow        pq.read_table(FILE, use_threads=False) for 1 thread,
#                  pa.set_cpu_count(T) + pq.read_table(FILE, use_threads=True) otherwise
#   duckdb         SET threads=T; con.sql("SELECT * FROM read_parquet(FILE)").to_arrow_table()
#   polars         POLARS_MAX_THREADS=T (fresh process) pl.read_parquet(FILE)
# Peers are timed in-process (bench/py_readers.py): one warm-up, then the median of N.
set -euo pipefail

usage() {
  sed -n '4,13p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit "${1:-2}"
}

ORIG_ARGS="$*"
REPEAT=5
SCALE=1
THREADS="1 2"
READERS="floor,turbo,pyarrow,duckdb,polars"
BUILD=1
WAIT_IDLE=0
PIN=0
CODECS=()
while [ $# -gt 0 ]; do
  case "$1" in
    -n|--repeat) [ $# -ge 2 ] || usage; REPEAT="$2"; shift 2 ;;
    --scale) [ $# -ge 2 ] || usage; SCALE="$2"; shift 2 ;;
    --threads) [ $# -ge 2 ] || usage; THREADS="$2"; shift 2 ;;
    --readers) [ $# -ge 2 ] || usage; READERS="$2"; shift 2 ;;
    --wait-idle) [ $# -ge 2 ] || usage; WAIT_IDLE="$2"; shift 2 ;;
    --no-build) BUILD=0; shift ;;
    --pin) PIN=1; shift ;;
    -h|--help) usage 0 ;;
    snappy|zstd|uncompressed|gzip|lz4_raw) CODECS+=("$1"); shift ;;
    *) echo "unknown argument: $1" >&2; usage ;;
  esac
done
[ ${#CODECS[@]} -gt 0 ] || CODECS=(snappy zstd uncompressed)
case "$REPEAT" in ''|*[!0-9]*|0) echo "-n wants a positive integer" >&2; exit 2 ;; esac
case "$WAIT_IDLE" in ''|*[!0-9]*) echo "--wait-idle wants whole seconds" >&2; exit 2 ;; esac

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
DATA="$ROOT/bench-data"
mkdir -p "$DATA"
VENV="$DATA/venv"
PY="$VENV/bin/python"
TURBO="$ROOT/bin/turbo-parquet"
SF_TAG="sf$(printf '%s' "$SCALE" | sed -e 's/\.0*$//' -e 's/\./_/')"

log() { printf '[lineitem.sh] %s\n' "$*" >&2; }

# ---- 1. build (target/classes + target/classpath.txt with the jmh profile's tpch jar) ----------
STAMP="$DATA/.build-stamp"
need_build() {
  [ -f target/classes/io/turboparquet/bench/GenerateLineitem.class ] || return 0
  [ -f target/classpath.txt ] || return 0
  grep -q 'io/trino/tpch' target/classpath.txt || return 0
  [ -f "$STAMP" ] || return 0
  [ -n "$(find src pom.xml -newer "$STAMP" -print -quit 2>/dev/null)" ] && return 0
  return 1
}
if [ "$BUILD" = 1 ] && need_build; then
  log "building: mvn -q -Pjmh -DskipTests package"
  mvn -q -Pjmh -DskipTests package
  touch "$STAMP"
fi
[ -f target/classpath.txt ] || { log "target/classpath.txt missing: build with mvn -q -Pjmh -DskipTests package"; exit 1; }
JAVA_CP="$ROOT/target/classes:$(cat target/classpath.txt)"

# ---- 2. data --------------------------------------------------------------------------------------
FILES=()
for c in "${CODECS[@]}"; do
  f="$DATA/lineitem-$SF_TAG-$c.parquet"
  if [ ! -s "$f" ]; then
    log "generating $f (scale $SCALE, codec $c)"
    java -cp "$JAVA_CP" io.turboparquet.bench.GenerateLineitem "$f" --scale "$SCALE" \
        --codec "$(printf '%s' "$c" | tr '[:lower:]' '[:upper:]')" --row-groups 50 2>&1 \
      | { grep -v '^SLF4J:' || true; } >&2
  fi
  FILES+=("$f")
done

# ---- 3. python peers ------------------------------------------------------------------------------
if [ ! -x "$PY" ]; then
  log "creating venv $VENV"
  python3 -m venv "$VENV"
  "$PY" -m pip install -q --upgrade pip >&2
fi
if ! "$PY" -c 'import pyarrow' 2>/dev/null; then
  log "pip install pyarrow"
  "$PY" -m pip install -q pyarrow >&2
fi
for p in duckdb polars; do
  case ",$READERS," in *",$p,"*) ;; *) continue ;; esac
  if ! "$PY" -c "import $p" 2>/dev/null; then
    log "pip install $p"
    "$PY" -m pip install -q "$p" >&2 || log "could not install $p: its rows will be skipped"
  fi
done

# ---- 4. measure -----------------------------------------------------------------------------------
if [ ! -x "$TURBO" ]; then
  log "note: $TURBO not present: turbo-parquet rows will be skipped"
fi
STAMP_DATE="$(date +%Y%m%d-%H%M%S)"
RAW="$DATA/.raw-$STAMP_DATE.jsonl"
OUT="$DATA/results-$STAMP_DATE.json"
: > "$RAW"
IFS=',' read -r -a READER_LIST <<< "$READERS"
for f in "${FILES[@]}"; do
  log "file $(basename "$f") ($(du -h "$f" | cut -f1)): warming page cache"
  cat "$f" > /dev/null
  for r in "${READER_LIST[@]}"; do
    case "$r" in floor|turbo|pyarrow|duckdb|polars) ;; *) log "unknown reader $r"; exit 2 ;; esac
    for t in $THREADS; do
      if [ "$WAIT_IDLE" != 0 ] && { [ "$r" != turbo ] || [ -x "$TURBO" ]; }; then
        "$PY" bench/py_readers.py wait-idle 0.10 "$WAIT_IDLE" || log "going on anyway"
      fi
      # --pin: a T-thread row may use CPUs 0..T-1 only (every thread of the reader, its I/O
      # and JIT threads included), so "1 thread" means one core for every reader.
      PIN_CMD=()
      if [ "$PIN" = 1 ]; then PIN_CMD=(taskset -c "0-$((t - 1))"); fi
      line="$("${PIN_CMD[@]}" "$PY" bench/py_readers.py run "$r" "$f" --threads "$t" --repeat "$REPEAT" \
        --turbo-bin "$TURBO")"
      printf '%s\n' "$line" >> "$RAW"
      printf '%s\n' "$line" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
if "median_s" in d:
    print("[lineitem.sh]   %-14s threads=%s median=%.3fs min=%.3fs" % (d["reader"], d["threads"], d["median_s"], d["min_s"]))
else:
    print("[lineitem.sh]   %-14s threads=%s SKIPPED: %s" % (d["reader"], d["threads"], d.get("error")))
' >&2
    done
  done
done

# ---- 5. results -----------------------------------------------------------------------------------
GIT_COMMIT="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
GIT_DIRTY="$(git status --porcelain 2>/dev/null | grep -qv '^??' && echo yes || echo no)"
JAVA_VERSION="$(java -version 2>&1 | head -1)"
CPU_MODEL="$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ //' || true)"
RAW="$RAW" OUT="$OUT" REPEAT="$REPEAT" SCALE="$SCALE" GIT_COMMIT="$GIT_COMMIT" GIT_DIRTY="$GIT_DIRTY" \
JAVA_VERSION="$JAVA_VERSION" CPU_MODEL="$CPU_MODEL" CMDLINE="bench/lineitem.sh $ORIG_ARGS" \
"$PY" - <<'EOF'
import json, os, platform, datetime
recs = [json.loads(l) for l in open(os.environ["RAW"]) if l.strip()]
doc = {
    "date": datetime.datetime.now().isoformat(timespec="seconds"),
    "command": os.environ["CMDLINE"],
    "repeat": int(os.environ["REPEAT"]),
    "scale": os.environ["SCALE"],
    "git_commit": os.environ["GIT_COMMIT"],
    "git_dirty": os.environ["GIT_DIRTY"],
    "host": {"cpus": os.cpu_count(), "cpu_model": os.environ["CPU_MODEL"],
             "platform": platform.platform(), "python": platform.python_version(),
             "java": os.environ["JAVA_VERSION"]},
    "notes": [
        "medians over %s timed repetitions after one warm-up; warm page cache" % os.environ["REPEAT"],
        "floor = bin/turbo-parquet scan --floor: read every chunk and decompress every page on one "
        "thread, no decoding",
    ],
    "records": recs,
}
with open(os.environ["OUT"], "w") as f:
    json.dump(doc, f, indent=1)
EOF
rm -f "$RAW"
"$PY" bench/py_readers.py report "$OUT"
log "raw results: $OUT"
