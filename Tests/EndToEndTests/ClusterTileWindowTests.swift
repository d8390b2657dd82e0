import Foundation
import XCTest

/// A clustered tile file opened from the command line shows as data (issue 31.7): the tiles of
/// each view are read and counted, a bubble flies in, a place's card comes from its properties.
final class ClusterTileWindowTests: XCTestCase {
    private static func counts(_ scene: [String: Any]) -> (bubbles: Int, pins: Int, points: Int) {
        let bubbles = scene["bubbles"] as? [[String: Any]] ?? [], pins = scene["pins"] as? [[String: Any]] ?? []
        return (bubbles.count, pins.count, bubbles.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } + pins.count)
    }

    /// 400 places (300 in a town: deep bubbles; 100 spread over France) written by
    /// `clustermap tiles --max-zoom 14` as `places.pmtiles` in `folder`.
    static func writeClusterTiles(in folder: String) throws -> String {
        var features: [String] = []
        for i in 0..<400 {
            let a = Double(i) * 0.618033988749895, r = i < 300 ? 0.02 : 4.0
            let lon = 2.35 + r * cos(a * 6.283) * Double(i % 17 + 1) / 17, lat = 46.5 + r * sin(a * 6.283) * Double(i % 13 + 1) / 13
            features.append("{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(lon),\(lat)]},\"properties\":{\"name\":\"Place \(i)\",\"kind\":\"test\"}}")
        }
        let data = folder + "/places.geojson"
        try ("{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}").write(toFile: data, atomically: true, encoding: .utf8)
        let tiles = folder + "/places.pmtiles"
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: AppHarness.binaryPath)
        writer.arguments = ["tiles", data, "--output", tiles, "--max-zoom", "14"]
        try writer.run()
        writer.waitUntilExit()
        XCTAssertEqual(writer.terminationStatus, 0)
        return tiles
    }

    func testOurClusterTilesOpenAsDataCountedPerViewWithFlightsAndCards() throws {
        try AppHarness.requireTools()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cluster-tiles-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let tiles = try Self.writeClusterTiles(in: folder.path)

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

    /// File ▸ Open… (the real chooser) opens a clustered tile file as data, not as the street map,
    /// and says so; a data file opened next replaces it.
    func testTheChooserOpensAClusteredTileFileAsDataAndTheNextFileReplacesIt() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        let tiles = try Self.writeClusterTiles(in: h.workDir)
        try h.launch(["--dataset", "madrid"])
        let first = try h.waitForEvent("load-done", timeout: 30)
        try h.openWithChooser(tiles)
        try assertOpensAsData(h, tiles, after: first.index, from: "chooser")

        let csv = h.workDir + "/next.csv"
        try "name,lat,lon\nNext A,10,10\nNext B,10.001,10.001\nNext C,-20,30\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let before = h.events().count
        try h.openWithChooser(csv)
        let open = try h.waitForEvent("open", after: before, timeout: 20)
        XCTAssertEqual(open.event["files"] as? [String], [csv])
        let loaded = try h.waitForEvent("load-done", after: open.index, timeout: 20)
        XCTAssertEqual(loaded.event["points"] as? Int, 3, "the CSV replaced the tile file's places")
        let scene = try h.waitForEvent("scene", after: loaded.index) { Self.counts($0).points > 0 }
        XCTAssertLessThanOrEqual(Self.counts(scene.event).points, 3, "no tile bubbles left: \(scene.event)")
    }

    /// A clustered tile file dropped on the map (a real XDND drag, as in DropTests) opens as data.
    func testDroppingAClusteredTileFileOpensItAsData() throws {
        try AppHarness.requireTools()
        try AppHarness.requireDragSource()
        let h = try AppHarness()
        defer { h.stop() }
        let tiles = try Self.writeClusterTiles(in: h.workDir)
        try h.launch(["--dataset", "madrid"])
        let first = try h.waitForEvent("load-done", timeout: 30)
        let source = try h.startDragSource(tiles)
        defer { if source.isRunning { source.terminate() } }
        try h.dragFromSourceToMap()
        try assertOpensAsData(h, tiles, after: first.index, from: "drop")
    }

    /// `tiles` opened from the window: logged as data (never a `basemap` event for it), said in
    /// the banner, and its first view shows all 400 places.
    private func assertOpensAsData(_ h: AppHarness, _ tiles: String, after index: Int, from origin: String) throws {
        let open = try h.waitForEvent("open", after: index, timeout: 20)
        XCTAssertEqual(open.event["from"] as? String, origin)
        XCTAssertEqual(open.event["as"] as? String, "cluster-tiles")
        XCTAssertEqual(open.event["files"] as? [String], [tiles])
        let said = try h.waitForEvent("message", after: index, timeout: 10)
        XCTAssertEqual(said.event["text"] as? String, "places.pmtiles: clustered points, opened as data.")
        let view = try h.waitForEvent("tiles-view", after: open.index, timeout: 20)
        XCTAssertEqual(view.event["points"] as? Int, 400, "the file's bounds are shown: every place")
        let scene = try h.waitForEvent("scene", after: view.index) { Self.counts($0).points > 0 }
        XCTAssertEqual(Self.counts(scene.event).points, 400)
        // Only a street map from a file counts: the built-in map logs `basemap` too when its finer
        // level is read, which under load can come after the first data's load-done.
        let streetMaps = h.events(named: "basemap", after: index).filter { $0["level"] as? String == "tiles" }
        XCTAssertTrue(streetMaps.isEmpty, "not opened as the street map: \(streetMaps)")
    }

    /// The file's bubbles are In View rows with their counts and are Tab stops named by them;
    /// Enter flies into one and the next tiles are read (issue 31: remote bubbles listed).
    func testTheFilesBubblesAreListedAndReachedByKeyboard() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        let tiles = try Self.writeClusterTiles(in: h.workDir)
        try h.launch([tiles, "--center", "46.5,2.35", "--zoom", "5"])
        let scene = try h.waitForEvent("scene") { !(($0["bubbles"] as? [Any]) ?? []).isEmpty }
        try h.key("F9")
        let panel = try h.waitForEvent("list-panel", after: scene.index) { $0["shown"] as? Bool == true }
        let list = try h.waitForEvent("list", after: panel.index)
        let rows = list.event["rows"] as? [[String: Any]] ?? []
        let bubbles = rows.filter { $0["kind"] as? String == "bubble" }
        XCTAssertFalse(bubbles.isEmpty, "the file's bubbles are rows: \(rows)")
        for b in bubbles {
            XCTAssertEqual(b["name"] as? String, "\(b["count"] as? Int ?? -1) places", "\(b)")
        }
        XCTAssertEqual(rows.reduce(0) { $0 + ($1["count"] as? Int ?? 0) }, 400, "every place of the view, once")

        // The keys back to the map (a click on the sea, far from the places), then Tab.
        try h.click(at: 60, 700)
        // Tab walks places and bubbles in reading order, until a bubble.
        var focus = (event: [String: Any](), index: list.index)
        for _ in 0..<12 where focus.event["kind"] as? String != "bubble" {
            try h.key("Tab")
            focus = try h.waitForEvent("focus", after: focus.index + 1)
        }
        XCTAssertEqual(focus.event["kind"] as? String, "bubble", "\(focus.event)")
        XCTAssertTrue((focus.event["name"] as? String ?? "").hasSuffix(" places"), "\(focus.event)")
        try h.key("Return")
        let flight = try h.waitForEvent("flight-start", after: focus.index)
        _ = try h.waitForEvent("tiles-view", after: flight.index, timeout: 20)
    }
}
