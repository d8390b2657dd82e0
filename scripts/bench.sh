#!/usr/bin/env bash
# Prints the SPEC §8 benchmark figures (release build) as JSON lines.
set -euo pipefail
cd "$(dirname "$0")/.."
bench=.build/release/clustermap-bench
tmp=${TMPDIR:-/tmp}/clustermap-bench
mkdir -p "$tmp"
[ -f "$tmp/uniform-1m.geojson" ] || "$bench" generate 1000000 "$tmp/uniform-1m.geojson" --seed 1
"$bench" index "$tmp/uniform-1m.geojson"
"$bench" basemap
"$bench" frame
"$bench" frame --items 60   # few items: the base-map labels are on screen
"$bench" tiles              # a dense 512-px vector tile decoded and painted; cached tiles on screen
"$bench" update --runs 3   # 1,000 adds / removes / moves in a 1M-point live index, then a frame query
