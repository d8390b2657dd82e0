#!/usr/bin/env python3
"""Records what a real supercluster implementation answers, as a test fixture (issue 15 item 10).

The implementation is the C++ port on PyPI (`pysupercluster-problematy`), with supercluster's
default options (minZoom 0, maxZoom 16, radius 40, extent 512). Run it in a venv:

    python3 -m venv /tmp/scvenv && /tmp/scvenv/bin/pip install pysupercluster-problematy
    /tmp/scvenv/bin/python scripts/record-supercluster-fixture.py > Tests/ClusterCoreTests/Fixtures/supercluster-2000.json

The fixture holds the points (rounded to 6 decimals, so both sides read the same input) and, for
every zoom 0...17, the single points by input index and each cluster's count, centre and
expansion zoom. The port has no leaves API, so memberships are checked through counts and centres.
"""
import json
import random

import numpy as np
import pysupercluster

rng = random.Random(15)
points = []
for _ in range(1000):                                    # spread over the world
    points.append((rng.uniform(-180, 180), rng.uniform(-85, 85)))
for _ in range(10):                                      # dense hot spots
    cx, cy = rng.uniform(-170, 170), rng.uniform(-70, 70)
    for _ in range(95):
        points.append((cx + rng.gauss(0, 0.4), cy + rng.gauss(0, 0.3)))
for _ in range(50):                                      # one spot shared by 50 places
    points.append((13.4, 52.52))
points = [(round(x, 6), round(y, 6)) for x, y in points]

index = pysupercluster.SuperCluster(np.array(points, dtype=float), min_zoom=0, max_zoom=16, radius=40, extent=512)
zooms = []
for z in range(0, 18):
    items = index.getClusters(top_left=(-180, 90), bottom_right=(180, -90), zoom=z)
    singles = sorted(i["id"] for i in items if i["count"] == 1)
    clusters = sorted(([i["count"], round(i["longitude"], 6), round(i["latitude"], 6),
                        -1 if i["expansion_zoom"] is None else i["expansion_zoom"]]
                       for i in items if i["count"] > 1))
    zooms.append({"zoom": z, "points": singles, "clusters": clusters})

json.dump({"source": "pysupercluster-problematy 0.7.8, default options", "points": points, "zooms": zooms},
          __import__("sys").stdout, separators=(",", ":"))
