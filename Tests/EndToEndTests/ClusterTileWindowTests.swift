import Foundation
import XCTest

/// A clustered tile file opened from the command line shows as data (issue 31.7): the tiles of
/// each view are read and counted, a bubble flies in, a place's card comes from its properties.
final class ClusterTileWindowTests: XCTestCase {
    private static func counts(_ scene: [String: Any]) -> (bubbles: Int, pins: Int, points: Int) {
        let bubbles = scene["bubbles"] as? [[String: Any]] ?? [], pins = scene["pins"] as? [[String: Any]] ?? []
        return (bubbles.count, pins.count, bubbles.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } + pins.count)
    }

    func testOurClusterTilesOpenAsDataCountedPerViewWithFlightsAndCards() throws {
        try AppHarness.requireTools()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cluster-tiles-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // 400 places: 300 in a town (deep bubbles), 100 spread over France.
        var features: [String] = []
        for i in 0..<400 {
            let a = Double(i) * 0.618033988749895, r = i < 300 ? 0.02 : 4.0
            let lon = 2.35 + r * cos(a * 6.283) * Double(i % 17 + 1) / 17, lat = 46.5 + r * sin(a * 6.283) * Double(i % 13 + 1) / 13
            features.append("{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(lon),\(lat)]},\"properties\":{\"name\":\"Place \(i)\",\"kind\":\"test\"}}")
        }
        let data = folder.appendingPathComponent("places.geojson").path
        try ("{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}").write(toFile: data, atomically: true, encoding: .utf8)
        let tiles = folder.appendingPathComponent("places.pmtiles").path
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: AppHarness.binaryPath)
        writer.arguments = ["tiles", data, "--output", tiles, "--max-zoom", "14"]
        try writer.run()
        writer.waitUntilExit()
        XCTAssertEqual(writer.terminationStatus, 0)

        let h = try AppHarness()
        defer { h.stop() }
        try h.launch([tiles, "--center", "46.5,2.35", "--zoom", "5"])
        let opened = try h.waitForEvent("tiles-open", timeout: 30)
        XCTAssertEqual(opened.event["file"] as? String, "places.pmtiles")
        let first = try h.waitForEvent("tiles-view", after: opened.index, timeout: 30)
        XCTAssertEqual(first.event["points"] as? Int, 400, "every place is in the view at zoom 5 over France")
        var scene = try h.waitForEvent("scene", after: first.index) { Self.counts($0).points > 0 }
        XCTAssertEqual(Self.counts(scene.event).points, 400)

        // Into the biggest bubble (the town) until places stand alone; each flight reads new tiles.
        var pins: [[String: Any]] = [], flights = 0
        for _ in 0..<14 {
            let bubbles = (scene.event["bubbles"] as? [[String: Any]] ?? []).sorted { ($0["count"] as? Int ?? 0) > ($1["count"] as? Int ?? 0) }
            pins = scene.event["pins"] as? [[String: Any]] ?? []
            // The spread places stand alone early: go on until the town's bubble has split.
            if bubbles.isEmpty || (pins.count >= 2 && (bubbles[0]["count"] as? Int ?? 0) < 10) { break }
            flights += 1
            let before = h.events().count
            try h.click(at: bubbles[0]["x"] as! Double, bubbles[0]["y"] as! Double)
            let camera = try h.waitForEvent("camera", after: before, timeout: 20)
            XCTAssertNotNil(try? h.waitForEvent("tiles-view", after: before, timeout: 20), "new tiles were read at \(camera.event)")
            scene = try h.waitForEvent("scene", after: camera.index, timeout: 20) { Self.counts($0).points > 0 }
        }
        XCTAssertGreaterThan(flights, 1, "the town's bubble flew in more than once")
        let pin = try XCTUnwrap(pins.first, "places show once zoomed in")
        let before = h.events().count
        try h.click(at: pin["x"] as! Double, pin["y"] as! Double)
        let card = try h.waitForEvent("callout", after: before)
        XCTAssertTrue((card.event["title"] as? String ?? "").hasPrefix("Place "), "the name property is the card's title: \(card.event)")
    }
}
