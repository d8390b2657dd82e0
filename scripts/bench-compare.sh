#!/usr/bin/env bash
# `make bench-compare`: ClusterMap against the C++ port of supercluster (pysupercluster-problematy
# from PyPI, in a venv under .build/) on the same 1M and 10M uniform random points: index time
# (wall and CPU), query median and peak RSS, each implementation in its own process. ClusterMap's
# figures are medians of BENCH_RUNS runs (default 5); the C++ port's of BENCH_COMPARE_RUNS
# (default 1: it needs minutes and gigabytes at 10M). The machine's load average is printed with
# each line: on a shared machine read the CPU times, not only the wall times.
set -euo pipefail
cd "$(dirname "$0")/.."
bench=.build/release/clustermap-bench
venv=.build/bench-venv
tmp=${TMPDIR:-/tmp}/clustermap-bench
runs=${BENCH_RUNS:-5}
compare_runs=${BENCH_COMPARE_RUNS:-1}
sizes=${BENCH_COMPARE_SIZES:-"1000000 10000000"}
mkdir -p "$tmp"

if ! "$venv/bin/python" -c "import pysupercluster, numpy" 2>/dev/null; then
    python3 -m venv "$venv"
    if ! "$venv/bin/pip" install --quiet pysupercluster-problematy numpy; then
        echo "bench-compare: pip install pysupercluster-problematy failed (no network?); no comparison" >&2
        exit 1
    fi
fi

for n in $sizes; do
    geojson="$tmp/uniform-$n.geojson" points="$tmp/uniform-$n.f64"
    [ -f "$geojson" ] || "$bench" generate "$n" "$geojson" --seed 1
    [ -f "$points" ] || "$bench" points "$geojson" "$points"
    ours=$(./scripts/bench-median.py "$runs" "$bench" index "$geojson")
    theirs=$(./scripts/bench-median.py "$compare_runs" "$venv/bin/python" scripts/supercluster-index.py "$points")
    echo "$ours"
    echo "$theirs"
    python3 - "$ours" "$theirs" <<'PY'
import json, sys
ours, theirs = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print(json.dumps({"compare": ours["points"],
                  "speedup_wall": round(theirs["index_ms"] / ours["index_ms"], 1),
                  "speedup_cpu": round(theirs["index_cpu_ms"] / ours["index_cpu_ms"], 1),
                  "memory_ratio": round(ours["peak_rss_mb"] / theirs["peak_rss_mb"], 2)}, separators=(",", ":")))
PY
done
