import XCTest
import Foundation
import CCairo

/// Runs the real `clustermap` window under its own Xvfb, drives it with xdotool and reads its
/// event log (ARCHITECTURE §3, "app" row).
final class AppHarness {
    struct LaunchError: Error, CustomStringConvertible { let description: String }

    let display: String
    /// Launch arguments for the camera a bundled demo used to open at (the whole world, where the
    /// nine Madrid places are one bubble): demos now open fitted to their data.
    static let worldView = ["--center", "20,0", "--zoom", "2.32"]
    private let xvfb: Process
    private var app: Process?
    /// The apps' own session bus (nil where dbus-daemon is missing).
    private let bus: PrivateSessionBus?
    let logPath: String
    let workDir: String
    private(set) var windowID: String = ""
    /// When `click` last clicked (a new click must come after the double-click time).
    var lastClick: Date?
    /// The events parsed so far and the log's bytes they came from (see `events()`).
    private var parsedLog: (events: [[String: Any]], bytes: Int) = ([], 0)
    /// What the next launched app reads as standard input (for `clustermap -`).
    var standardInputForNextLaunch: FileHandle?

    /// The built executable (`make test` builds it before `swift test`).
    static var binaryPath: String {
        if let p = ProcessInfo.processInfo.environment["CLUSTERMAP_BINARY"] { return p }
        return repoRoot + "/.build/debug/clustermap"
    }

    static var repoRoot: String {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
        }
        return FileManager.default.currentDirectoryPath
    }

    /// Whether the tools are installed; in CI their absence is a failure, not a skip.
    static func requireTools() throws {
        for tool in ["Xvfb", "xdotool", "import"] where which(tool) == nil {
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                XCTFail("\(tool) is not installed (scripts/setup.sh test installs it)")
            }
            throw XCTSkip("\(tool) is not installed; run `make test`")
        }
        guard FileManager.default.isExecutableFile(atPath: binaryPath) else {
            XCTFail("no app binary at \(binaryPath); run `swift build` first (make test does)")
            throw LaunchError(description: "missing binary")
        }
    }

    static func which(_ tool: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let p = "\(dir)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }

    init() throws {
        workDir = NSTemporaryDirectory() + "clustermap-e2e-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: workDir, withIntermediateDirectories: true)
        logPath = workDir + "/events.jsonl"
        // -displayfd picks a free display and writes its number to our pipe.
        xvfb = Process()
        xvfb.executableURL = URL(fileURLWithPath: AppHarness.which("Xvfb")!)
        // -noreset: the server must not regenerate when its last client leaves (an app that quit
        // and the xdotool call after it): a launch connecting meanwhile got "cannot open display".
        xvfb.arguments = ["-displayfd", "1", "-screen", "0", "1600x1000x24", "-nolisten", "tcp", "-noreset"]
        let pipe = Pipe()
        xvfb.standardOutput = pipe
        xvfb.standardError = FileHandle.nullDevice
        try xvfb.run()
        var number = ""
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let d = pipe.fileHandleForReading.availableData
            if d.isEmpty { break }
            number += String(decoding: d, as: UTF8.self)
            if number.contains("\n") { break }
        }
        let n = number.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !n.isEmpty else { xvfb.terminate(); throw LaunchError(description: "Xvfb did not start") }
        display = ":" + n
        bus = try? PrivateSessionBus()
    }

    deinit { stop() }

    /// Launches the app with arguments (an event log is added) and waits for `ready`; accessibility
    /// off, on the harness's own session bus.
    /// Variables added to the app's environment by `launch(_:timeout:)`.
    var extraEnvironment: [String: String] = [:]

    func launch(_ arguments: [String], timeout: TimeInterval = 30) throws {
        var env = ProcessInfo.processInfo.environment
        env["GTK_A11Y"] = "none"
        env["NO_AT_BRIDGE"] = "1"
        if let bus { env["DBUS_SESSION_BUS_ADDRESS"] = bus.address }
        env.merge(extraEnvironment) { $1 }
        try launch(arguments, environment: env, timeout: timeout)
    }

    /// Launches with a given base environment (display, config folder and X11 are added).
    func launch(_ arguments: [String], environment base: [String: String], timeout: TimeInterval) throws {
        // A relaunch must not pick up the last app's window while X is still dropping it.
        if !windowID.isEmpty && !isAppRunning {
            AppHarness.poll(timeout: 5) {
                (try? run("xdotool", ["search", "--onlyvisible", "--name", "ClusterMap"]))?.isEmpty ?? true
            }
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: AppHarness.binaryPath)
        p.arguments = arguments + ["--event-log", logPath]
        var env = base
        env["DISPLAY"] = display
        env["XDG_CONFIG_HOME"] = workDir + "/config"
        env["GDK_BACKEND"] = "x11"
        // A Gtk-CRITICAL aborts the app, so a test can't pass over one (issue 15 item 3); stop()
        // also fails the test on any Gtk/GLib warning the app printed.
        env["G_DEBUG"] = "fatal-criticals"
        p.environment = env
        p.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        if let input = standardInputForNextLaunch {
            p.standardInput = input
            standardInputForNextLaunch = nil
        }
        p.standardError = stderrLog()
        // The app starts its log afresh; the last app's log goes first, or a wait could find its
        // `ready` before the new app truncates the file.
        try? FileManager.default.removeItem(atPath: logPath)
        parsedLog = ([], 0)
        try p.run()
        app = p
        _ = try waitForEvent("ready", timeout: timeout)
        windowID = try findWindow()
    }

    /// The app's stderr goes to a file in the work folder (quoted when the app dies early).
    private func stderrLog() -> FileHandle? {
        let path = workDir + "/app-stderr.log"
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return FileHandle(forWritingAtPath: path)
    }

    func stop() {
        if let app, app.isRunning { app.terminate(); app.waitUntilExit() }
        let launched = app != nil
        app = nil
        if xvfb.isRunning { xvfb.terminate(); xvfb.waitUntilExit() }
        bus?.stop()
        guard !stopped else { return }
        stopped = true
        if launched { assertNoGtkWarnings() }
        // Each run used to leave its screenshots and files (~110 MB) behind.
        if ProcessInfo.processInfo.environment["CLUSTERMAP_KEEP_E2E"] == nil {
            try? FileManager.default.removeItem(atPath: workDir)
        }
    }

    private var stopped = false

    /// Lines of the app's stderr that GTK or GLib wrote as warnings or criticals.
    var gtkWarnings: [String] {
        let err = (try? String(contentsOfFile: workDir + "/app-stderr.log", encoding: .utf8)) ?? ""
        return err.split(separator: "\n").map(String.init).filter {
            $0.contains("-CRITICAL **") || $0.contains("-WARNING **") || $0.contains("Gtk-CRITICAL") || $0.contains("Gtk-WARNING")
        }
    }

    /// Fails the running test when the app printed any GTK/GLib warning or critical.
    func assertNoGtkWarnings(file: StaticString = #filePath, line: UInt = #line) {
        let w = gtkWarnings
        XCTAssertTrue(w.isEmpty, "the app printed \(w.count) GTK warnings: \(w.prefix(3))", file: file, line: line)
    }

    // MARK: Event log

    /// All events logged so far, parsed. Only lines added since the last call are parsed (waits
    /// call this 50 times a second, and a long test's log holds thousands of frames); a log that
    /// shrank (a relaunch starts a new one) is read afresh.
    func events() -> [[String: Any]] {
        guard let data = FileManager.default.contents(atPath: logPath) else { return [] }
        if data.count < parsedLog.bytes { parsedLog = ([], 0) }
        guard let end = data.lastIndex(of: UInt8(ascii: "\n")), end >= parsedLog.bytes else { return parsedLog.events }
        for line in data[parsedLog.bytes..<end].split(separator: UInt8(ascii: "\n")) {
            if let e = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] { parsedLog.events.append(e) }
        }
        parsedLog.bytes = end + 1
        return parsedLog.events
    }

    /// Waits until an event named `name` appears after `index` events, returning it and its index.
    @discardableResult
    func waitForEvent(_ name: String, after index: Int = 0, timeout: TimeInterval = 15,
                      where predicate: ([String: Any]) -> Bool = { _ in true }) throws -> (event: [String: Any], index: Int) {
        var found: (event: [String: Any], index: Int)?
        _ = try AppHarness.poll(timeout: timeout) {
            let all = events()
            if all.count > index {
                for i in index..<all.count where all[i]["event"] as? String == name && predicate(all[i]) {
                    found = (all[i], i)
                    return true
                }
            }
            if let app, !app.isRunning {
                let err = (try? String(contentsOfFile: workDir + "/app-stderr.log", encoding: .utf8)) ?? ""
                throw LaunchError(description: "app exited (status \(app.terminationStatus)) before '\(name)'; stderr: \(err.suffix(400))")
            }
            return false
        }
        if let found { return found }
        throw LaunchError(description: "timed out waiting for '\(name)'; last events: \(events().suffix(3))")
    }

    // MARK: X11 input

    @discardableResult
    func run(_ tool: String, _ args: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: AppHarness.which(tool) ?? "/usr/bin/\(tool)")
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = display
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// The app's window.
    private func findWindow(timeout: TimeInterval = 5) throws -> String {
        var found: String?
        _ = try AppHarness.poll(timeout: timeout) {
            let ids = try run("xdotool", ["search", "--onlyvisible", "--name", "ClusterMap"])
                .split(separator: "\n").map(String.init)
            found = ids.last
            return found != nil
        }
        guard let found else { throw LaunchError(description: "no ClusterMap window found") }
        return found
    }

    /// Moves the pointer to window (surface) coordinates, as logged in events.
    func move(to x: Double, _ y: Double) throws {
        try run("xdotool", ["mousemove", "--window", windowID, String(Int(x.rounded())), String(Int(y.rounded()))])
    }

    /// Moves there and clicks, in one xdotool call: X delivers the motion before the press, so
    /// the app knows where the pointer is without a pause between them.
    func click(at x: Double, _ y: Double, button: Int = 1) throws {
        try run("xdotool", ["mousemove", "--window", windowID, String(Int(x.rounded())), String(Int(y.rounded())),
                            "click", String(button)])
        lastClick = Date()
    }

    /// Presses, moves in steps and releases: a real drag.
    func drag(from a: (Double, Double), to b: (Double, Double), steps: Int = 12) throws {
        try move(to: a.0, a.1)
        try run("xdotool", ["mousedown", "1"])
        for i in 1...steps {
            let t = Double(i) / Double(steps)
            try move(to: a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
            // Kept: a drag's speed is part of the input (the kinetic pan after release reads the
            // pointer's velocity), so its steps come at a frame's pace, as from a hand.
            usleep(16_000)
        }
        try run("xdotool", ["mouseup", "1"])
    }

    func key(_ name: String) throws {
        try run("xdotool", ["key", "--window", windowID, name])
        // A combination that closes the window (Ctrl+Q) can leave its keys down on the X server
        // (the release is sent to a window that is gone), and the next app launched on this
        // display then sees Ctrl+Q held and quits at once (the server keeps that state: -noreset).
        if name.contains("+") { _ = try? run("xdotool", ["keyup", name]) }
    }

    // MARK: Screenshots

    /// Takes a screenshot of the app window and returns it as an RGB pixel grid.
    func screenshot(name: String) throws -> Screenshot {
        let path = workDir + "/\(name).png"
        try run("import", ["-window", windowID, path])
        return try Screenshot(pngPath: path)
    }

    /// Takes screenshots until `ready` holds (what X shows can lag the frames the app reports)
    /// or `timeout` passes, and returns the last one; the caller still asserts on it.
    func screenshot(name: String, until ready: (Screenshot) -> Bool, timeout: TimeInterval = 5) throws -> Screenshot {
        var shot = try screenshot(name: name)
        _ = try AppHarness.poll(timeout: timeout) {
            if ready(shot) { return true }
            shot = try screenshot(name: name)
            return ready(shot)
        }
        return shot
    }
}

// MARK: Keyboard focus and files (chrome tests)

extension AppHarness {
    /// Types text into whatever has the keyboard focus (real XTEST key events, which text fields
    /// accept; `key --window` sends synthetic events some widgets ignore).
    func typeText(_ text: String) throws {
        try run("xdotool", ["type", "--delay", "40", text])
    }

    /// Presses a key (XTEST) on whatever has the focus.
    func pressKey(_ name: String) throws {
        try run("xdotool", ["key", name])
    }

    /// Opens a file the way a person does: Ctrl+O, type the path into the chooser, Enter.
    func openWithChooser(_ path: String) throws {
        try key("ctrl+o")
        try waitForFocusedWindow(named: "Open Data Files")
        try typeText(path)
        try acceptTypedPath()
    }

    /// The exit status of an app that has exited (nil while it runs). Kept after `stop()`.
    var appExitStatus: Int32? {
        guard let app, !app.isRunning else { return nil }
        return app.terminationStatus
    }

    /// Waits until the window with this title has the keyboard focus (typing goes there), instead
    /// of sleeping for a guessed time.
    func waitForFocusedWindow(named name: String, timeout: TimeInterval = 15) throws {
        let focused = try AppHarness.poll(timeout: timeout) {
            try run("xdotool", ["getwindowfocus", "getwindowname"]).trimmingCharacters(in: .whitespacesAndNewlines) == name
        }
        if !focused { throw LaunchError(description: "no focused window named '\(name)'") }
    }

    /// Whether the app process is still running.
    var isAppRunning: Bool { app?.isRunning ?? false }

    /// Waits for the app to exit by itself (e.g. after Ctrl+Q).
    func waitForExit(timeout: TimeInterval = 10) -> Bool {
        AppHarness.poll(timeout: timeout) { !isAppRunning }
    }
}

// MARK: Process statistics (soak tests)

extension AppHarness {
    /// The app's resident memory in MB (VmRSS), nil when it isn't running.
    var appResidentMB: Double? {
        guard let pid = app?.processIdentifier, app?.isRunning == true,
              let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kb = Double(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kb / 1024
    }
}
