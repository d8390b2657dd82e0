import XCTest

/// The window works down to 360 px wide (issue 12 item 7): the header bar shrinks, and the In View
/// panel floats over the map instead of squeezing it (GNOME HIG adaptive sidebar).
final class NarrowWindowTests: XCTestCase {
    func testA360PixelWindowWithTheInViewPanelOverTheMap() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        // GNOME's own title-bar buttons (close only); Xvfb has no desktop settings of its own.
        let gtkConfig = h.workDir + "/config/gtk-4.0"
        try FileManager.default.createDirectory(atPath: gtkConfig, withIntermediateDirectories: true)
        try "[Settings]\ngtk-decoration-layout=:close\n".write(toFile: gtkConfig + "/settings.ini", atomically: true, encoding: .utf8)
        try h.launch(["--dataset", "madrid", "--size", "360x640"])
        _ = try h.waitForEvent("scene", timeout: 30)
        let geometry = try h.run("xdotool", ["getwindowgeometry", h.windowID])
        let size = geometry.split(separator: "\n").first { $0.contains("Geometry:") }?
            .split(separator: " ").last?.split(separator: "x").compactMap { Int($0) } ?? []
        XCTAssertEqual(size.count, 2, geometry)
        // The window's width includes GTK's 5-px client-side margins under Xvfb.
        XCTAssertLessThanOrEqual(size.first ?? 9999, 370, "the window keeps to 360 px: \(geometry)")

        try h.key("F9")
        let layout = try h.waitForEvent("list-panel-layout", timeout: 10)
        XCTAssertEqual(layout.event["overlay"] as? Bool, true)
        let list = try h.waitForEvent("list", after: layout.index, timeout: 10)
        try h.waitForFrame(after: list.index)  // laid out and drawn with the panel
        let shot = try h.screenshot(name: "narrow-in-view")
        print("narrow screenshot: \(shot.path)")
        XCTAssertLessThanOrEqual(shot.width, 372, "still narrow with the panel shown")
    }
}
