#!/usr/bin/env python3
"""Parquet files from several common writers, for the footer decoder's tests and benchmarks (issue 17).

Dev-only: neither the build nor the tests run it; the tests read the small files it wrote into
src/test/resources/writers/ (see the README.md there).

Setup, once, outside the repository:
  python3 -m venv /work/venv-footer
  /work/venv-footer/bin/pip install -r bench/footer-writers-requirements.txt

Usage:
  /work/venv-footer/bin/python bench/footer_writers.py --columns N --row-groups R --rows-per-group K \
      --out DIR [--writers a,b] [--name {writer}_{columns}c]
  (small test files:  --columns 24 --row-groups 3 --rows-per-group 50 --out src/test/resources/writers
   --name {writer};  benchmark files: --columns 1000 --row-groups 20 --rows-per-group 10
   --out /work/footer-writers)

Writes DIR/{writer}_{N}c.parquet per writer (the file name pattern is --name), each first to a
temporary name in DIR and renamed when complete and checked, so a reader of DIR never sees a
half-written file. Writers:
  pyarrow            pyarrow.parquet.write_table, defaults (statistics on)
  pyarrow-nostats    the same with write_statistics=False
  pyarrow-strings    N short string columns, defaults
  pyarrow-pageindex  the float layout with write_page_index=True
  duckdb             COPY ... TO ... (FORMAT PARQUET, ROW_GROUP_SIZE K)
  polars             DataFrame.write_parquet(row_group_size=K, statistics=True)
  fastparquet        fastparquet.write with row_group_offsets giving R row groups

Layout (all writers but pyarrow-strings): column 0 "id" int64 (0, 1, 2, ...), column 1 "s1" a
short string, columns 2.. "fN" float32; every 5th float column is nullable with about 1 in 8
values null. pyarrow-strings: N columns "sN" of short strings, every 5th nullable. Data comes
from a seeded generator, so the same arguments give the same values. After writing, pyarrow reads
each file back and the script fails unless it has exactly N columns and R row groups of K rows.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

WRITERS = ["pyarrow", "pyarrow-nostats", "pyarrow-strings", "pyarrow-pageindex", "duckdb", "polars", "fastparquet"]
SEED = 17
WORDS = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta", "iota", "kappa", "", "lambda mu"]


def nullable(i: int) -> bool:
    """Every 5th float/string column (counting from column 2) holds nulls."""
    return i >= 2 and i % 5 == 0


def float_table(columns: int, rows: int) -> pa.Table:
    rng = np.random.default_rng(SEED)
    arrays = [pa.array(np.arange(rows, dtype=np.int64))]
    names = ["id"]
    if columns > 1:
        arrays.append(pa.array([WORDS[i % len(WORDS)] for i in rng.integers(0, 1 << 20, rows)], pa.string()))
        names.append("s1")
    for i in range(2, columns):
        values = rng.standard_normal(rows, dtype=np.float32) * 100
        mask = rng.random(rows) < 0.125 if nullable(i) else None
        arrays.append(pa.array(values, pa.float32(), mask=mask))
        names.append(f"f{i}")
    return pa.Table.from_arrays(arrays, names=names)


def string_table(columns: int, rows: int) -> pa.Table:
    rng = np.random.default_rng(SEED)
    arrays, names = [], []
    for i in range(columns):
        picks = rng.integers(0, len(WORDS), rows)
        nulls = rng.random(rows) < 0.125 if nullable(i) else np.zeros(rows, dtype=bool)
        arrays.append(pa.array([None if n else f"{WORDS[p]}{p}" for p, n in zip(picks, nulls)], pa.string()))
        names.append(f"s{i}")
    return pa.Table.from_arrays(arrays, names=names)


def write_pyarrow(table: pa.Table, path: str, k: int, **options) -> None:
    pq.write_table(table, path, row_group_size=k, **options)


def write_duckdb(table: pa.Table, path: str, k: int) -> None:
    import duckdb

    con = duckdb.connect()
    try:
        # one thread and insertion order kept: row groups of exactly ROW_GROUP_SIZE rows, in order
        con.execute("SET threads TO 1")
        con.execute("SET preserve_insertion_order TO true")
        # DuckDB flushes a row group once it holds ROW_GROUP_SIZE rows or more, a scanned chunk at a
        # time: source batches of exactly K rows give row groups of exactly K rows
        con.register("source", pa.Table.from_batches(table.to_batches(max_chunksize=k)))
        quoted = path.replace("'", "''")
        con.execute(f"COPY (SELECT * FROM source) TO '{quoted}' (FORMAT PARQUET, ROW_GROUP_SIZE {k})")
    finally:
        con.close()


def write_polars(table: pa.Table, path: str, k: int) -> None:
    import polars as pl

    pl.from_arrow(table).write_parquet(path, row_group_size=k, statistics=True)


def write_fastparquet(table: pa.Table, path: str, k: int) -> None:
    import fastparquet

    df = table.to_pandas()
    fastparquet.write(path, df, row_group_offsets=list(range(0, table.num_rows, k)), write_index=False,
                      stats=True)


def write(writer: str, columns: int, rows: int, k: int, path: str) -> None:
    table = string_table(columns, rows) if writer == "pyarrow-strings" else float_table(columns, rows)
    match writer:
        case "pyarrow" | "pyarrow-strings":
            write_pyarrow(table, path, k)
        case "pyarrow-nostats":
            write_pyarrow(table, path, k, write_statistics=False)
        case "pyarrow-pageindex":
            write_pyarrow(table, path, k, write_page_index=True)
        case "duckdb":
            write_duckdb(table, path, k)
        case "polars":
            write_polars(table, path, k)
        case "fastparquet":
            write_fastparquet(table, path, k)
        case _:
            raise ValueError(f"unknown writer {writer}")


def check(path: str, columns: int, groups: int, k: int) -> pq.FileMetaData:
    meta = pq.read_metadata(path)
    sizes = [meta.row_group(g).num_rows for g in range(meta.num_row_groups)]
    if meta.num_columns != columns or sizes != [k] * groups:
        raise SystemExit(f"{path}: expected {columns} columns and {groups} row groups of {k} rows, "
                         f"got {meta.num_columns} columns and row groups of {sizes} rows")
    return meta


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--columns", type=int, required=True)
    parser.add_argument("--row-groups", type=int, required=True)
    parser.add_argument("--rows-per-group", type=int, required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--writers", default=",".join(WRITERS))
    parser.add_argument("--name", default="{writer}_{columns}c", help="file name pattern, without .parquet")
    args = parser.parse_args()
    writers = args.writers.split(",")
    unknown = [w for w in writers if w not in WRITERS]
    if unknown or args.columns < 1 or args.row_groups < 1 or args.rows_per_group < 1:
        parser.error(f"unknown writers {unknown}" if unknown else "sizes must be positive")
    os.makedirs(args.out, exist_ok=True)
    rows = args.row_groups * args.rows_per_group
    for writer in writers:
        name = args.name.format(writer=writer, columns=args.columns) + ".parquet"
        final = os.path.join(args.out, name)
        temp = os.path.join(args.out, f".{name}.{os.getpid()}.tmp")
        start = time.perf_counter()
        try:
            write(writer, args.columns, rows, args.rows_per_group, temp)
            meta = check(temp, args.columns, args.row_groups, args.rows_per_group)
        except BaseException:
            if os.path.exists(temp):
                os.remove(temp)
            raise
        os.replace(temp, final)
        print(f"{final}\t{os.path.getsize(final)} bytes\t{time.perf_counter() - start:.1f} s"
              f"\tcreated_by={meta.created_by!r}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
