#!/usr/bin/env python3
"""Writes the made-up town (one GeoJSON per OpenMapTiles layer, plus town.vrt that lists them for
ogr2ogr). Centred on zoom-13 tile 4323/2777 so the whole town lies in that one tile.
The tests turn it into vector MBTiles with: ogr2ogr -f MBTiles OUT town.vrt -dsco MINZOOM=12 -dsco MAXZOOM=14"""
import json, math
lat0, lon0 = 50.02185841773444, 9.99755859375
def ll(x, y):  # metres east/north of the centre -> lon, lat
    return [round(lon0 + x / (111320 * math.cos(math.radians(lat0))), 7), round(lat0 + y / 110540, 7)]
def poly(pts): return {"type": "Polygon", "coordinates": [[ll(*p) for p in pts + [pts[0]]]]}
def line(pts): return {"type": "LineString", "coordinates": [ll(*p) for p in pts]}
def point(p): return {"type": "Point", "coordinates": ll(*p)}
def fc(features): return {"type": "FeatureCollection", "features": [{"type": "Feature", "properties": p, "geometry": g} for p, g in features]}
def rect(x0, y0, x1, y1): return poly([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
layers = {
  "landcover": [({"class": "wood"}, rect(-1200, 300, -500, 1100)), ({"class": "grass", "subclass": "meadow"}, rect(500, -1100, 1100, -600))],
  "landuse": [({"class": "residential"}, rect(-450, -700, 700, 500))],
  "park": [({"class": "park", "name": "Stadtpark"}, rect(150, 100, 550, 450))],
  "water": [({"class": "lake"}, poly([(-900, -900), (-500, -1000), (-300, -700), (-500, -400), (-850, -500)]))],
  "waterway": [({"class": "river", "name": "Testbach"}, line([(-1300, -200), (-700, -300), (-450, -550), (-400, -1200)]))],
  "transportation": [
    ({"class": "motorway"}, line([(-1300, 900), (0, 800), (1300, 950)])),
    ({"class": "primary"}, line([(-1300, 0), (1300, 50)])),
    ({"class": "secondary"}, line([(100, -1300), (80, 1300)])),
    ({"class": "minor"}, line([(-400, -400), (600, -380)])),
    ({"class": "minor"}, line([(-300, 300), (-280, -600)])),
    ({"class": "path"}, line([(200, 120), (500, 420)])),
    ({"class": "rail"}, line([(-1300, -1000), (1300, -800)])),
  ],
  "building": [({"render_height": 10}, rect(x, y, x + 60, y + 40)) for x in range(-250, 60, 100) for y in (-300, -200, 150)],
  "boundary": [({"admin_level": 4}, line([(1200, -1300), (1150, 1300)]))],
  "place": [({"class": "town", "name": "Testburg", "rank": 5}, point((0, 0)))],
  "water_name": [({"class": "lake", "name": "Testsee"}, point((-650, -700)))],
  "transportation_name": [({"class": "primary", "name": "Hauptstraße"}, line([(-1300, 0), (1300, 50)]))],
}
for name, feats in layers.items():
    json.dump(fc(feats), open(f"{name}.geojson", "w"), ensure_ascii=False)
vrt = ['<OGRVRTDataSource>']
for name in layers:
    vrt.append(f'  <OGRVRTLayer name="{name}"><SrcDataSource relativeToVRT="1">{name}.geojson</SrcDataSource></OGRVRTLayer>')
vrt.append('</OGRVRTDataSource>')
open("town.vrt", "w").write("\n".join(vrt) + "\n")
