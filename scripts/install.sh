#!/usr/bin/env bash
# Installs ClusterMap under a prefix (default /usr/local): binary, data, .desktop, icon, metainfo.
# DESTDIR is honoured for staged installs (packaging, tests).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${1:-/usr/local}
root=${DESTDIR:-}
bin=.build/release/clustermap
[ -x "$bin" ] || { echo "install: build first (make release)" >&2; exit 1; }
install -Dm755 "$bin" "$root$prefix/bin/clustermap"
mkdir -p "$root$prefix/share/clustermap"
rm -rf "$root$prefix/share/clustermap/data"
cp -r data "$root$prefix/share/clustermap/data"
install -Dm644 Resources/org.clustermap.ClusterMap.desktop "$root$prefix/share/applications/org.clustermap.ClusterMap.desktop"
install -Dm644 Resources/org.clustermap.ClusterMap.svg "$root$prefix/share/icons/hicolor/scalable/apps/org.clustermap.ClusterMap.svg"
install -Dm644 Resources/org.clustermap.ClusterMap.metainfo.xml "$root$prefix/share/metainfo/org.clustermap.ClusterMap.metainfo.xml"
if [ -z "$root" ]; then
  command -v update-desktop-database >/dev/null && update-desktop-database -q "$prefix/share/applications" || true
  command -v gtk4-update-icon-cache >/dev/null && gtk4-update-icon-cache -q -t -f "$prefix/share/icons/hicolor" || true
fi
echo "installed ClusterMap to $root$prefix"
