import XCTest
import Foundation

/// The live path in the window, round 2 (issue 13): the earthquake replay says which day it has
/// reached and its speed can be changed (and paused) with the mouse; the dataset menu offers the
/// replay; search follows live changes (a removed place is no longer found, a replayed one is).
final class LiveReplayTests: XCTestCase {
    func widget(_ h: AppHarness, _ name: String, after: Int = 0) throws -> (x: Double, y: Double, index: Int) {
        let w = try h.waitForEvent("widget", after: after, timeout: 30) { $0["name"] as? String == name }
        return (w.event["x"] as? Double ?? 0, w.event["y"] as? Double ?? 0, w.index)
    }

    func testTheReplayShowsItsDateAndItsSpeedAndPauseWorkByMouse() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "live-earthquakes", "--replay-speed", "120"], timeout: 60)
        let chip = try h.waitForEvent("replay-chip", timeout: 60)
        let text = chip.event["text"] as? String ?? ""
        XCTAssertTrue(text.hasPrefix("Replaying 196") && text.hasSuffix(" · 120 days/s"), text)
        let faster = try widget(h, "replay-faster")
        let pause = try widget(h, "replay-pause")

        try h.click(at: faster.x, faster.y)
        let speed = try h.waitForEvent("replay-speed", after: faster.index, timeout: 10)
        XCTAssertEqual(speed.event["days_per_second"] as? Double, 240)
        let faster2 = try h.waitForEvent("replay-chip", after: speed.index, timeout: 10)
        XCTAssertTrue((faster2.event["text"] as? String ?? "").hasSuffix("240 days/s"), "\(faster2.event)")

        // Paused: the chip says so and no earthquakes are added until it resumes.
        try h.click(at: pause.x, pause.y)
        let paused = try h.waitForEvent("replay-pause", after: faster2.index, timeout: 10)
        XCTAssertEqual(paused.event["paused"] as? Bool, true)
        let pausedChip = try h.waitForEvent("replay-chip", after: paused.index, timeout: 10)
        XCTAssertTrue((pausedChip.event["text"] as? String ?? "").hasPrefix("Paused at 19"), "\(pausedChip.event)")
        // Nothing replays while paused: the steps go on (four a second, each logs `replay-idle`)
        // and none adds an earthquake. Steps run on the GTK thread, as the pause does: none
        // after it can add any.
        let firstIdle = try h.waitForEvent("replay-idle", after: paused.index, timeout: 10)
        let secondIdle = try h.waitForEvent("replay-idle", after: firstIdle.index + 1, timeout: 10)
        let thirdIdle = try h.waitForEvent("replay-idle", after: secondIdle.index + 1, timeout: 10)
        XCTAssertFalse(h.events()[paused.index...thirdIdle.index].contains { $0["event"] as? String == "replay" }, "nothing replays while paused")
        XCTAssertEqual(thirdIdle.event["shown"] as? Int, firstIdle.event["shown"] as? Int)
        _ = try h.screenshot(name: "replay-paused")
        try h.click(at: pause.x, pause.y)
        let resumed = try h.waitForEvent("replay-pause", after: paused.index + 1, timeout: 10)
        XCTAssertEqual(resumed.event["paused"] as? Bool, false)
        let step = try h.waitForEvent("replay", after: resumed.index, timeout: 10)
        XCTAssertGreaterThan(step.event["shown"] as? Int ?? 0, 0)
        // Search finds replayed earthquakes by what they are called (their magnitude), and the
        // index grew in place with the replay.
        XCTAssertTrue(h.events().contains { $0["event"] as? String == "search-index" && $0["live"] as? Bool == true })
        h.assertNoGtkWarnings()
    }

    func testTheDatasetMenuOffersTheReplay() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "madrid"], timeout: 60)
        let done = try h.waitForEvent("load-done", timeout: 60)
        let menu = try widget(h, "dataset-menu")
        let mark = h.events().count
        try h.click(at: menu.x, menu.y)
        try h.waitForEvent("popover", after: mark, timeout: 10) { $0["name"] as? String == "dataset-menu" }
        // The menu opens on its first item: six bundled datasets, then the live demo.
        for _ in 0..<6 { try h.pressKey("Down") }
        try h.pressKey("Return")
        let open = try h.waitForEvent("open", after: done.index, timeout: 10)
        XCTAssertEqual(open.event["dataset"] as? String, "live-earthquakes")
        XCTAssertEqual(open.event["from"] as? String, "menu")
        let chip = try h.waitForEvent("replay-chip", after: open.index, timeout: 60)
        XCTAssertTrue((chip.event["text"] as? String ?? "").hasPrefix("Replaying "), "\(chip.event)")
        _ = try h.waitForEvent("replay", after: open.index, timeout: 20)
        h.assertNoGtkWarnings()
    }

    func testSearchNoLongerFindsARemovedPlace() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        let path = h.workDir + "/places.geojsonl"
        let alpha = LiveDataTests.feature("a", 40.40, -3.70, name: "Alpha")
        let beta = LiveDataTests.feature("b", 40.50, -3.60, name: "Betania")
        try (alpha + "\n" + beta + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        try h.launch([path, "--center", "40.45,-3.65", "--zoom", "9"])
        _ = try h.waitForEvent("watch", timeout: 30)
        let indexed = try h.waitForEvent("search-index", timeout: 30)
        XCTAssertEqual(indexed.event["names"] as? Int, 2)
        try h.move(to: 640, 400)
        try h.key("ctrl+f")
        try h.waitForEvent("widget", timeout: 10) { $0["name"] as? String == "search" }
        try h.typeText("Bet")
        let found = try h.waitForEvent("search-results", after: indexed.index, timeout: 10) { $0["query"] as? String == "Bet" }
        XCTAssertEqual(found.event["names"] as? [String], ["Betania"])

        // Betania goes, a new place comes with a name that matches too.
        let gamma = LiveDataTests.feature("c", 40.45, -3.65, name: "Bethel")
        try (alpha + "\n" + gamma + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        let changed = try h.waitForEvent("data-changed", after: found.index, timeout: 20)
        XCTAssertEqual(changed.event["removed"] as? Int, 1)
        XCTAssertEqual(changed.event["added"] as? Int, 1)
        // The index changed in place (before the change is reported), not rebuilt.
        let live = try h.waitForEvent("search-index", after: found.index, timeout: 10) { $0["live"] as? Bool == true }
        XCTAssertLessThan(live.index, changed.index)
        XCTAssertEqual(live.event["names"] as? Int, 2)
        // The open results follow at once; typing again searches the updated index.
        let after = try h.waitForEvent("search-results", after: live.index, timeout: 10)
        XCTAssertEqual(after.event["names"] as? [String], ["Bethel"])
        try h.pressKey("BackSpace")
        let again = try h.waitForEvent("search-results", after: after.index, timeout: 10) { $0["query"] as? String == "Be" }
        XCTAssertEqual(again.event["names"] as? [String], ["Bethel"], "the removed Betania is not offered")
        h.assertNoGtkWarnings()
    }

    /// A new place pops up (grows from small with a slight overshoot); with reduced motion it
    /// only fades in. The event log tells what each data change's animation does.
    func testANewPlacePopsUpAndOnlyFadesInUnderReducedMotion() throws {
        try AppHarness.requireTools()
        for reduced in [false, true] {
            let h = try AppHarness()
            defer { h.stop() }
            let path = h.workDir + "/places.geojsonl"
            try (LiveDataTests.feature("a", 40.40, -3.70, name: "Alpha") + "\n").write(toFile: path, atomically: false, encoding: .utf8)
            try h.launch([path, "--center", "40.45,-3.65", "--zoom", "9"] + (reduced ? ["--reduce-motion"] : []))
            _ = try h.waitForEvent("watch", timeout: 30)
            let first = try h.waitForEvent("scene", timeout: 30) { ($0["pins"] as? [Any] ?? []).count == 1 }
            let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
            handle.seekToEndOfFile()
            handle.write(Data((LiveDataTests.feature("b", 40.50, -3.55, name: "Beta") + "\n").utf8))
            handle.closeFile()
            let changed = try h.waitForEvent("data-changed", after: first.index, timeout: 20)
            XCTAssertEqual(changed.event["added"] as? Int, 1)
            let motion = try h.waitForEvent("data-motion", after: first.index, timeout: 10)
            XCTAssertEqual(motion.event["pop"] as? Int, reduced ? 0 : 1, "\(motion.event)")
            XCTAssertEqual(motion.event["fade_in"] as? Int, reduced ? 1 : 0, "\(motion.event)")
            XCTAssertEqual(motion.event["fade_out"] as? Int, 0)
            _ = try h.waitForEvent("scene", after: motion.index, timeout: 10) { ($0["pins"] as? [Any] ?? []).count == 2 }
            h.assertNoGtkWarnings()
        }
    }
}
