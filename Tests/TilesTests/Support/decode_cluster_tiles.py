"""Decodes a cluster tile file (PMTiles or MBTiles) with PyPI's `pmtiles` and `mapbox-vector-tile`
(independent of ClusterMap's own readers) and prints one JSON line per feature whose position lies
inside its tile (buffer copies left out): zoom, tile, position in tile units, id and properties.
Usage: decode_cluster_tiles.py FILE"""
import gzip, json, sqlite3, sys

import mapbox_vector_tile
from pmtiles.reader import MmapSource, Reader, all_tiles


def tiles(path):
    if path.endswith(".mbtiles"):
        db = sqlite3.connect(path)
        for z, x, row, data in db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles"):
            yield (z, x, (1 << z) - 1 - row), data
        meta = dict(db.execute("SELECT name, value FROM metadata"))
        print(json.dumps({"metadata": meta}))
    else:
        with open(path, "rb") as f:
            reader = Reader(MmapSource(f))
            print(json.dumps({"header": {k: v for k, v in reader.header().items() if isinstance(v, (int, float, str))},
                              "metadata": reader.metadata()}))
            yield from all_tiles(reader.get_bytes)


def main(path):
    for (z, x, y), data in tiles(path):
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        decoded = mapbox_vector_tile.decode(data, default_options={"y_coord_down": True})
        # Our files have one layer, "clusters"; others (tippecanoe's) are read whole.
        layers = [decoded["clusters"]] if "clusters" in decoded else list(decoded.values())
        for layer in layers:
            extent = layer["extent"]
            for f in layer["features"]:
                coordinates = f["geometry"]["coordinates"]
                # A MultiPoint (tippecanoe merges points at low zooms) gives each of its points.
                points = coordinates if f["geometry"]["type"] == "MultiPoint" else [coordinates]
                for px, py in points:
                    if 0 <= px < extent and 0 <= py < extent:
                        print(json.dumps({"z": z, "x": x, "y": y, "px": px, "py": py, "extent": extent,
                                          "id": f.get("id"), "properties": f["properties"]}))


main(sys.argv[1])
