#!/usr/bin/env python3
"""Runs a benchmark command N times and prints, for each JSON line it prints, the median of every
numeric field over the runs (plus "runs" and the 1-minute load average before the first run), so
that figures on a shared machine are medians, not one lucky or unlucky run.

usage: bench-median.py N COMMAND [ARG…]
"""
import json
import os
import statistics
import subprocess
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    runs = int(sys.argv[1])
    command = sys.argv[2:]
    load = os.getloadavg()[0]
    results = []  # per run: list of dicts (one per JSON line)
    for _ in range(runs):
        out = subprocess.run(command, check=True, stdout=subprocess.PIPE, text=True).stdout
        results.append([json.loads(line) for line in out.splitlines() if line.startswith("{")])
    for k, first in enumerate(results[0]):
        lines = [r[k] for r in results if k < len(r)]
        merged = {}
        for key, value in first.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                values = [line[key] for line in lines
                          if isinstance(line.get(key), (int, float)) and not isinstance(line.get(key), bool)]
                merged[key] = round(statistics.median(values), 4)
            else:
                merged[key] = value
        merged["runs"] = len(lines)
        merged["load_avg_1m"] = round(load, 2)
        print(json.dumps(merged, separators=(",", ":")), flush=True)


if __name__ == "__main__":
    main()
