import ClusterCore
import Compression
import GeoData
import Foundation
import TileTestSupport
import XCTest
@testable import Tiles

/// Cluster tiles written by `ClusterTileArchive` and read back by independent readers (PyPI's
/// `pmtiles` and `mapbox-vector-tile`, in a venv the script makes): at every zoom the features
/// inside their tiles are exactly the clusterer's items of that zoom (what `clustermap clusters`
/// prints), with ids, counts, expansion zooms and positions to a tile unit.
final class ClusterTileWriterTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    struct Decoded {
        var z: Int, x: Int, y: Int, px: Int, py: Int, extent: Int
        var id: Int?
        var properties: [String: Any]
    }

    /// Points: a seeded spread over Europe, a tight town (deep clusters), ten on one spot
    /// (never splits), and points on both sides of the antimeridian and on tile edges.
    static func points() -> [GeoCoordinate] {
        var rng = ClusterCore.SeededRandom(seed: 31)
        var p: [GeoCoordinate] = []
        for _ in 0..<1500 {
            p.append(GeoCoordinate(latitude: Double.random(in: 35...60, using: &rng), longitude: Double.random(in: -10...30, using: &rng)))
        }
        for _ in 0..<300 {
            p.append(GeoCoordinate(latitude: 48.85 + Double.random(in: -0.01...0.01, using: &rng),
                                   longitude: 2.35 + Double.random(in: -0.01...0.01, using: &rng)))
        }
        p += Array(repeating: GeoCoordinate(latitude: -33.9, longitude: 151.2), count: 10)
        p += [GeoCoordinate(latitude: 10, longitude: 179.9999), GeoCoordinate(latitude: 10, longitude: -179.9999),
              GeoCoordinate(latitude: 0, longitude: 0), GeoCoordinate(latitude: 0, longitude: 180),
              GeoCoordinate(latitude: .nan, longitude: 3)]
        return p
    }

    static func decode(_ path: String) throws -> (meta: [String: Any], features: [Decoded]) {
        func run(_ args: [String]) throws -> String {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = args
            p.currentDirectoryURL = root
            let out = Pipe()
            p.standardOutput = out
            try p.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            guard p.terminationStatus == 0 else { throw NSError(domain: "tile-check", code: Int(p.terminationStatus)) }
            return String(decoding: data, as: UTF8.self)
        }
        let python = try run(["bash", "scripts/tile-check-venv.sh"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let lines = try run([python, "Tests/TilesTests/Support/decode_cluster_tiles.py", path]).split(separator: "\n")
        var meta: [String: Any] = [:]
        var features: [Decoded] = []
        for line in lines {
            let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            if o["z"] == nil { meta = o; continue }
            features.append(Decoded(z: o["z"] as! Int, x: o["x"] as! Int, y: o["y"] as! Int, px: o["px"] as! Int,
                                    py: o["py"] as! Int, extent: o["extent"] as! Int, id: o["id"] as? Int,
                                    properties: o["properties"] as? [String: Any] ?? [:]))
        }
        return (meta, features)
    }

    func check(_ clusterer: any PointClusterer, path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let builder = ClusterTileBuilder(clusterer: clusterer, pointProperties: { [("name", .string("p\($0)"))] })
        let archive = try ClusterTileArchive(path: path)
        for z in builder.zooms {
            for (tile, bytes) in builder.tiles(atZoom: z) { try archive.add(tile, bytes: GzipCompressor.compress(bytes)) }
        }
        try archive.finish(name: "test", zooms: builder.zooms, bounds: .world, fields: [])
        let (meta, decoded) = try Self.decode(path)
        XCTAssertFalse(meta.isEmpty, "metadata read", file: file, line: line)
        let byZoom = Dictionary(grouping: decoded, by: \.z)
        XCTAssertEqual(Set(byZoom.keys), Set(builder.zooms), file: file, line: line)
        for z in builder.zooms {
            let expected = clusterer.clusters(in: .world, zoom: Double(z))
            let got = byZoom[z] ?? []
            XCTAssertEqual(got.count, expected.count, "zoom \(z): one feature per item", file: file, line: line)
            var byID: [Int: Decoded] = [:]
            for f in got { byID[f.id ?? -1] = f }
            XCTAssertEqual(byID.count, got.count, "zoom \(z): ids unique", file: file, line: line)
            let side = Double(1 << z)
            for item in expected {
                guard let f = byID[item.featureID] else {
                    XCTFail("zoom \(z): item \(item.featureID) missing (\(item.coordinate), count \(item.count))", file: file, line: line); continue
                }
                let (ux, uy) = WebMercator.project(item.coordinate)
                let gx = (Double(f.x) + Double(f.px) / Double(f.extent)) / side
                let gy = (Double(f.y) + Double(f.py) / Double(f.extent)) / side
                let tolerance = 0.5 / Double(f.extent) / side + 1e-12
                // Longitude 180 is written at the west edge of column 0 (the same meridian).
                let dx = abs(gx - ux), wrappedDX = min(dx, abs(dx - 1))
                XCTAssertLessThanOrEqual(wrappedDX, tolerance, "zoom \(z) item \(item.featureID) x", file: file, line: line)
                XCTAssertLessThanOrEqual(abs(gy - uy), tolerance, "zoom \(z) item \(item.featureID) y", file: file, line: line)
                switch item.kind {
                case .cluster(let id):
                    XCTAssertEqual(f.properties["cluster"] as? Bool, true, file: file, line: line)
                    XCTAssertEqual(f.properties["cluster_id"] as? Int, id.rawValue, file: file, line: line)
                    XCTAssertEqual(f.properties["point_count"] as? Int, item.count, file: file, line: line)
                    XCTAssertEqual(f.properties["expansion_zoom"] as? Int, clusterer.expansionZoom(of: id), file: file, line: line)
                case .point(let i):
                    XCTAssertEqual(f.properties["name"] as? String, "p\(i)", file: file, line: line)
                    XCTAssertNil(f.properties["point_count"], file: file, line: line)
                }
            }
        }
    }

    func testHierarchicalClustersRoundTripThroughPMTilesAtEveryZoom() throws {
        let folder = TemporaryFolder()
        let clusterer = HierarchicalClusterer(points: Self.points(), options: .init(maxZoom: 14))
        try check(clusterer, path: folder.path("h.pmtiles"))
    }

    func testGridClustersRoundTripThroughMBTilesAtEveryZoom() throws {
        let folder = TemporaryFolder()
        let clusterer = GridClusterer(points: Self.points(), options: .init(maxZoom: 12))
        try check(clusterer, path: folder.path("g.mbtiles"))
    }

    /// Our own reader agrees on the archive's header, leaf directories and tile bytes.
    func testOwnReaderReadsEveryTileOfABigArchiveWithLeafDirectories() throws {
        let folder = TemporaryFolder()
        var writer = PMTilesArchiveWriter()
        var expected: [TileID: [UInt8]] = [:]
        for x in 0..<256 {
            for y in 0..<256 where (x * 7 + y) % 3 != 0 {
                let t = TileID(z: 8, x: x, y: y)
                // Some contents repeat (stored once), some runs of equal tiles.
                let bytes = GzipCompressor.compress(Array("tile \(x % 5 == 0 ? 0 : x * 1000 + y)".utf8))
                writer.add(t, bytes: bytes)
                expected[t] = bytes
            }
        }
        let path = folder.path("big.pmtiles")
        try writer.write(to: path, PMTilesArchiveWriter.Description())
        let raw = try Data(contentsOf: URL(fileURLWithPath: path))
        let rootLength = raw[16..<24].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        let leavesLength = raw[48..<56].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        XCTAssertLessThanOrEqual(127 + rootLength, 16_384)
        XCTAssertGreaterThan(leavesLength, 0, "43,690 entries need leaf directories")
        let source = try PMTilesSource(path: path)
        for (t, bytes) in expected {
            let got = try source.tileData(for: t)
            XCTAssertEqual(got.map { [UInt8]($0) }, try Gzip.decompress(Data(bytes)).map { $0 }, "\(t)")
        }
        XCTAssertNil(try source.tileData(for: TileID(z: 8, x: 0, y: 0)))
    }
}

/// Clustered tile files opened as data: our own files give back the clusterer's items at every
/// zoom; a tippecanoe-style file (only `point_count`, no `cluster` flag) reads its bubbles too.
final class ClusterTileReaderTests: XCTestCase {
    func testOurTilesReadBackAsTheClustersOfEveryZoom() throws {
        let folder = TemporaryFolder()
        let clusterer = HierarchicalClusterer(points: ClusterTileWriterTests.points(), options: .init(maxZoom: 12))
        let builder = ClusterTileBuilder(clusterer: clusterer, pointProperties: { [("name", .string("p\($0)"))] })
        let path = folder.path("c.pmtiles")
        let archive = try ClusterTileArchive(path: path)
        for z in builder.zooms { for (t, b) in builder.tiles(atZoom: z) { try archive.add(t, bytes: GzipCompressor.compress(b)) } }
        try archive.finish(name: "t", zooms: builder.zooms, bounds: .world, fields: [])
        let reader = ClusterTileReader(source: try PMTilesSource(path: path), layerName: "clusters")
        for z in 0...15 {
            let box = GeoBounds(west: -20, south: 30, east: 40, north: 62)
            let got = try reader.items(in: box, zoom: Double(z) + 0.3)
            let expected = clusterer.clusters(in: box, zoom: Double(z) + 0.3)
            // Positions are tile units apart at most: compare away from the box's edges.
            let tol = 1.0 / Double(4096 << min(z, 13)) * 360
            func inner(_ c: GeoCoordinate) -> Bool {
                c.longitude > box.west + tol && c.longitude < box.east - tol && c.latitude > box.south + tol && c.latitude < box.north - tol
            }
            XCTAssertEqual(got.filter { inner($0.coordinate) }.map(\.count).sorted(),
                           expected.filter { inner($0.coordinate) }.map(\.count).sorted(), "zoom \(z)")
            let ids = Set(got.map(\.id))
            for e in expected where inner(e.coordinate) { XCTAssertTrue(ids.contains(UInt64(e.featureID)), "zoom \(z): \(e.featureID)") }
            let place = got.first { !$0.isCluster }
            if let place { XCTAssertEqual(place.properties.first?.0, "name") }
        }
    }

    func testTippecanoeStyleClustersArePointCountFeatures() throws {
        let folder = TemporaryFolder()
        var layer = MVTLayerEncoder(name: "points")
        layer.addPoint(x: 100, y: 100, id: nil, properties: [("point_count", .int(42)), ("sqrt_point_count", .double(6.48))])
        layer.addPoint(x: 3000, y: 3000, id: 7, properties: [("name", .string("Lone"))])
        layer.addPoint(x: -50, y: 100, id: 8, properties: [("name", .string("Buffer copy"))])
        var w = PMTilesArchiveWriter()
        w.add(TileID(z: 0, x: 0, y: 0), bytes: GzipCompressor.compress(layer.encodedLayer()))
        let path = folder.path("tc.pmtiles")
        try w.write(to: path, PMTilesArchiveWriter.Description())
        let items = try ClusterTileReader(source: try PMTilesSource(path: path)).items(in: .world, zoom: 3)
        XCTAssertEqual(items.count, 2, "the buffer copy is left out")
        XCTAssertEqual(items.first { $0.isCluster }?.count, 42)
        XCTAssertEqual(items.first { !$0.isCluster }?.id, 7)
    }
}
