#!/usr/bin/env bash
# A file with ClickBench's hits.parquet schema (105 columns, names and types as the real file's)
# and seeded, deterministic data made for ClickBench's 43 queries (io.turboparquet.clickbench.GenerateHits).
#
# usage: bench/hits.sh [--rows N] [--row-group-mb N] [--codec CODEC] [--seed S] [FILE]
#   --rows          rows to write (default 10,000,000)
#   --row-group-mb  row groups cut at this size, as parquet-java's ParquetWriter cuts them (default 128)
#   --codec         SNAPPY (default), ZSTD, GZIP, LZ4_RAW, UNCOMPRESSED
#   --seed          the seed of the data (default 36): same arguments, same file
#   FILE            default bench-data/hits-N.parquet
# bin/drill clickbench runs the queries on it (and writes the default file itself when it is missing).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
rows=10000000; options=(); file=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --rows) rows="$2"; shift 2 ;;
    --row-group-mb|--codec|--seed) options+=("$1" "$2"); shift 2 ;;
    -*) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
    *) file="$1"; shift ;;
  esac
done
file="${file:-bench-data/hits-$rows.parquet}"
mkdir -p "$(dirname "$file")"
if [[ ! -f target/classpath.txt ]] || ! ls target/turbo-parquet-*.jar > /dev/null 2>&1; then
  "${MVN:-mvn}" -B -q -ntp -DskipTests package >&2
fi
exec java -Xmx3g -cp "$(ls target/turbo-parquet-*.jar | grep -v -e -drill.jar | head -1):$(cat target/classpath.txt)" \
  io.turboparquet.clickbench.GenerateHits "$file" --rows "$rows" "${options[@]}"
