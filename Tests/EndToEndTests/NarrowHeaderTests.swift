import XCTest

/// Issue 32 item 10: `--size 360x720` opens 360 px wide with the desktop's usual title-bar
/// buttons (no settings file trimming them, unlike NarrowWindowTests): the header goes compact
/// (an icon for the dataset button, only the close button) and the search field never runs into
/// the dataset button.
final class NarrowHeaderTests: XCTestCase {
    func testA360PixelWindowOpens360Wide() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "madrid", "--size", "360x720"])
        _ = try h.waitForEvent("scene", timeout: 30)
        let layout = try h.waitForEvent("header-layout", timeout: 10) { ($0["window_width"] as? Double ?? 0) > 0 }
        XCTAssertEqual(layout.event["narrow"] as? Bool, true)
        let datasetRight = try XCTUnwrap(layout.event["dataset_right"] as? Double)
        let searchLeft = try XCTUnwrap(layout.event["search_left"] as? Double)
        XCTAssertLessThanOrEqual(datasetRight, searchLeft, "the search field overlaps the dataset button: \(layout.event)")
        let width = try XCTUnwrap(layout.event["window_width"] as? Double)
        XCTAssertLessThanOrEqual(width, 360 + 10, "the window keeps to 360 px (GTK's margins aside): \(layout.event)")
        let geometry = try h.run("xdotool", ["getwindowgeometry", h.windowID])
        let size = geometry.split(separator: "\n").first { $0.contains("Geometry:") }?
            .split(separator: " ").last?.split(separator: "x").compactMap { Int($0) } ?? []
        XCTAssertLessThanOrEqual(size.first ?? 9999, 370, "opened 360 px wide, not 400: \(geometry)")
        let shot = try h.screenshot(name: "narrow-header")
        print("narrow header screenshot: \(shot.path)")
    }

    func testAWideWindowKeepsTheFullHeader() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "madrid", "--size", "1000x700"])
        let layout = try h.waitForEvent("header-layout", timeout: 30) { ($0["window_width"] as? Double ?? 0) > 0 }
        XCTAssertEqual(layout.event["narrow"] as? Bool, false)
        let datasetRight = try XCTUnwrap(layout.event["dataset_right"] as? Double)
        let datasetLeft = try XCTUnwrap(layout.event["dataset_left"] as? Double)
        XCTAssertGreaterThan(datasetRight - datasetLeft, 100, "the dataset button shows its name: \(layout.event)")
    }
}
