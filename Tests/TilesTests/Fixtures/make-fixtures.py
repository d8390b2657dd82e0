#!/usr/bin/env python3
"""Makes the small tile fixtures the Tiles tests use, from the two real tile files named in the
README next to this script (openmaptiles-leipzig.mbtiles, protomaps-firenze.pmtiles).

Run by hand (not by the tests): python3 make-fixtures.py FOLDER_WITH_THE_TWO_FILES
Needs the `pmtiles` package from PyPI (pip install pmtiles) for writing PMTiles: an independent
implementation, so the tests cross-check the Swift reader against it.

Outputs (committed):
  leipzig-subset.mbtiles   a handful of OpenMapTiles tiles of Leipzig, bytes as in the original
  leipzig-subset.pmtiles   the same tiles as PMTiles v3, with leaf directories forced (root of a
                           few entries) so the leaf path is tested
  firenze-subset.pmtiles   a handful of Protomaps basemap tiles of Florence, bytes as in the original
"""
import gzip, json, os, sqlite3, sys
import pmtiles.writer as pw
from pmtiles.reader import Reader, MmapSource
from pmtiles.tile import zxy_to_tileid, TileType, Compression

if len(sys.argv) != 2:
    sys.exit("usage: make-fixtures.py FOLDER_WITH_THE_TWO_FILES")
src = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))

def ancestors(z, x, y, down_to=0):
    out = []
    while z >= down_to:
        out.append((z, x, y)); z, x, y = z - 1, x // 2, y // 2
    return out

# Leipzig: the centre tile at z14 and its east neighbour, and their ancestors to z10 (the
# shallower Leipzig tiles are large and add nothing the Florence ones do not test).
leipzig = sorted(set(ancestors(14, 8755, 5460, 10) + ancestors(14, 8756, 5460, 10)))
db = sqlite3.connect(os.path.join(src, "openmaptiles-leipzig.mbtiles"))
out_path = os.path.join(here, "leipzig-subset.mbtiles")
if os.path.exists(out_path): os.remove(out_path)
out = sqlite3.connect(out_path)
out.execute("CREATE TABLE metadata (name text, value text)")
out.execute("CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob)")
out.execute("CREATE UNIQUE INDEX tile_index on tiles (zoom_level, tile_column, tile_row)")
meta = dict(db.execute("SELECT name, value FROM metadata"))
for k, v in meta.items():
    if k == "json":  # keep vector_layers ids only: the field lists are big and unused
        j = json.loads(v); v = json.dumps({"vector_layers": [{"id": l["id"]} for l in j["vector_layers"]]})
    out.execute("INSERT INTO metadata VALUES (?, ?)", (k, v))
tiles = {}
for z, x, y in leipzig:
    row = db.execute("SELECT tile_data FROM tiles WHERE zoom_level=? AND tile_column=? AND tile_row=?",
                     (z, x, (1 << z) - 1 - y)).fetchone()
    if row is None: continue
    tiles[(z, x, y)] = row[0]
    out.execute("INSERT INTO tiles VALUES (?, ?, ?, ?)", (z, x, (1 << z) - 1 - y, row[0]))
out.commit(); out.close()

def write_pmtiles(path, tiles, metadata, leaf_root_len=None):
    if leaf_root_len is not None:
        real = pw.optimize_directories
        def small(entries, target):  # force leaf directories: a root of a few entries
            if len(entries) <= 4: return real(entries, target)
            r, l, n = pw.build_roots_leaves(entries, 4)
            return r, l, n
        pw.optimize_directories = small
    with pw.write(path) as w:
        for tid, data in sorted((zxy_to_tileid(*k), v) for k, v in tiles.items()):
            w.write_tile(tid, data)
        zs = [k[0] for k in tiles]
        w.finalize({"tile_type": TileType.MVT, "tile_compression": Compression.GZIP,
                    "min_zoom": min(zs), "max_zoom": max(zs),
                    "min_lon_e7": 121790000, "min_lat_e7": 512270000, "max_lon_e7": 126000000,
                    "max_lat_e7": 514590000, "center_zoom": 14,
                    "center_lon_e7": 123895000, "center_lat_e7": 513430000}, metadata)
    if leaf_root_len is not None:
        pw.optimize_directories = real

write_pmtiles(os.path.join(here, "leipzig-subset.pmtiles"), tiles,
              {"attribution": meta["attribution"], "name": "OpenMapTiles",
               "vector_layers": [{"id": l["id"]} for l in json.loads(meta["json"])["vector_layers"]]},
              leaf_root_len=4)

# Florence: the centre tile at z14 and its east neighbour, and every ancestor to z0.
f = open(os.path.join(src, "protomaps-firenze.pmtiles"), "rb")
r = Reader(MmapSource(f))
firenze = {}
for k in sorted(set(ancestors(14, 8704, 5972) + ancestors(14, 8705, 5972))):
    data = r.get(*k)
    if data is not None: firenze[k] = data
m = r.metadata()
h = r.header()
with pw.write(os.path.join(here, "firenze-subset.pmtiles")) as w:
    for tid, data in sorted((zxy_to_tileid(*k), v) for k, v in firenze.items()):
        w.write_tile(tid, data)
    hdr = {k: h[k] for k in ("tile_type", "tile_compression", "min_lon_e7", "min_lat_e7", "max_lon_e7",
                              "max_lat_e7", "center_zoom", "center_lon_e7", "center_lat_e7")}
    w.finalize(hdr, {"attribution": m["attribution"], "name": m["name"],
                     "vector_layers": [{"id": l["id"]} for l in m["vector_layers"]]})
print("leipzig", sorted(tiles), "firenze", sorted(firenze))
