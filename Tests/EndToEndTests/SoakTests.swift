import XCTest

/// Long random interaction (SPEC §9): clicks, drags, scrolls and keys leave the app responsive,
/// with flat memory.
final class SoakTests: XCTestCase {
    func testRandomInteractionKeepsTheAppResponsiveWithFlatMemory() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "earthquakes"])
        _ = try h.waitForEvent("load-done", timeout: 30)
        var rng = SplitMix(seed: 20261129)
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
                usleep(30_000)
            }
        }
        try act(80)   // warm up: sprite and tile caches fill
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

/// A small seeded generator so the soak is the same every run.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E3779B97F4A7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }
}
