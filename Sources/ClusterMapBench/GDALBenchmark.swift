import AppSupport
import ClusterCore
import Foundation
import GeoData
import MapModel

// `clustermap-bench gdal UNIFORM.geojson DIR`: files GDAL reads (issue 30 item 2, SPEC §8).
//
// Converts the uniform 1M-point GeoJSON once (kept in DIR) to GeoPackage, FlatGeobuf and
// Shapefile, and its first 100,000 points to GPX and KML, with ogr2ogr; then, for each, the
// window's load path to the first clustered frame (as `open`); for GPX and KML beside it GDAL's
// own reading speed (`ogr2ogr -f GeoJSONSeq /vsistdout/ FILE > /dev/null`); and our GeoJSON
// reader against GDAL's on the same GeoJSON file. One JSON line each, with the CPU time of the
// process beside the wall time (on a shared machine the wall time mostly says how busy it is).

func runGDALBenchmark(_ args: [String]) {
    guard args.count == 2 else { benchFail("usage: clustermap-bench gdal UNIFORM.geojson DIR") }
    let source = args[0], dir = args[1]
    let formats: [(ext: String, driver: String, limit: Int?, targetMs: Double?)] = [
        ("gpkg", "GPKG", nil, 1000), ("fgb", "FlatGeobuf", nil, 1000), ("shp", "ESRI Shapefile", nil, 1500),
        ("gpx", "GPX", 100_000, nil), ("kml", "KML", 100_000, nil),
    ]
    for f in formats {
        let path = dir + "/uniform" + (f.limit.map { "-\($0)" } ?? "") + "." + f.ext
        if !FileManager.default.fileExists(atPath: path) {
            var a = ["-f", f.driver, path, source]
            if let n = f.limit { a += ["-limit", String(n)] }
            if f.ext == "gpx" { a += ["-dsco", "GPX_USE_EXTENSIONS=YES"] }
            guard shell("ogr2ogr", a) >= 0 else { benchFail("ogr2ogr failed for \(path)") }
        }
        let r = firstFrame(path, options: LoadOptions())
        var line = "{\"bench\":\"gdal_open\",\"format\":\"\(f.ext)\",\"points\":\(r.points),\"load_ms\":\(fixed(r.loadMs)),"
            + "\"first_frame_ms\":\(fixed(r.frameMs)),\"cpu_ms\":\(fixed(r.cpuMs))"
        if let t = f.targetMs { line += ",\"target_ms\":\(fixed(t))" }
        if f.limit != nil {
            let seconds = shell("sh", ["-c", "ogr2ogr -f GeoJSONSeq /vsistdout/ \"$0\" > /dev/null", path])
            line += ",\"ogr2ogr_read_ms\":\(fixed(seconds * 1000))"
        }
        print(line + ",\"peak_rss_mb\":\(fixed(peakRSSMegabytes()))}")
    }
    // The same GeoJSON through our reader and through GDAL's.
    let ours = firstFrame(source, options: LoadOptions())
    let theirs = firstFrame(source, options: LoadOptions(format: .gdal))
    print("{\"bench\":\"gdal_geojson\",\"points\":\(ours.points),\"ours_load_ms\":\(fixed(ours.loadMs)),"
        + "\"gdal_load_ms\":\(fixed(theirs.loadMs)),\"ours_times_faster\":\(fixed(theirs.loadMs / max(ours.loadMs, 1e-9), digits: 1))}")
}

/// Loads as the window does (every layer) and queries the first clustered frame; milliseconds.
private func firstFrame(_ path: String, options: LoadOptions) -> (points: Int, loadMs: Double, frameMs: Double, cpuMs: Double) {
    let start = monotonicSeconds(), cpuStart = processCPUSeconds()
    let sets: [PointSet]
    do { sets = try PointSetLoader.loadLayers(path: path, options: options, isCancelled: { false }) } catch { benchFail("\(error)") }
    let loaded = monotonicSeconds()
    let session = MapDataSession(pointSets: sets, datasets: [])
    var camera = Camera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 2, viewportSize: ScreenSize(width: 1280, height: 800))
    if let b = session.bounds { camera = camera.fitting(b) }
    _ = session.visibleItems(for: camera)
    return (session.pointCount, (loaded - start) * 1000, (monotonicSeconds() - start) * 1000, (processCPUSeconds() - cpuStart) * 1000)
}

/// Runs a program to its end; its wall time in seconds, or −1 when it failed.
private func shell(_ program: String, _ args: [String]) -> Double {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = [program] + args
    p.standardOutput = FileHandle.nullDevice
    let start = monotonicSeconds()
    do { try p.run() } catch { return -1 }
    p.waitUntilExit()
    return p.terminationStatus == 0 ? monotonicSeconds() - start : -1
}
