import XCTest
import Foundation

/// Dropping a file on the window loads it (SPEC §4): a real XDND drag from a GTK 3 window
/// (Support/drag_source.py) onto the map, driven with xdotool.
final class DropTests: XCTestCase {
    private var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Support/drag_source.py").path
    }

    func testDroppingACSVFileLoadsIt() throws {
        try AppHarness.requireTools()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"),
              (try? ProgramCheck.succeeds("/usr/bin/python3", ["-c", "import gi; gi.require_version('Gtk','3.0'); from gi.repository import Gtk"])) == true else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("python3-gi with GTK 3 missing (scripts/setup.sh test installs it)") }
            throw XCTSkip("python3-gi with GTK 3 is not installed")
        }
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "madrid"])
        let first = try h.waitForEvent("load-done")
        let csv = h.workDir + "/dropped.csv"
        try "name,lat,lon\nDropped A,10,10\nDropped B,10.001,10.001\nDropped C,-20,30\n".write(toFile: csv, atomically: true, encoding: .utf8)

        let source = Process()
        source.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        source.arguments = [script, csv]
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = h.display
        source.environment = env
        source.standardOutput = FileHandle.nullDevice
        source.standardError = FileHandle.nullDevice
        try source.run()
        defer { if source.isRunning { source.terminate() } }
        var sourceWindow = ""
        for _ in 0..<50 where sourceWindow.isEmpty {
            sourceWindow = (try h.run("xdotool", ["search", "--name", "DragSource"])).split(separator: "\n").first.map(String.init) ?? ""
            if sourceWindow.isEmpty { usleep(100_000) }
        }
        XCTAssertFalse(sourceWindow.isEmpty, "the drag source window appeared")

        // Press on the source's button, move away in steps (past GTK's drag threshold), hover the map, drop.
        try h.run("xdotool", ["mousemove", "--window", sourceWindow, "100", "50"])
        usleep(200_000)
        try h.run("xdotool", ["mousedown", "1"])
        for i in 1...15 {
            try h.run("xdotool", ["mousemove_relative", "--", "-\(i * 3)", "\(i)"])
            usleep(40_000)
        }
        try h.move(to: 600, 400)
        usleep(300_000)
        try h.move(to: 610, 405)
        usleep(300_000)
        try h.run("xdotool", ["mouseup", "1"])

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
