import XCTest
import ClusterCore

/// Long random interaction (SPEC §9): clicks, drags, scrolls and keys leave the app responsive,
/// with flat memory.
final class SoakTests: XCTestCase {
    func testRandomInteractionKeepsTheAppResponsiveWithFlatMemory() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "earthquakes"])
        _ = try h.waitForEvent("load-done", timeout: 30)
        var rng = SeededRandom(seed: 20261129)
        let keys = ["plus", "minus", "Left", "Right", "Up", "Down", "Escape", "Tab", "Return", "0"]
        func act(_ count: Int) throws {
            for _ in 0..<count {
                let x = Double(rng.next() % 1200 + 40), y = Double(rng.next() % 700 + 60)
                switch rng.next() % 5 {
                case 0: try h.click(at: x, y)
                case 1: try h.drag(from: (x, y), to: (x + Double(rng.next() % 300) - 150, y + Double(rng.next() % 200) - 100), steps: 4)
                case 2: try h.move(to: x, y); try h.run("xdotool", ["click", rng.next() % 2 == 0 ? "4" : "5"])
                case 3: try h.key(keys[Int(rng.next() % UInt64(keys.count))])
                default: try h.move(to: x, y)
                }
                // Kept: random input at a hand's pace is what this test is about (a stream of
                // events with no pause is another test: the app would just coalesce it).
                usleep(30_000)
            }
        }
        try act(80)   // warm up: sprite and tile caches fill
        // The 1:10m map and the base-map names load once, in the background, after the first
        // frame (~80 MB); on a busy machine that can land inside the measured stretch. Memory is
        // measured from when they are in, so only what interaction adds counts.
        _ = try h.waitForEvent("basemap-labels", timeout: 60)
        _ = try h.waitForEvent("basemap", timeout: 60) { $0["level"] as? String == "10m" }
        // Kept: memory settles a moment after the loads (freed pages, malloc trimming) and
        // nothing logs when; measured from then so only what interaction adds counts.
        usleep(500_000)
        let before = try XCTUnwrap(h.appResidentMB)
        try act(120)
        XCTAssertTrue(h.isAppRunning, "the app survived")
        // Still responsive: "show all" brings the camera to rest again.
        let mark = h.events().count
        try h.key("Escape"); try h.key("Escape")
        try h.key("0")
        _ = try h.waitForEvent("camera", after: mark, timeout: 10)
        let after = try XCTUnwrap(h.appResidentMB)
        XCTAssertLessThan(after - before, 80, "memory grew from \(before) MB to \(after) MB")
    }
}
