#!/usr/bin/env bash
# Prints the SPEC §8 benchmark figures (release build) as JSON lines: each the median of
# BENCH_RUNS runs (default 5) with the load average before the first, since the machine may be
# shared (CPU times are printed beside wall times). BENCH_10M=0 skips the 10M-point runs (1.15 GB
# file, about a minute per run).
set -euo pipefail
cd "$(dirname "$0")/.."
bench=.build/release/clustermap-bench
median="./scripts/bench-median.py ${BENCH_RUNS:-5}"
tmp=${TMPDIR:-/tmp}/clustermap-bench
mkdir -p "$tmp"
sizes="1000000"
[ "${BENCH_10M:-1}" = 0 ] || sizes="$sizes 10000000"
for n in $sizes; do
    [ -f "$tmp/uniform-$n.geojson" ] || "$bench" generate "$n" "$tmp/uniform-$n.geojson" --seed 1
    $median "$bench" index "$tmp/uniform-$n.geojson"
    $median "$bench" open "$tmp/uniform-$n.geojson"   # the window's load path, no display
done
# 1M points from GeoPackage / FlatGeobuf / Shapefile, 100k from GPX / KML beside ogr2ogr, and our
# GeoJSON reader against GDAL's (the GDAL fixtures are made once from the 1M file).
$median "$bench" gdal "$tmp/uniform-1000000.geojson" "$tmp"
$median "$bench" basemap
$median "$bench" frame
$median "$bench" frame --items 60   # few items: the base-map labels are on screen
$median "$bench" frame --scale 2 --modes panning,panning_direct,zoom_animation   # HiDPI while moving
# Frames over a street map, when a tile file is at hand (BENCH_TILES=FILE.mbtiles|FILE.pmtiles).
[ -z "${BENCH_TILES:-}" ] || $median "$bench" frame --items 60 --tiles "$BENCH_TILES" --modes static,panning,zoom_animation
$median "$bench" tiles              # a dense 512-px vector tile decoded and painted; cached tiles on screen
$median "$bench" update --runs 3    # 1,000 adds / removes / moves in a 1M-point live index, then a frame query
$median "$bench" filter --runs 3    # filters at 1M: evaluate + exact re-cluster + a frame; a ≤ 1 % change
$median "$bench" timebar              # the time bar playing a 7-day window over 1M places: frames per second (≥ 30)
[ "${BENCH_10M:-1}" = 0 ] || ./scripts/bench-median.py 1 "$bench" filter --points 10000000 --runs 1   # any filter at 10M
$median "$bench" filter-large --runs 3   # big filters one by one at 1M (most / half / a tenth / ≤ 1 % change): wall, CPU, calling thread's CPU; prepare and live update of the prepared points
[ "${BENCH_10M:-1}" = 0 ] || ./scripts/bench-median.py 1 "$bench" filter-large --points 10000000 --runs 1   # the same at 10M
# The real window under Xvfb, dragged all through the load (needs the release app: make bench builds it).
./scripts/bench-median.py "${BENCH_RUNS:-5}" ./scripts/bench-window.py cities   # launch on the bundled world cities
./scripts/bench-median.py "${BENCH_RUNS:-5}" ./scripts/bench-window.py "$tmp/uniform-1000000.geojson"
[ "${BENCH_10M:-1}" = 0 ] || ./scripts/bench-window.py "$tmp/uniform-10000000.geojson" --timeout 600
[ "${BENCH_POSTGIS:-1}" = 0 ] || ./scripts/bench-postgis.sh   # a PostGIS table of 10M points: views without / with the pyramid
