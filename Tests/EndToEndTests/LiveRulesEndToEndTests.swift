import XCTest
import Foundation

/// Issue 33 items 1, 2 and 6 in the window: the earthquake replay's bubbles, read back from the
/// event log's scene, never stack more than a fresh build of the same earthquakes would stack them
/// (the app itself compacts to a fresh build once the data rests, so the scene after `compacted`
/// is that fresh build, at the same moment and camera). Issue 34 item 3: a big watched file keeps
/// its places through an append.
final class LiveRulesEndToEndTests: XCTestCase {
    /// Bubbles of a scene event: centre, radius, count.
    struct Bubble { let x, y, r: Double; let count: Int }

    static func bubbles(_ scene: [String: Any]) -> [Bubble] {
        (scene["bubbles"] as? [[String: Any]] ?? []).map {
            Bubble(x: $0["x"] as? Double ?? 0, y: $0["y"] as? Double ?? 0, r: $0["r"] as? Double ?? 0, count: $0["count"] as? Int ?? 0)
        }
    }

    /// How close the bubbles of a scene crowd: pairs whose centres are nearer than the app's
    /// clustering radius, 60 px (a fresh build has few: only cluster centres drifted from their
    /// origins), pairs whose discs overlap by more than 8 px, the largest overlap, and pairs
    /// stacked (centres less than 6 px apart: one hides the other).
    static func crowding(_ b: [Bubble]) -> (near: Int, pairs: Int, largest: Double, stacked: [String]) {
        var near = 0, pairs = 0, largest = 0.0, stacked: [String] = []
        for i in b.indices {
            for j in (i + 1)..<b.count {
                let d = ((b[i].x - b[j].x) * (b[i].x - b[j].x) + (b[i].y - b[j].y) * (b[i].y - b[j].y)).squareRoot()
                let overlap = b[i].r + b[j].r - d
                largest = max(largest, overlap)
                if d < 60 { near += 1 }
                if overlap > 8 { pairs += 1 }
                if d < 6 { stacked.append("\(b[i].count) and \(b[j].count) at (\(b[i].x), \(b[i].y))") }
            }
        }
        return (near, pairs, largest, stacked)
    }

    func testReplayedBubblesNeverStackMoreThanAFreshBuildAndSettleToIt() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        // As the issue: the replay faster (`]`), some 15 s of it (16,000 earthquakes), then paused.
        try h.launch(["--dataset", "live-earthquakes", "--replay-speed", "960"], timeout: 60)
        let chip = try h.waitForEvent("replay-chip", timeout: 60)
        let pause = try h.waitForEvent("widget", timeout: 30) { $0["name"] as? String == "replay-pause" }
        _ = try h.waitForEvent("replay", after: chip.index, timeout: 120) { ($0["shown"] as? Int ?? 0) >= 16000 }
        try h.click(at: pause.event["x"] as? Double ?? 0, pause.event["y"] as? Double ?? 0)
        let paused = try h.waitForEvent("replay-pause", after: chip.index, timeout: 10) { $0["paused"] as? Bool == true }

        // The data rests: the index compacts in the background.
        let compacted = try h.waitForEvent("compacted", after: paused.index, timeout: 30)
        XCTAssertEqual(compacted.event["installed"] as? Bool, true, "\(compacted.event)")
        let all = h.events()
        let lastStep = all[..<compacted.index].lastIndex { $0["event"] as? String == "replay" } ?? paused.index
        let shown = all[lastStep]["shown"] as? Int ?? 0
        XCTAssertEqual(compacted.event["points"] as? Int, shown, "the compaction holds every replayed earthquake")
        // The scene of the live index (repaired step by step), at rest after the last step: drawn
        // after that step's data motion started (a scene reported earlier may show an older frame)...
        let liveMotion = try XCTUnwrap(all[lastStep..<compacted.index].firstIndex { $0["event"] as? String == "data-motion" })
        let liveIndex = try XCTUnwrap(all[liveMotion..<compacted.index].lastIndex { $0["event"] as? String == "scene" },
                                      "a scene at rest between the last replay step and the compaction")
        let live = Self.bubbles(all[liveIndex])
        // ...and the fresh build's, drawn after the compaction's regrouping started, once it settled.
        let freshMotion = try h.waitForEvent("data-motion", after: compacted.index, timeout: 20)
        let fresh = Self.bubbles(try h.waitForEvent("scene", after: freshMotion.index, timeout: 20).event)
        XCTAssertGreaterThan(live.count, 20)
        let a = Self.crowding(live), b = Self.crowding(fresh)
        print("replay at \(shown) earthquakes: live \(live.count) bubbles, \(a.near) pairs nearer than 60 px, \(a.pairs) overlapping, "
              + "largest overlap \(a.largest) px; fresh build \(fresh.count) bubbles, \(b.near) near, \(b.pairs) overlapping, largest \(b.largest) px")
        XCTAssertEqual(a.stacked, [], "bubbles stacked on each other in the live scene")
        XCTAssertEqual(b.stacked, [], "bubbles stacked on each other after compaction")
        // The rule keeps clusters' origins apart, not their centres, so a repaired index may show a
        // few more centres within 60 px than a fresh build: 5 against 0 seen here at 16,156
        // earthquakes, where the repair that grouped freed items only among themselves gave 19.
        XCTAssertLessThanOrEqual(a.near, b.near + 8, "the live index crowds bubbles a fresh build keeps apart")
        XCTAssertLessThanOrEqual(a.pairs, b.pairs + 1, "the live index overlaps bubbles a fresh build keeps apart")
        XCTAssertLessThanOrEqual(a.largest, max(b.largest, 8) + 4)
        // Greedy in another order groups differently (64 live against 57 fresh seen at 16,156
        // earthquakes; 73 before the repair took in its neighbours), within the rules above;
        // never a fifth more bubbles.
        XCTAssertLessThanOrEqual(live.count, fresh.count + fresh.count / 5 + 2, "more bubbles than a fresh build shows")
        _ = try h.screenshot(name: "replay-compacted")
        h.assertNoGtkWarnings()
    }

    func testABigWatchedFileKeepsItsPlacesThroughItsFirstAppend() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        // 17 MiB of newline-delimited GeoJSON with ids: mapped when opened (16 MiB and more).
        let path = h.workDir + "/big.geojsonl"
        let n = 110_000
        var text = ""
        text.reserveCapacity(n * 170)
        let note = String(repeating: "x", count: 48)
        for i in 0..<n {
            let lat = Double((i * 7919) % 160_000) / 1000 - 80, lon = Double((i * 104_729) % 360_000) / 1000 - 180
            text += "{\"type\":\"Feature\",\"id\":\(i),\"properties\":{\"name\":\"P\(i)\",\"note\":\"\(note)\"},"
                + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(lon),\(lat)]}}\n"
        }
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        XCTAssertGreaterThanOrEqual(size, 16 << 20)
        try h.launch([path], timeout: 60)
        _ = try h.waitForEvent("load-done", timeout: 60)
        let identity = try h.waitForEvent("identity", timeout: 60)
        XCTAssertEqual(identity.event["superseded"] as? Int, 0)

        var appended = ""
        for i in n..<(n + 50) {
            appended += "{\"type\":\"Feature\",\"id\":\(i),\"geometry\":{\"type\":\"Point\",\"coordinates\":[10,\(Double(i % 50) / 10)]}}\n"
        }
        appended += "{\"type\":\"Feature\",\"id\":7,\"properties\":{\"name\":\"P7 again\"},\"geometry\":{\"type\":\"Point\",\"coordinates\":[11,11]}}\n"
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(appended.utf8))
        handle.closeFile()
        let changed = try h.waitForEvent("data-changed", after: identity.index, timeout: 60)
        XCTAssertEqual(changed.event["added"] as? Int, 50, "\(changed.event)")
        XCTAssertEqual(changed.event["removed"] as? Int, 0, "\(changed.event)")
        XCTAssertEqual(changed.event["moved"] as? Int, 1, "id 7 came back: it moved")
        XCTAssertEqual(changed.event["points"] as? Int, n + 50)
        h.assertNoGtkWarnings()
    }
}
