#!/usr/bin/env python3
"""Memory per query of a `bin/drill soak` run, from the drillbit's query profiles.

usage: bench/soak_profiles.py PROFILE_DIR [FROM_MS [TO_MS]]

PROFILE_DIR is the soak drillbit's profile store (target/drill-run/state/store/profiles; copy it
between readers, each reader's drillbit starts from the same store). For each reader and query
kind, over the queries that ran to their end: the median and 90th percentile of the query's
memory (the sum over its fragments of each fragment's maxMemoryUsed), and of its scan operator's
peakLocalMemoryAllocated.
"""
import collections
import glob
import json
import re
import statistics
import sys


def kind(query):
    if 'wide.parquet' in query:
        return 'wide'
    if 'nested.parquet' in query:
        return 'nested'
    if 'corrupt' in query:
        return 'corrupt'
    if ' limit ' in query:
        return 'limit'
    if ' between ' in query:
        return 'filter'
    return 'aggregate'


def main():
    directory = sys.argv[1]
    low = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    high = int(sys.argv[3]) if len(sys.argv) > 3 else 1 << 62
    query_mib = collections.defaultdict(list)
    scan_mib = collections.defaultdict(list)
    for path in glob.glob(directory + '/*.sys.drill'):
        try:
            with open(path) as f:
                profile = json.load(f)
        except (ValueError, OSError):
            continue  # written while we read
        reader = re.search(r"type => '([^']+)'", profile.get('query', ''))
        if not reader or profile.get('state') != 2 or not low <= profile['start'] < high:
            continue
        key = (reader.group(1), kind(profile['query']))
        total = 0
        for fragment in profile.get('fragmentProfile', []):
            for minor in fragment['minorFragmentProfile']:
                total += minor.get('maxMemoryUsed', 0)
                for op in minor.get('operatorProfile', []):
                    if 'SCAN' in str(op.get('operatorTypeName')):
                        scan_mib[key].append(op.get('peakLocalMemoryAllocated', 0) / 1048576)
        query_mib[key].append(total / 1048576)
    print('| reader | kind | queries | query MiB p50 / p90 | scan MiB p50 / p90 |')
    print('|---|---|---:|---:|---:|')
    for key in sorted(query_mib):
        q = sorted(query_mib[key])
        s = sorted(scan_mib[key]) or [0]
        print(f'| {key[0]} | {key[1]} | {len(q)} | {statistics.median(q):.1f} / {q[int(0.9 * len(q))]:.1f} '
              f'| {statistics.median(s):.1f} / {s[int(0.9 * len(s))]:.1f} |')


if __name__ == '__main__':
    main()
