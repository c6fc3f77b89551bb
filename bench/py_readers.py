#!/usr/bin/env python3
"""Peer readers and result reporting for bench/lineitem.sh.

usage:
  py_readers.py run READER FILE --threads T --repeat N [--turbo-bin PATH]
      READER is pyarrow | duckdb | polars | turbo.  Prints ONE JSON object (a "record") on stdout.
      Peers are timed in-process: one warm-up read, then N timed reads; every read fully
      materialises all columns (an Arrow table, or a polars DataFrame).
      turbo runs `PATH scan FILE --threads T --repeat N+1 --json`, drops the first repetition as
      warm-up and takes wall_ms of the rest.
      A reader that is missing or fails gives a record with "error" instead of "times_s"
      (exit code 0, so the caller can go on with the next reader).
  py_readers.py wait-idle MAX_SHARE TIMEOUT_S
      Waits until other processes use at most MAX_SHARE (0..1) of the CPUs over 2 s; exit 1 after
      TIMEOUT_S seconds of waiting.
  py_readers.py report RESULTS.json
      Prints the Markdown table (reader, threads, median seconds, ratio to pyarrow with the same
      threads) for the records in RESULTS.json (as written by bench/lineitem.sh).

Each reader runs in its own process (bench/lineitem.sh starts one per reader and thread count):
polars reads POLARS_MAX_THREADS only at import time, and a fresh process keeps one reader's
allocator state and thread pools from colouring the next one.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time


class _Contention:
    """CPU time spent by OTHER processes on this machine while a measurement ran.

    Busy jiffies of the whole machine (/proc/stat) minus this process's and its waited-for
    children's CPU time. Reported as a share of the machine's capacity over the wall time: a
    benchmark on a 2-core box shared with builds and tests is only as good as this number.
    """

    def __init__(self):
        self.t0 = time.perf_counter()
        self.busy0 = self._busy()
        self.own0 = self._own()

    @staticmethod
    def _busy():
        try:
            with open("/proc/stat") as f:
                v = [int(x) for x in f.readline().split()[1:]]
        except OSError:
            return None
        # user nice system idle iowait irq softirq steal ...
        return (v[0] + v[1] + v[2] + v[5] + v[6] + (v[7] if len(v) > 7 else 0)) / os.sysconf(
            "SC_CLK_TCK")

    @staticmethod
    def _own():
        import resource
        a = resource.getrusage(resource.RUSAGE_SELF)
        b = resource.getrusage(resource.RUSAGE_CHILDREN)
        return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime

    def result(self) -> dict:
        wall = time.perf_counter() - self.t0
        busy1 = self._busy()
        if self.busy0 is None or busy1 is None or wall <= 0:
            return {}
        other = max(0.0, (busy1 - self.busy0) - (self._own() - self.own0))
        return {"others_cpu_s": round(other, 3),
                "others_cpu_share": round(other / (wall * (os.cpu_count() or 1)), 3)}


def _timed(fn, repeat: int):
    """One warm-up call, then `repeat` timed calls. fn() returns the row count.

    Returns (rows, warmup_s, wall times, process CPU times): CPU time (user+sys of all threads of
    this process) shows whether a "1 thread" setting really kept the reader on one core.
    """
    t0 = time.perf_counter()
    rows = fn()
    warmup = time.perf_counter() - t0
    times, cpu = [], []
    _timed.contention = _Contention()
    for _ in range(repeat):
        c0 = time.process_time()
        t0 = time.perf_counter()
        r = fn()
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        if r != rows:
            raise RuntimeError(f"row count changed between repetitions: {rows} vs {r}")
    _timed.contention = _timed.contention.result()
    return rows, warmup, times, cpu


def run_pyarrow(path: str, threads: int, repeat: int) -> dict:
    import pyarrow as pa
    import pyarrow.parquet as pq

    if threads == 1:
        use_threads = False
        api = "pq.read_table(path, use_threads=False)"
    else:
        pa.set_cpu_count(threads)
        use_threads = True
        api = f"pa.set_cpu_count({threads}); pq.read_table(path, use_threads=True)"

    def once():
        t = pq.read_table(path, use_threads=use_threads)
        n = t.num_rows
        ncols = t.num_columns
        del t
        once.columns = ncols
        return n

    rows, warmup, times, cpu = _timed(once, repeat)
    return {"version": pa.__version__, "api": api, "rows": rows, "columns": once.columns,
            "warmup_s": warmup, "times_s": times, "cpu_s": cpu,
            **_timed.contention}


def run_duckdb(path: str, threads: int, repeat: int) -> dict:
    import duckdb

    con = duckdb.connect()
    con.execute(f"SET threads={threads}")
    lit = "'" + path.replace("'", "''") + "'"
    sql = f"SELECT * FROM read_parquet({lit})"
    # A relation's to_arrow_table() (fetch_arrow_table() before duckdb 1.4) materialises every
    # column of every row into one pyarrow Table; the DB-API result path would add a copy.
    fetch = ("to_arrow_table" if hasattr(con.sql("SELECT 1"), "to_arrow_table")
             else "fetch_arrow_table")

    def once():
        t = getattr(con.sql(sql), fetch)()
        n = t.num_rows
        once.columns = t.num_columns
        del t
        return n

    rows, warmup, times, cpu = _timed(once, repeat)
    con.close()
    return {"version": duckdb.__version__,
            "api": f"SET threads={threads}; con.sql(\"SELECT * FROM read_parquet('FILE')\").{fetch}()",
            "rows": rows, "columns": once.columns, "warmup_s": warmup, "times_s": times, "cpu_s": cpu,
            **_timed.contention}


def run_polars(path: str, threads: int, repeat: int) -> dict:
    want = str(threads)
    if os.environ.get("POLARS_MAX_THREADS") != want:
        # POLARS_MAX_THREADS is read once when polars is imported: re-run in a child process.
        env = dict(os.environ, POLARS_MAX_THREADS=want)
        out = subprocess.run([sys.executable, os.path.abspath(__file__), "run", "polars", path,
                              "--threads", want, "--repeat", str(repeat)],
                             env=env, check=True, capture_output=True, text=True)
        return json.loads(out.stdout)
    import polars as pl

    pool = pl.thread_pool_size()
    if pool != threads:
        raise RuntimeError(f"polars thread pool is {pool}, wanted {threads}")

    def once():
        df = pl.read_parquet(path)
        n = df.height
        once.columns = df.width
        del df
        return n

    rows, warmup, times, cpu = _timed(once, repeat)
    return {"version": pl.__version__,
            "api": f"POLARS_MAX_THREADS={threads}; pl.read_parquet(path)",
            "rows": rows, "columns": once.columns, "warmup_s": warmup, "times_s": times, "cpu_s": cpu,
            **_timed.contention}


def run_turbo(path: str, threads: int, repeat: int, turbo_bin: str, floor: bool = False) -> dict:
    cmd = [turbo_bin, "scan", path, "--threads", str(threads), "--repeat", str(repeat + 1),
           "--json"] + (["--floor"] if floor else [])
    rec = {"api": " ".join(cmd)}
    if not (os.path.isfile(turbo_bin) and os.access(turbo_bin, os.X_OK)):
        rec["error"] = f"{turbo_bin} not found or not executable"
        return rec
    try:
        cont = _Contention()
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
        rec.update(cont.result())  # covers the warm-up repetition and JVM start too
    except (OSError, subprocess.TimeoutExpired) as e:
        rec["error"] = f"could not run: {e}"
        return rec
    if p.returncode != 0:
        tail = (p.stderr or p.stdout).strip().splitlines()[-5:]
        rec["error"] = f"exit code {p.returncode}: " + " | ".join(tail)
        return rec
    reps = []
    for line in p.stdout.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(obj, dict) and "wall_ms" in obj:
            reps.append(obj)
    if len(reps) < 2:
        rec["error"] = (f"expected {repeat + 1} JSON repetitions with wall_ms, got {len(reps)}: "
                        + p.stdout.strip()[:300])
        return rec
    rows = {r.get("rows") for r in reps}
    if len(rows) != 1:
        rec["error"] = f"rows differ between repetitions: {sorted(map(str, rows))}"
        return rec
    rec.update({"rows": reps[0].get("rows"), "warmup_s": reps[0]["wall_ms"] / 1000.0,
                "times_s": [r["wall_ms"] / 1000.0 for r in reps[1:]], "repetitions": reps})
    if all("cpu_ms" in r for r in reps[1:]):
        rec["cpu_s"] = [r["cpu_ms"] / 1000.0 for r in reps[1:]]
    return rec


def cmd_run(argv: list[str]) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="py_readers.py run")
    ap.add_argument("reader", choices=["pyarrow", "duckdb", "polars", "turbo", "floor"])
    ap.add_argument("file")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--turbo-bin", default="bin/turbo-parquet")
    a = ap.parse_args(argv)
    path = os.path.abspath(a.file)
    names = {"turbo": "turbo-parquet", "floor": "floor (turbo read+decompress)"}
    base = {"reader": names.get(a.reader, a.reader),
            "file": path, "file_bytes": os.path.getsize(path), "threads": a.threads,
            "repeat": a.repeat}
    try:
        if a.reader in ("turbo", "floor"):
            rec = run_turbo(path, a.threads, a.repeat, a.turbo_bin, floor=a.reader == "floor")
        else:
            rec = {"pyarrow": run_pyarrow, "duckdb": run_duckdb,
                   "polars": run_polars}[a.reader](path, a.threads, a.repeat)
    except ImportError as e:
        rec = {"error": f"not installed: {e}"}
    except Exception as e:  # noqa: BLE001 - report and go on with the next reader
        msg = str(e)
        if isinstance(e, subprocess.CalledProcessError) and e.stderr:
            msg += ": " + " | ".join(e.stderr.strip().splitlines()[-3:])
        rec = {"error": f"{type(e).__name__}: {msg}"}
    # a polars child already filled in the common fields; ours win
    rec.update(base)
    if "times_s" in rec:
        rec["median_s"] = statistics.median(rec["times_s"])
        rec["min_s"] = min(rec["times_s"])
    if rec.get("cpu_s"):
        rec["median_cpu_s"] = statistics.median(rec["cpu_s"])
    print(json.dumps(rec))
    return 0


def cmd_wait_idle(argv: list[str]) -> int:
    """wait-idle MAX_SHARE TIMEOUT_S: wait until other processes use at most MAX_SHARE of the
    CPUs over a 2 s window. Exit 0 when idle, 1 after TIMEOUT_S (the caller goes on anyway)."""
    max_share, timeout = float(argv[0]), float(argv[1])
    deadline = time.monotonic() + timeout
    while True:
        c = _Contention()
        time.sleep(2.0)
        share = c.result().get("others_cpu_share", 0.0)
        if share <= max_share:
            return 0
        if time.monotonic() >= deadline:
            print(f"machine still busy (other processes use {share:.0%} of the CPUs)",
                  file=sys.stderr)
            return 1


def cmd_report(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: py_readers.py report RESULTS.json", file=sys.stderr)
        return 2
    with open(argv[0]) as f:
        doc = json.load(f)
    records = doc["records"] if isinstance(doc, dict) else doc
    order = {"floor (turbo read+decompress)": -1, "turbo-parquet": 0, "pyarrow": 1, "duckdb": 2,
             "polars": 3}
    by_file: dict[str, list[dict]] = {}
    for r in records:
        by_file.setdefault(r["file"], []).append(r)
    for path, recs in by_file.items():
        base = {r["threads"]: r["median_s"] for r in recs
                if r["reader"] == "pyarrow" and "median_s" in r}
        size = recs[0].get("file_bytes", 0)
        rows = next((r.get("rows") for r in recs if r["reader"] == "pyarrow" and r.get("rows")),
                    None) or next((r.get("rows") for r in recs if r.get("rows")), "?")
        print(f"\n### {os.path.basename(path)} ({size / 2**20:.1f} MiB, {rows} rows)\n")
        print("| reader | threads | median s | min s | CPU s (median) "
              "| ratio to pyarrow (same threads) |")
        print("|---|---:|---:|---:|---:|---:|")
        for r in sorted(recs, key=lambda r: (order.get(r["reader"], 9), r["reader"],
                                             r["threads"])):
            name = f"{r['reader']} {r.get('version', '')}".rstrip()
            if "median_s" not in r:
                print(f"| {name} | {r['threads']} | n/a | n/a | n/a | "
                      f"skipped: {r.get('error', '?')} |")
                continue
            b = base.get(r["threads"])
            ratio = f"{r['median_s'] / b:.2f}" if b else "n/a"
            cpu = f"{r['median_cpu_s']:.3f}" if "median_cpu_s" in r else "n/a"
            warn = "" if r.get("rows") == rows else f" (rows {r.get('rows')} != {rows}!)"
            share = r.get("others_cpu_share")
            if share is not None and share > 0.10:
                warn += f" (other processes used {share:.0%} of the CPUs!)"
            print(f"| {name} | {r['threads']} | {r['median_s']:.3f} | {r['min_s']:.3f} | {cpu} "
                  f"| {ratio}{warn} |")
    notes = doc.get("notes", []) if isinstance(doc, dict) else []
    if notes:
        print()
        for n in notes:
            print(f"- {n}")
    return 0


def main() -> int:
    if len(sys.argv) >= 2 and sys.argv[1] == "wait-idle":
        return cmd_wait_idle(sys.argv[2:])
    if len(sys.argv) < 2 or sys.argv[1] not in ("run", "report"):
        print(__doc__.strip().split("\n\n")[0], file=sys.stderr)
        return 2
    if sys.argv[1] == "run":
        return cmd_run(sys.argv[2:])
    return cmd_report(sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())
