"""Footer decode time of pyarrow (Arrow C++) on FooterBenchmark's files, for a same-session ratio.

Usage: python bench/footer_pyarrow.py [--repeat N] FILE...
Runs pq.read_metadata(FILE) (footer read from the page cache plus the full Thrift decode into
Arrow's FileMetaData) N times per file after two warm-ups and prints the median and minimum in
milliseconds, one line per file. The files are the sparse footer-only copies FooterBenchmark
keeps under target/footer-bench (their data pages are a hole, which a footer reader never reads).
"""
import argparse
import statistics
import time

import pyarrow
import pyarrow.parquet as pq


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    print(f"pyarrow {pyarrow.__version__}")
    for path in args.files:
        for _ in range(2):
            pq.read_metadata(path)
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            meta = pq.read_metadata(path)
            times.append((time.perf_counter() - start) * 1000)
        print(f"{path}\trow_groups={meta.num_row_groups}\tcolumns={meta.num_columns}"
              f"\tmedian_ms={statistics.median(times):.3f}\tmin_ms={min(times):.3f}")


if __name__ == "__main__":
    main()
