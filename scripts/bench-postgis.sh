#!/usr/bin/env bash
# SPEC §8's PostGIS row: a throw-away local PostgreSQL 15 + PostGIS holding BENCH_POSTGIS_POINTS
# (default 10,000,000) uniformly random points (seeded), a user's session over it without and with
# the pyramid (clustermap-bench postgis --session). Needs the release clustermap-bench (make bench builds it).
# BENCH_POSTGIS_DATA=DIR keeps the server's folder in DIR between runs (the table is loaded once,
# reused while it holds BENCH_POSTGIS_POINTS rows); without it a temporary folder is removed after.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${BENCH_POSTGIS_POINTS:-10000000}
port=${BENCH_POSTGIS_PORT:-55490}
if [ -n "${BENCH_POSTGIS_DATA:-}" ]; then
  dir=$BENCH_POSTGIS_DATA
  trap './scripts/test-postgres.sh stop "$dir"' EXIT
else
  dir=$(mktemp -d "${TMPDIR:-/tmp}/clustermap-bench-pg.XXXXXX")
  trap './scripts/test-postgres.sh stop "$dir"; rm -rf "$dir"' EXIT
fi
if [ -d "$dir/data" ]; then
  PG_SHARED_BUFFERS=1GB ./scripts/test-postgres.sh restart "$dir" "$port"
else
  PG_SHARED_BUFFERS=1GB ./scripts/test-postgres.sh start "$dir" "$port"
fi
psql=(psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres -d test)
SECONDS=0
rows=$("${psql[@]}" -At -c "SELECT CASE WHEN to_regclass('points') IS NULL THEN -1 ELSE (SELECT count(*) FROM points) END")
if [ "$rows" != "$n" ]; then
  "${psql[@]}" -c "DROP TABLE IF EXISTS points" \
    -c "CREATE TABLE points (id bigserial PRIMARY KEY, geom geometry(Point, 4326), mag float8)" \
    -o /dev/null -c "SELECT setseed(0.31)" \
    -c "INSERT INTO points (geom, mag) SELECT ST_SetSRID(ST_MakePoint(random() * 360 - 180, random() * 170 - 85), 4326), random() * 10 FROM generate_series(1, $n)" \
    -c "CREATE INDEX ON points USING gist (geom)" -c "VACUUM ANALYZE points"
  echo "{\"bench\":\"postgis_load\",\"points\":$n,\"seconds\":$SECONDS}"
else
  echo "{\"bench\":\"postgis_load\",\"points\":$n,\"seconds\":0,\"reused\":true}"
fi
address="postgresql://postgres@127.0.0.1:$port/test?table=points"
# A user's session (SPEC §8: first world view, zooming in to 12 with pans and zoom-outs) without the
# pyramid, then the pyramid's build and the same session with it. BENCH_POSTGIS_COMPARE_KEYS=1 first
# runs the session with each row projected to find its cell (the SQL before the cell edges).
.build/release/clustermap-bench postgis "$address" --session --build-pyramid ${BENCH_POSTGIS_COMPARE_KEYS:+--compare-keys}
# BENCH_POSTGIS_PER_ZOOM=1: also the older per-zoom views (centres and quarter-view pans at zooms 1–15);
# without the pyramid only BENCH_POSTGIS_VIEWS_WITHOUT views a zoom (default 2): low zooms scan the table.
# BENCH_POSTGIS_NO_ROLLUP=1 first measures those views each asking for its own box (no kept world pass).
if [ -n "${BENCH_POSTGIS_PER_ZOOM:-}" ]; then
  .build/release/clustermap-bench postgis "$address" --build-pyramid \
    --views-without "${BENCH_POSTGIS_VIEWS_WITHOUT:-2}" ${BENCH_POSTGIS_NO_ROLLUP:+--no-roll-up}
fi
