import XCTest

/// `--basemap FILE` in the real window: an MBTiles street map loads in the background and shows
/// over the built-in map, the `tiles` event counts what happened, and a file that can't be opened
/// is one banner while the built-in map stays.
final class TileBaseMapTests: XCTestCase {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TilesTests/Fixtures/leipzig-subset.mbtiles").path

    func testStreetsFromAnMBTilesFileShowOverTheBuiltInMap() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "lisbon", "--center", "51.336,12.38", "--zoom", "14", "--basemap", Self.fixture])
        let opened = try h.waitForEvent("basemap", timeout: 30) { $0["level"] as? String == "tiles" }
        XCTAssertEqual(opened.event["source"] as? String, Self.fixture)
        // Requested tiles arrive; the last one brings a `tiles` event with what was loaded.
        // Counts are per event (since the previous one): wait until they add up to both tiles.
        var loaded = 0
        var done = try h.waitForEvent("tiles", timeout: 30)
        loaded += done.event["loaded"] as? Int ?? 0
        while loaded < 2 {
            done = try h.waitForEvent("tiles", after: done.index + 1, timeout: 30)
            loaded += done.event["loaded"] as? Int ?? 0
        }
        let events = h.events().prefix(done.index + 1).filter { $0["event"] as? String == "tiles" }
        func total(_ field: String) -> Int { events.reduce(0) { $0 + ($1[field] as? Int ?? 0) } }
        XCTAssertEqual(total("failed"), 0, "tiles outside the file's extent are absent, not failures")
        XCTAssertGreaterThanOrEqual(total("requested"), 2)
        // The lower part of the window (inside the file's two tiles) is a street map, not the plain
        // built-in land tone.
        // The tiles fade in (0.2 s): the picture is taken once it shows them, not after a guess.
        let land = MapColors.light.1
        func plainFraction(_ shot: Screenshot) -> Double {
            var plain = 0, total = 0
            for y in stride(from: 500, to: 700, by: 4) {
                for x in stride(from: 300, to: 900, by: 4) {
                    let (r, g, b) = shot.rgb(x, y)
                    total += 1
                    if abs(r - land.0) <= 3 && abs(g - land.1) <= 3 && abs(b - land.2) <= 3 { plain += 1 }
                }
            }
            return Double(plain) / Double(total)
        }
        let shot = try h.screenshot(name: "tiles", until: { plainFraction($0) < 0.5 })
        XCTAssertLessThan(plainFraction(shot), 0.5, "tile area looks like the plain built-in map in \(shot.path)")
        // Panning back and forth serves the same tiles from the cache: nothing new is requested.
        try h.drag(from: (600, 450), to: (700, 450))
        try h.drag(from: (700, 450), to: (600, 450))
        let after = try h.waitForEvent("tiles", after: done.index + 1, timeout: 15)
        XCTAssertEqual(after.event["failed"] as? Int, 0)
        XCTAssertGreaterThan(after.event["from_cache"] as? Int ?? 0, 0)
    }

    func testATileFileThatCantBeOpenedIsOneQuietErrorAndTheMapStays() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        let missing = "/nonexistent/region.mbtiles"
        try h.launch(["--dataset", "madrid", "--basemap", missing])
        let error = try h.waitForEvent("error", timeout: 30)
        let message = error.event["message"] as? String ?? ""
        XCTAssertTrue(message.contains("region.mbtiles"), message)
        XCTAssertTrue(message.contains("built-in map"), message)
        try h.waitForEvent("camera", timeout: 15)
        // The built-in map's land or sea (at Madrid's street zoom, mostly its neutral land tone)
        // fills most of the window. What X shows can lag the app's first frame by a moment.
        func mapShare(_ s: Screenshot) -> Double { s.fraction(near: MapColors.light.0) + s.fraction(near: MapColors.light.1) }
        let shot = try h.screenshot(name: "no-tiles") { mapShare($0) > 0.5 }
        XCTAssertGreaterThan(mapShare(shot), 0.5, "the built-in map is drawn")
    }
}
