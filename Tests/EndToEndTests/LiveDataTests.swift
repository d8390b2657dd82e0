import XCTest
import Foundation

/// Live data in the real window (issue 13): a file that grows updates the map in place
/// (`data-changed`, the scene's counts grow, the selection stays; a bad appended line is counted);
/// a loopback GeoJSON feed that changes between refreshes reports what was added, removed and
/// moved; a feed answering 500 or garbage leaves the map as it was.
final class LiveDataTests: XCTestCase {
    /// Total places the scene shows (bubble counts plus pins).
    static func sceneCount(_ e: [String: Any]) -> Int {
        let bubbles = (e["bubbles"] as? [[String: Any]] ?? []).reduce(0) { $0 + ($1["count"] as? Int ?? 0) }
        return bubbles + (e["pins"] as? [Any] ?? []).count
    }

    static func feature(_ id: String, _ lat: Double, _ lon: Double, name: String) -> String {
        "{\"type\":\"Feature\",\"id\":\"\(id)\",\"properties\":{\"name\":\"\(name)\"},\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(lon),\(lat)]}}"
    }

    func testAppendingLinesToAnOpenFileUpdatesTheMapInPlace() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        let path = h.workDir + "/sightings.geojsonl"
        var lines = (0..<6).map { Self.feature("s\($0)", 40.40 + Double($0) * 0.01, -3.70, name: "Sighting \($0)") }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        try h.launch([path, "--center", "40.43,-3.70", "--zoom", "9"])
        _ = try h.waitForEvent("watch", timeout: 30)
        let first = try h.waitForEvent("scene", timeout: 30) { Self.sceneCount($0) == 6 }
        let camera = try h.waitForEvent("camera", timeout: 10)

        // Append four good lines and one broken one.
        lines = (6..<10).map { Self.feature("s\($0)", 40.40 + Double($0) * 0.01, -3.70, name: "Sighting \($0)") }
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data((lines.joined(separator: "\n") + "\n{\"type\":\"Feature\",\"geometry\":{oops}\n").utf8))
        handle.closeFile()

        let changed = try h.waitForEvent("data-changed", after: first.index, timeout: 20)
        XCTAssertEqual(changed.event["added"] as? Int, 4)
        XCTAssertEqual(changed.event["removed"] as? Int, 0)
        XCTAssertEqual(changed.event["moved"] as? Int, 0)
        XCTAssertEqual(changed.event["points"] as? Int, 10)
        XCTAssertEqual(changed.event["skipped"] as? Int, 1, "the bad line is skipped and counted")
        let grown = try h.waitForEvent("scene", after: changed.index, timeout: 10) { Self.sceneCount($0) == 10 }
        XCTAssertGreaterThan(grown.index, changed.index)
        // The camera stayed where it was.
        let cameras = h.events()[camera.index...].filter { $0["event"] as? String == "camera" }
        for c in cameras {
            XCTAssertEqual(c["zoom"] as? Double ?? 0, camera.event["zoom"] as? Double ?? -1, accuracy: 1e-6)
        }
        h.assertNoGtkWarnings()
    }

    func testTheSelectionStaysThroughAChangeAndClosesQuietlyWhenItsPlaceGoes() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        let path = h.workDir + "/places.geojsonl"
        let a = Self.feature("a", 40.40, -3.70, name: "Alpha"), b = Self.feature("b", 40.50, -3.60, name: "Beta")
        try (a + "\n" + b + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        try h.launch([path, "--center", "40.45,-3.65", "--zoom", "9"])
        _ = try h.waitForEvent("watch", timeout: 30)
        let scene = try h.waitForEvent("scene", timeout: 30) { ($0["pins"] as? [[String: Any]] ?? []).count == 2 }
        let pins = scene.event["pins"] as? [[String: Any]] ?? []
        let beta = try XCTUnwrap(pins.first { $0["name"] as? String == "Beta" })
        try h.click(at: beta["x"] as? Double ?? 0, beta["y"] as? Double ?? 0)
        let selected = try h.waitForEvent("select", after: scene.index, timeout: 10)
        // Alpha moves: Beta stays selected under the same id.
        try (Self.feature("a", 40.41, -3.69, name: "Alpha") + "\n" + b + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        let moved = try h.waitForEvent("data-changed", after: selected.index, timeout: 20)
        XCTAssertEqual(moved.event["moved"] as? Int, 1)
        let after = try h.waitForEvent("scene", after: moved.index, timeout: 10)
        XCTAssertTrue((after.event["pins"] as? [[String: Any]] ?? []).contains { $0["name"] as? String == "Beta" && $0["selected"] as? Bool == true })
        // Beta goes: the callout closes with a quiet message.
        try (Self.feature("a", 40.41, -3.69, name: "Alpha") + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        let removed = try h.waitForEvent("data-changed", after: after.index, timeout: 20) { $0["removed"] as? Int == 1 }
        let deselect = try h.waitForEvent("deselect", after: moved.index, timeout: 10)
        XCTAssertLessThan(deselect.index, removed.index, "deselected as the change is shown")
        h.assertNoGtkWarnings()
    }

    func testAFeedThatChangesBetweenRefreshesAndOneThatFails() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        let folder = h.workDir + "/feed"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        func collection(_ features: [String]) -> String { "{\"type\":\"FeatureCollection\",\"features\":[\(features.joined(separator: ","))]}" }
        let v0 = collection([Self.feature("q1", 35.0, 139.0, name: "One"), Self.feature("q2", 36.0, 140.0, name: "Two"),
                             Self.feature("q3", -33.0, 151.0, name: "Three")])
        let v1 = collection([Self.feature("q1", 35.5, 139.5, name: "One"), Self.feature("q3", -33.0, 151.0, name: "Three"),
                             Self.feature("q4", 51.5, -0.1, name: "Four"), Self.feature("q5", 48.8, 2.3, name: "Five")])
        for (i, body) in [v0, v1, "STATUS 500\noops", "this is not json at all", v1].enumerated() {
            try body.write(toFile: folder + "/\(i).txt", atomically: true, encoding: .utf8)
        }
        let server = try FeedServer(folder: folder)
        defer { server.stop() }
        try h.launch(["http://127.0.0.1:\(server.port)/feed.geojson", "--refresh", "1"])
        let loaded = try h.waitForEvent("load-done", timeout: 30)
        XCTAssertEqual(loaded.event["points"] as? Int, 3)
        let changed = try h.waitForEvent("data-changed", after: loaded.index, timeout: 20)
        XCTAssertEqual(changed.event["added"] as? Int, 2)
        XCTAssertEqual(changed.event["removed"] as? Int, 1)
        XCTAssertEqual(changed.event["moved"] as? Int, 1)
        XCTAssertEqual(changed.event["points"] as? Int, 4)
        let failed500 = try h.waitForEvent("refresh-failed", after: changed.index, timeout: 20)
        XCTAssertTrue((failed500.event["error"] as? String ?? "").contains("500"), "\(failed500.event)")
        let failedGarbage = try h.waitForEvent("refresh-failed", after: failed500.index, timeout: 20)
        XCTAssertNotNil(failedGarbage.event["error"])
        // Through both failures the map kept its four places: no change was reported.
        XCTAssertFalse(h.events()[changed.index + 1...failedGarbage.index].contains { $0["event"] as? String == "data-changed" })
        let shown = try h.waitForEvent("scene", after: changed.index, timeout: 10)
        XCTAssertGreaterThan(Self.sceneCount(shown.event), 0)
        let last = h.events()[shown.index...].last { $0["event"] as? String == "scene" } ?? shown.event
        XCTAssertEqual(Self.sceneCount(last), Self.sceneCount(shown.event), "the scene still shows what the last good refresh gave")
        h.assertNoGtkWarnings()
    }

    /// The scripted feed (Support/feed_server.py).
    final class FeedServer {
        private let server: LoopbackServer
        var port: Int { server.port }
        init(folder: String) throws {
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Support/feed_server.py").path
            server = try LoopbackServer(script: script, arguments: [folder])
        }
        func stop() { server.stop() }
    }
}
