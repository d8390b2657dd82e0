import XCTest

/// A broken file opened over data already shown (SPEC §4, §9): a banner names the file and the
/// line, and the data on the map stays.
final class BrokenFileTests: XCTestCase {
    func testTruncatedFileShowsAnErrorAndKeepsTheShownData() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        let path = h.workDir + "/truncated.geojson"
        // Cut inside its first feature: nothing whole to show (a file cut after whole features
        // shows them, with a note: GeoJSONTruncationTests).
        try """
        {"type":"FeatureCollection",
        "features":[
        {"type":"Feature","geometry":{"type":"Point","coordinates":[3,
        """.write(toFile: path, atomically: true, encoding: .utf8)

        try h.launch(["--dataset", "madrid"] + AppHarness.worldView)
        let first = try h.waitForEvent("scene", timeout: 30) { e in
            ((e["bubbles"] as? [[String: Any]]) ?? []).contains { $0["count"] as? Int == 9 }
        }
        try h.openWithChooser(path)
        let error = try h.waitForEvent("error", after: first.index, timeout: 10)
        let text = error.event["message"] as? String ?? ""
        XCTAssertTrue(text.contains("truncated.geojson"), text)
        XCTAssertTrue(text.contains("line 3"), text)
        let banner = try h.waitForEvent("message", after: first.index, timeout: 5) { $0["error"] as? Bool == true }
        XCTAssertEqual(banner.event["text"] as? String, text, "the window shows the same message")
        XCTAssertNil(h.events()[first.index...].first { $0["event"] as? String == "load-done" }, "nothing replaced the data")

        // The Madrid places are still on the map: move it a little and read the scene again.
        try h.drag(from: (640, 500), to: (660, 510), steps: 6)
        let after = try h.waitForEvent("scene", after: banner.index, timeout: 10)
        let bubbles = (after.event["bubbles"] as? [[String: Any]]) ?? []
        XCTAssertTrue(bubbles.contains { $0["count"] as? Int == 9 }, "\(after.event)")
    }
}
