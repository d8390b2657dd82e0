#!/usr/bin/env python3
"""Indexes the points of a Float64 (lon, lat) file (`clustermap-bench points`) with
pysupercluster — the C++ port of Mapbox supercluster on PyPI (pysupercluster-problematy) — with
supercluster's default options, runs the same query workload as `clustermap-bench index`, and
prints one JSON line like it: index time (wall and CPU), query median, peak RSS.

usage: supercluster-index.py POINTS.f64
"""
import json
import math
import resource
import statistics
import sys
import time

import numpy
import pysupercluster


def main():
    points = numpy.fromfile(sys.argv[1], dtype="<f8").reshape(-1, 2)
    wall, cpu = time.perf_counter(), time.process_time()
    index = pysupercluster.SuperCluster(points, min_zoom=0, max_zoom=16, radius=40, extent=512)
    index_ms = (time.perf_counter() - wall) * 1000
    index_cpu_ms = (time.process_time() - cpu) * 1000

    # The workload of clustermap-bench's runQueryWorkload: a 31-bit LCG seeded with 42; per zoom
    # 0…16, 40 views of 1280×800 pixels at random centres in the middle half of the world's height.
    s = 42

    def rnd():
        nonlocal s
        s = (s * 1103515245 + 12345) % 2147483648
        return s / 2147483648

    times, items = [], 0
    for z in range(17):
        world = 256 * 2 ** z
        lon = lambda x: x / world * 360 - 180
        lat = lambda y: math.degrees(math.atan(math.sinh(math.pi - 2 * math.pi * y / world)))
        for _ in range(40):
            cx = rnd() * world
            cy = world * (0.25 + 0.5 * rnd())
            west, east = max(-180, lon(cx - 640)), min(180, lon(cx + 640))
            north, south = lat(max(0, cy - 400)), lat(min(world, cy + 400))
            t0 = time.perf_counter()
            result = index.getClusters(top_left=(west, north), bottom_right=(east, south), zoom=z)
            times.append((time.perf_counter() - t0) * 1000)
            items += len(result)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"impl": "pysupercluster", "points": len(points), "index_ms": round(index_ms, 1),
                      "index_cpu_ms": round(index_cpu_ms, 1),
                      "query_median_ms": round(statistics.median(times), 4), "query_items": items,
                      "peak_rss_mb": round(peak_mb, 1)}), flush=True)


if __name__ == "__main__":
    main()
