import XCTest
import Foundation

/// The window's chrome end to end (SPEC §4, §6; issue 6): the banner for skipped rows, a big load
/// with progress, frames and Cancel, the search field, and the remembered window state.
final class ChromeTests: XCTestCase {
    /// A CSV with two unusable rows → the banner names the skip counts and lines, and shows.
    func testBadRowsShowTheBannerWithTheSkipCount() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        let csv = h.workDir + "/stays.csv"
        try "name,lat,lon\nA,40.41,-3.70\nB,,\nC,40.42,-3.71\nD,north,-3.7\nE,40.43,-3.69\n"
            .write(toFile: csv, atomically: true, encoding: .utf8)
        try h.launch([csv])
        let done = try h.waitForEvent("load-done", timeout: 20)
        XCTAssertEqual(done.event["points"] as? Int, 3)
        XCTAssertEqual(done.event["skipped"] as? Int, 2)
        let message = try h.waitForEvent("message") { ($0["text"] as? String)?.contains("skipped") == true }
        let text = message.event["text"] as! String
        XCTAssertEqual(message.event["error"] as? Bool, false)
        XCTAssertTrue(text.contains("stays.csv"), "names the file: \(text)")
        XCTAssertTrue(text.contains("1 row skipped: no coordinates (line 3)"), text)
        XCTAssertTrue(text.contains("(line 5)"), text)

        _ = try h.waitForEvent("scene", after: done.index)
        try h.waitForEvent("widget", after: done.index) { $0["name"] as? String == "banner" }   // slid in
        // The banner is a light card at the top centre; the same strip lower down is plain map.
        let w = 360
        let shot = try h.screenshot(name: "banner") {
            $0.fraction(near: (255, 255, 255), tolerance: 6, region: ($0.width / 2 - w / 2, 70, w, 40)) > 0.4
        }
        let x = shot.width / 2 - w / 2
        let banner = shot.fraction(near: (255, 255, 255), tolerance: 6, region: (x, 70, w, 40))
        let plain = shot.fraction(near: (255, 255, 255), tolerance: 6, region: (x, 620, w, 40))
        XCTAssertGreaterThan(banner, 0.4, "banner card at the top (\(shot.path))")
        XCTAssertLessThan(plain, 0.05, "no card lower down")
    }

    /// A big GeoJSON (opened with the file chooser) shows progress while frames keep coming;
    /// Cancel leaves the Madrid bubble on the map.
    func testBigLoadShowsProgressKeepsDrawingAndCancelKeepsTheOldData() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        let path = h.workDir + "/million.geojson"
        let started = Date()
        try ChromeTests.writeRandomPoints(count: 1_000_000, to: path)
        print("wrote 1M-point GeoJSON in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")

        try h.launch(["--dataset", "madrid"] + AppHarness.worldView)
        let first = try h.waitForEvent("scene", timeout: 30) { e in
            ((e["bubbles"] as? [[String: Any]]) ?? []).contains { $0["count"] as? Int == 9 }
        }
        try h.openWithChooser(path)
        let open = try h.waitForEvent("open", after: first.index, timeout: 10)
        XCTAssertEqual(open.event["from"] as? String, "chooser")
        let progress = try h.waitForEvent("load-progress", after: open.index, timeout: 10)
        let cancel = try h.waitForEvent("widget", after: open.index, timeout: 10) { $0["name"] as? String == "cancel" }

        // The map stays interactive while the file loads: pan and see frames.
        let beforeDrag = h.events().count
        try h.drag(from: (500, 450), to: (700, 500), steps: 20)
        try h.waitForEvent("camera", after: beforeDrag, timeout: 10)  // the pan came to rest
        try h.click(at: cancel.event["x"] as! Double, cancel.event["y"] as! Double)
        let cancelled = try h.waitForEvent("load-cancelled", after: progress.index, timeout: 10)
        let during = h.events()[progress.index..<cancelled.index]
        XCTAssertGreaterThan(during.filter { $0["event"] as? String == "load-progress" }.count, 1)
        XCTAssertGreaterThan(during.filter { $0["event"] as? String == "frame" }.count, 3, "frames while loading")
        XCTAssertFalse(during.contains { $0["event"] as? String == "load-done" })

        // The old data is still there, and nothing replaces it later.
        try h.drag(from: (700, 500), to: (500, 450), steps: 10)
        let scene = try h.waitForEvent("scene", after: cancelled.index, timeout: 10)
        let bubbles = scene.event["bubbles"] as! [[String: Any]]
        XCTAssertTrue(bubbles.contains { $0["count"] as? Int == 9 }, "the Madrid bubble stays: \(bubbles)")
        // The cancelled load's thread has ended and what it made was dropped: nothing replaces
        // the old data later.
        let dropped = try h.waitForEvent("load-dropped", after: cancelled.index, timeout: 30)
        XCTAssertFalse(h.events()[cancelled.index...].contains { $0["event"] as? String == "load-done" })
        XCTAssertFalse(h.events()[dropped.index...].contains { $0["event"] as? String == "load-done" })
    }

    /// Ctrl+F, type "Lisbon", Enter: the camera flies to Lisbon, Portugal and selects it.
    func testSearchFindsLisbonAndFliesThere() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "world-cities"], timeout: 60)
        let done = try h.waitForEvent("load-done", timeout: 90)
        XCTAssertGreaterThan(done.event["points"] as! Int, 100_000)
        try h.move(to: 640, 400)
        try h.key("ctrl+f")
        try h.waitForEvent("widget", after: done.index, timeout: 10) { $0["name"] as? String == "search" }
        try h.typeText("Lisbon")
        try h.waitForEvent("search-results", after: done.index, timeout: 10) { $0["query"] as? String == "Lisbon" }
        try h.pressKey("Return")
        let start = try h.waitForEvent("flight-start", after: done.index, timeout: 30)
        let to = start.event["to"] as! [String: Any]
        XCTAssertEqual(to["lat"] as! Double, 38.72, accuracy: 0.05)
        XCTAssertEqual(to["lon"] as! Double, -9.14, accuracy: 0.05)
        XCTAssertGreaterThanOrEqual(to["zoom"] as! Double, 12)
        let select = try h.waitForEvent("select", after: done.index, timeout: 10)
        XCTAssertEqual(select.event["name"] as? String, "Lisbon")
    }

    /// Window state: zoom in, quit with Ctrl+Q, start again → the same camera.
    func testCameraIsRememberedBetweenRuns() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        // The world cities open where the person left them (files and the demos open fitted).
        try h.launch(["--dataset", "world-cities", "--reduce-motion"], timeout: 60)
        _ = try h.waitForEvent("load-done", timeout: 90)
        try h.key("plus")
        try h.key("plus")
        try h.key("Right")
        let zoomed = try h.waitForEvent("camera", timeout: 10) { ($0["zoom"] as! Double) > 3.5 }
        try h.key("ctrl+q")
        _ = try h.waitForEvent("state-saved", after: zoomed.index, timeout: 10)
        XCTAssertTrue(h.waitForExit(), "Ctrl+Q quits")
        let state = try String(contentsOfFile: h.workDir + "/config/clustermap/state", encoding: .utf8)
        XCTAssertTrue(state.contains("width=1280"), state)

        try h.launch(["--dataset", "world-cities"], timeout: 60)  // a new event log
        let camera = try h.waitForEvent("camera", timeout: 30)
        XCTAssertEqual(camera.event["zoom"] as! Double, zoomed.event["zoom"] as! Double, accuracy: 1e-6)
        XCTAssertEqual(camera.event["lon"] as! Double, zoomed.event["lon"] as! Double, accuracy: 1e-6)
        // The reduced-motion flag was the command line's, not a menu choice: not remembered.
        XCTAssertFalse(state.contains("reduce-motion"))
    }

    /// Writes `count` random points as a GeoJSON FeatureCollection, fast (bytes, no JSON library).
    static func writeRandomPoints(count: Int, to path: String) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let out = FileHandle(forWritingAtPath: path)!
        defer { out.closeFile() }
        var rng: UInt64 = 0x9E3779B97F4A7C15
        func next() -> UInt64 { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng }
        var buf: [UInt8] = []
        buf.reserveCapacity(1 << 22)
        func appendFixed(_ v: Int, scale: Int) {   // v in units of 1e-5 degrees
            var n = v
            if n < 0 { buf.append(UInt8(ascii: "-")); n = -n }
            let whole = n / scale, frac = n % scale
            buf.append(contentsOf: String(whole).utf8)
            buf.append(UInt8(ascii: "."))
            let f = String(frac)
            for _ in 0..<(5 - f.count) { buf.append(UInt8(ascii: "0")) }
            buf.append(contentsOf: f.utf8)
        }
        buf.append(contentsOf: "{\"type\":\"FeatureCollection\",\"features\":[\n".utf8)
        let head = Array("{\"type\":\"Feature\",\"properties\":{\"name\":\"P".utf8)
        let mid = Array("\"},\"geometry\":{\"type\":\"Point\",\"coordinates\":[".utf8)
        for i in 0..<count {
            buf.append(contentsOf: head)
            buf.append(contentsOf: String(i).utf8)
            buf.append(contentsOf: mid)
            appendFixed(Int(next() % 36_000_000) - 18_000_000, scale: 100_000)
            buf.append(UInt8(ascii: ","))
            appendFixed(Int(next() % 16_000_000) - 8_000_000, scale: 100_000)
            buf.append(contentsOf: "]}}".utf8)
            buf.append(contentsOf: (i < count - 1 ? ",\n" : "\n").utf8)
            if buf.count > (1 << 22) - 256 {
                out.write(Data(buf))
                buf.removeAll(keepingCapacity: true)
            }
        }
        buf.append(contentsOf: "]}\n".utf8)
        out.write(Data(buf))
    }
}
