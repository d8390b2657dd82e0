#!/usr/bin/env bash
# Installs the Debian packages ClusterMap needs to build, run and test, when any are missing.
# Uses apt-get as root, or through sudo; otherwise prints the command to run.
set -euo pipefail
need_build="libgtk-4-dev zlib1g-dev libdeflate-dev libsqlite3-dev libsoup-3.0-dev webp-pixbuf-loader pkg-config fonts-dejavu-core"
need_build="$need_build libgdal-dev"  # GDAL/OGR readers (issue 30)
need_test="gdal-bin xvfb xdotool x11-utils imagemagick desktop-file-utils appstream at-spi2-core python3-dogtail python3-gi gir1.2-gtk-3.0 dbus-x11 dbus-daemon"
need_test="$need_test zip"  # a password-protected zip for the GDAL error tests
# PostGIS sources (issue 31): libpq to build; a throw-away PostgreSQL + PostGIS and the cluster-tile
# checkers' venv (PyPI pmtiles, mapbox-vector-tile) to test.
need_build="$need_build libpq-dev"
need_test="$need_test postgresql-15-postgis-3 python3-venv"
pkgs="$need_build"
[ "${1:-}" = "test" ] && pkgs="$pkgs $need_test"

missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "setup: installing missing packages:$missing"
  if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO="sudo"; else
    echo "setup: please run as root: apt-get install -y$missing" >&2; exit 1; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
command -v swift >/dev/null || { echo "setup: the Swift 6 toolchain must be on PATH (swift.org)" >&2; exit 1; }
