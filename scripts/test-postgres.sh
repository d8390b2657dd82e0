#!/usr/bin/env bash
# A throw-away PostgreSQL 15 + PostGIS for the tests (never a real server):
#   test-postgres.sh start DIR PORT   initdb in DIR (as the postgres user when run as root: initdb
#                                     refuses root), listen on 127.0.0.1:PORT only, socket in DIR,
#                                     create database "test" with PostGIS and a role "pwuser" whose
#                                     password ("secret") is checked (everyone else: trust)
#   test-postgres.sh stop DIR [MODE]  pg_ctl stop (MODE fast by default; immediate = a crash)
#   test-postgres.sh restart DIR PORT starts the same cluster again
set -euo pipefail
bin=/usr/lib/postgresql/15/bin
[ -x "$bin/initdb" ] || { echo "test-postgres: $bin/initdb missing (apt-get install postgresql-15-postgis-3)" >&2; exit 1; }
cmd=$1 dir=$2
as_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
start() {
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-p $1 -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_parallel_workers_per_gather=2 -c shared_buffers=${PG_SHARED_BUFFERS:-128MB}" start >/dev/null
}
case "$cmd" in
  start)
    port=$3
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres: "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --locale=C.UTF-8 >/dev/null
    # Password checked for pwuser over TCP; everyone else trusted (loopback only, throw-away data).
    printf 'host all pwuser 127.0.0.1/32 scram-sha-256\nhost all all 127.0.0.1/32 trust\nlocal all all trust\n' \
      | as_owner tee "$dir/data/pg_hba.conf" >/dev/null
    start "$port"
    psql=(psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres)
    "${psql[@]}" -d postgres -c "CREATE DATABASE test" -c "CREATE ROLE pwuser LOGIN PASSWORD 'secret'"
    "${psql[@]}" -d test -c "CREATE EXTENSION postgis" -c "GRANT ALL ON SCHEMA public TO pwuser"
    ;;
  restart) start "$3" ;;
  stop) as_owner "$bin/pg_ctl" -D "$dir/data" -m "${3:-fast}" -w stop >/dev/null 2>&1 || true ;;
  *) echo "usage: $0 start DIR PORT | stop DIR [MODE] | restart DIR PORT" >&2; exit 2 ;;
esac
