import XCTest
import Foundation

/// Dropping a file on the window loads it (SPEC §4): a real XDND drag from a GTK 3 window
/// (Support/drag_source.py) onto the map, driven with xdotool.
final class DropTests: XCTestCase {
    func testDroppingACSVFileLoadsIt() throws {
        try AppHarness.requireTools()
        try AppHarness.requireDragSource()
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "madrid"])
        let first = try h.waitForEvent("load-done")
        let csv = h.workDir + "/dropped.csv"
        try "name,lat,lon\nDropped A,10,10\nDropped B,10.001,10.001\nDropped C,-20,30\n".write(toFile: csv, atomically: true, encoding: .utf8)

        let source = try h.startDragSource(csv)
        defer { if source.isRunning { source.terminate() } }
        try h.dragFromSourceToMap()

        let open = try h.waitForEvent("open", after: first.index, timeout: 10)
        XCTAssertEqual(open.event["from"] as? String, "drop")
        XCTAssertEqual((open.event["files"] as? [String])?.first, csv)
        let loaded = try h.waitForEvent("load-done", after: open.index, timeout: 10)
        XCTAssertEqual(loaded.event["points"] as? Int, 3)
    }
}

/// Whether a command exits 0.
enum ProgramCheck {
    static func succeeds(_ path: String, _ args: [String]) throws -> Bool {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus == 0
    }
}
