import Foundation
import XCTest

/// A real XDND drag of a file from a GTK 3 window (Support/drag_source.py) onto the map, driven
/// with xdotool (DropTests, GDALOpenTests).
extension AppHarness {
    /// Whether python3 with GTK 3 (the drag source) is here; in CI its absence is a failure.
    static func requireDragSource() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"),
              (try? ProgramCheck.succeeds("/usr/bin/python3", ["-c", "import gi; gi.require_version('Gtk','3.0'); from gi.repository import Gtk"])) == true else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("python3-gi with GTK 3 missing (scripts/setup.sh test installs it)") }
            throw XCTSkip("python3-gi with GTK 3 is not installed")
        }
    }

    /// Starts the drag source offering `file`; terminate it when the test ends.
    func startDragSource(_ file: String) throws -> Process {
        let source = Process()
        source.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        source.arguments = [URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Support/drag_source.py").path, file]
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = display
        source.environment = env
        source.standardOutput = FileHandle.nullDevice
        source.standardError = FileHandle.nullDevice
        try source.run()
        return source
    }

    /// Presses on the drag source's button, moves away past GTK's drag threshold, hovers the map
    /// until the app has answered the drag there twice (`drop-hover`), and releases: the drop.
    func dragFromSourceToMap() throws {
        var sourceWindow = ""
        AppHarness.poll(timeout: 10) {
            // Only a mapped window takes the press: one found before it is shown starts no drag.
            sourceWindow = (try? run("xdotool", ["search", "--onlyvisible", "--name", "DragSource"]))?
                .split(separator: "\n").first.map(String.init) ?? ""
            return !sourceWindow.isEmpty
        }
        XCTAssertFalse(sourceWindow.isEmpty, "the drag source window appeared")
        // The source is another program (GTK 3) with no event log: if its drag did not start (it
        // missed the press while a loaded machine was still showing it), the map never sees a
        // drag — the gesture is tried once more. The app's side is the same both times: its
        // `drop-hover` answers and the drop.
        var first: (event: [String: Any], index: Int)?
        for attempt in 1...2 where first == nil {
            // Move and press in one call: X delivers the motion before the press.
            try run("xdotool", ["mousemove", "--window", sourceWindow, "100", "50", "mousedown", "1"])
            for i in 1...15 {
                try run("xdotool", ["mousemove_relative", "--", "-\(i * 3)", "\(i)"])
                // Kept: the source starts the drag from the motion it sees, so the moves come at a
                // hand's pace.
                usleep(40_000)
            }
            let mark = events().count
            try move(to: 600, 400)
            if attempt == 2 {
                first = try waitForEvent("drop-hover", after: mark, timeout: 10)
            } else if let hover = try? waitForEvent("drop-hover", after: mark, timeout: 6) {
                first = hover
            } else {
                try run("xdotool", ["mouseup", "1"])
            }
        }
        guard let first else { return }
        // A second position after the app's first answer reached the source: the source now
        // knows the map accepts files, so the release drops.
        try move(to: 610, 405)
        try waitForEvent("drop-hover", after: first.index + 1, timeout: 10)
        try run("xdotool", ["mouseup", "1"])
    }
}
