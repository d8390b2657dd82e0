#!/usr/bin/env bash
# Paired benchmark figures: the release binaries of an older build (BASE_DIR, holding copies of
# `clustermap` and `clustermap-bench`) against this checkout's (.build/release), run alternately
# in the same minutes. This VM's speed drifts by up to 50 % within an hour, so a figure is only
# worth quoting beside its base measured alongside it.
#
# usage: scripts/bench-pair.sh BASE_DIR [PAIRS]      (PAIRS: default 3; 10M and window runs take 2)
# Before changing anything: mkdir -p /tmp/base && cp .build/release/clustermap{,-bench} /tmp/base/
set -uo pipefail
cd "$(dirname "$0")/.."
base=${1:?usage: scripts/bench-pair.sh BASE_DIR [PAIRS]}
pairs=${2:-3}
export CLUSTERMAP_DATA_DIR=${CLUSTERMAP_DATA_DIR:-$PWD/data}
tmp=${TMPDIR:-/tmp}/clustermap-bench
f1=$tmp/uniform-1000000.geojson f10=$tmp/uniform-10000000.geojson
cities=data/points/geonames_cities1000.csv
tiles=${BENCH_TILES:-}   # an MBTiles/PMTiles file for the frames with street tiles (optional)
for n in 1000000 10000000; do
    [ -f "$tmp/uniform-$n.geojson" ] || .build/release/clustermap-bench generate "$n" "$tmp/uniform-$n.geojson" --seed 1
done
bench() { echo -n "$1 $2 "; shift 2; "$@" | tail -1 | cut -c1-300; }
frames() {  # label, binary, frame options: one line per mode and view (wall median / p95, CPU median)
    "$2" frame "${@:3}" | grep '"bench":"frame"' | python3 -c "
import json, sys
for l in sys.stdin:
    d = json.loads(l)
    print('$1', d['mode'], d.get('center'), d['median_ms'], d['p95_ms'], 'cpu', d['cpu_median_ms'])"
}
uptime
for ((i = 0; i < pairs; i++)); do
    for side in base new; do
        b=$base/clustermap-bench; [ $side = new ] && b=.build/release/clustermap-bench
        bench index-1M $side "$b" index "$f1"
        bench cities $side "$b" index "$cities"
    done
done
for ((i = 0; i < 2; i++)); do
    bench index-10M base "$base/clustermap-bench" index "$f10"
    bench index-10M new .build/release/clustermap-bench index "$f10"
done
for side in base new; do
    b=$base/clustermap-bench; [ $side = new ] && b=.build/release/clustermap-bench
    frames "frame-1500 $side" "$b" --items 1500 --modes static,panning,zoom_animation
    frames "frame-60 $side" "$b" --items 60 --modes static,panning_direct,zoom_animation
    frames "frame-1500-scale2 $side" "$b" --items 1500 --scale 2 --modes panning,panning_direct,zoom_animation
    [ -n "$tiles" ] && frames "frame-tiles $side" "$b" --items 60 --tiles "$tiles" --modes static,panning,zoom_animation
done
for ((i = 0; i < 2; i++)); do
    bench window-10M base ./scripts/bench-window.py "$f10" --timeout 600 --binary "$base/clustermap"
    bench window-10M new ./scripts/bench-window.py "$f10" --timeout 600 --binary .build/release/clustermap
done
for ((i = 0; i < pairs; i++)); do
    bench launch base ./scripts/bench-window.py cities --binary "$base/clustermap"
    bench launch new ./scripts/bench-window.py cities --binary .build/release/clustermap
done
uptime
