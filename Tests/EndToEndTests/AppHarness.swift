import XCTest
import Foundation
import CCairo

/// Runs the real `clustermap` window under its own Xvfb, drives it with xdotool and reads its
/// event log (ARCHITECTURE §3, "app" row).
final class AppHarness {
    struct LaunchError: Error, CustomStringConvertible { let description: String }

    let display: String
    private let xvfb: Process
    private var app: Process?
    /// The apps' own session bus (nil where dbus-daemon is missing).
    private let bus: PrivateSessionBus?
    let logPath: String
    let workDir: String
    private(set) var windowID: String = ""

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
        xvfb.arguments = ["-displayfd", "1", "-screen", "0", "1600x1000x24", "-nolisten", "tcp"]
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
    func launch(_ arguments: [String], timeout: TimeInterval = 30) throws {
        var env = ProcessInfo.processInfo.environment
        env["GTK_A11Y"] = "none"
        env["NO_AT_BRIDGE"] = "1"
        if let bus { env["DBUS_SESSION_BUS_ADDRESS"] = bus.address }
        try launch(arguments, environment: env, timeout: timeout)
    }

    /// Launches with a given base environment (display, config folder and X11 are added).
    func launch(_ arguments: [String], environment base: [String: String], timeout: TimeInterval) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: AppHarness.binaryPath)
        p.arguments = arguments + ["--event-log", logPath]
        var env = base
        env["DISPLAY"] = display
        env["XDG_CONFIG_HOME"] = workDir + "/config"
        env["GDK_BACKEND"] = "x11"
        p.environment = env
        p.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        p.standardError = stderrLog()
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
        app = nil
        if xvfb.isRunning { xvfb.terminate(); xvfb.waitUntilExit() }
        bus?.stop()
    }

    // MARK: Event log

    /// All events logged so far, parsed.
    func events() -> [[String: Any]] {
        guard let text = try? String(contentsOfFile: logPath, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// Waits until an event named `name` appears after `index` events, returning it and its index.
    @discardableResult
    func waitForEvent(_ name: String, after index: Int = 0, timeout: TimeInterval = 15,
                      where predicate: ([String: Any]) -> Bool = { _ in true }) throws -> (event: [String: Any], index: Int) {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let all = events()
            if all.count > index {
                for i in index..<all.count where all[i]["event"] as? String == name && predicate(all[i]) {
                    return (all[i], i)
                }
            }
            if let app, !app.isRunning {
                let err = (try? String(contentsOfFile: workDir + "/app-stderr.log", encoding: .utf8)) ?? ""
                throw LaunchError(description: "app exited (status \(app.terminationStatus)) before '\(name)'; stderr: \(err.suffix(400))")
            }
            usleep(50_000)
        }
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

    private func findWindow() throws -> String {
        for _ in 0..<50 {
            let ids = try run("xdotool", ["search", "--onlyvisible", "--name", "ClusterMap"])
                .split(separator: "\n").map(String.init)
            if let id = ids.last { return id }
            usleep(100_000)
        }
        throw LaunchError(description: "no ClusterMap window found")
    }

    /// Moves the pointer to window (surface) coordinates, as logged in events.
    func move(to x: Double, _ y: Double) throws {
        try run("xdotool", ["mousemove", "--window", windowID, String(Int(x.rounded())), String(Int(y.rounded()))])
    }

    func click(at x: Double, _ y: Double, button: Int = 1) throws {
        try move(to: x, y)
        usleep(50_000)
        try run("xdotool", ["click", String(button)])
    }

    /// Presses, moves in steps and releases: a real drag.
    func drag(from a: (Double, Double), to b: (Double, Double), steps: Int = 12) throws {
        try move(to: a.0, a.1)
        try run("xdotool", ["mousedown", "1"])
        for i in 1...steps {
            let t = Double(i) / Double(steps)
            try move(to: a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
            usleep(16_000)
        }
        try run("xdotool", ["mouseup", "1"])
    }

    func key(_ name: String) throws {
        try run("xdotool", ["key", "--window", windowID, name])
    }

    // MARK: Screenshots

    /// Takes a screenshot of the app window and returns it as an RGB pixel grid.
    func screenshot(name: String) throws -> Screenshot {
        let path = workDir + "/\(name).png"
        try run("import", ["-window", windowID, path])
        return try Screenshot(pngPath: path)
    }
}

/// A screenshot's pixels (read with cairo).
struct Screenshot {
    let width: Int
    let height: Int
    let path: String
    private var pixels: [UInt32]

    init(pngPath: String) throws {
        path = pngPath
        guard let surface = cairo_image_surface_create_from_png(pngPath),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw AppHarness.LaunchError(description: "cannot read \(pngPath)")
        }
        defer { cairo_surface_destroy(surface) }
        cairo_surface_flush(surface)
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        var px = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width { px[y * width + x] = row[x] & 0xFFFFFF }
        }
        pixels = px
    }

    /// RGB at a pixel as (r, g, b) 0…255.
    func rgb(_ x: Int, _ y: Int) -> (Int, Int, Int) {
        let v = pixels[y * width + x]
        return (Int(v >> 16 & 0xFF), Int(v >> 8 & 0xFF), Int(v & 0xFF))
    }

    /// Fraction of pixels within `tolerance` of a colour (per channel), inside a region.
    func fraction(near color: (Int, Int, Int), tolerance: Int = 12,
                  region: (x: Int, y: Int, w: Int, h: Int)? = nil) -> Double {
        let r = region ?? (0, 0, width, height)
        var hit = 0, total = 0
        for y in stride(from: r.y, to: min(height, r.y + r.h), by: 2) {
            for x in stride(from: r.x, to: min(width, r.x + r.w), by: 2) {
                let c = rgb(x, y)
                total += 1
                if abs(c.0 - color.0) <= tolerance && abs(c.1 - color.1) <= tolerance && abs(c.2 - color.2) <= tolerance { hit += 1 }
            }
        }
        return total == 0 ? 0 : Double(hit) / Double(total)
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

    /// Whether the app process is still running.
    var isAppRunning: Bool { app?.isRunning ?? false }

    /// Waits for the app to exit by itself (e.g. after Ctrl+Q).
    func waitForExit(timeout: TimeInterval = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if !isAppRunning { return true }
            usleep(50_000)
        }
        return false
    }
}

// MARK: Accessibility bus (AT-SPI)

/// A private D-Bus session with the AT-SPI bus, so the app can be launched with accessibility on
/// and read through pyatspi (what dogtail and Orca use).
final class AccessibilityBus {
    let address: String
    private let session: PrivateSessionBus
    private let launcher: Process

    /// The Python that has Debian's pyatspi (a pyenv `python3` earlier on PATH may not).
    static var python: String? {
        for p in ["/usr/bin/python3", AppHarness.which("python3")].compactMap({ $0 }) {
            let check = Process()
            check.executableURL = URL(fileURLWithPath: p)
            check.arguments = ["-c", "import pyatspi"]
            check.standardOutput = FileHandle.nullDevice
            check.standardError = FileHandle.nullDevice
            guard (try? check.run()) != nil else { continue }
            check.waitUntilExit()
            if check.terminationStatus == 0 { return p }
        }
        return nil
    }

    static let launcherPath = "/usr/libexec/at-spi-bus-launcher"

    /// Whether dbus-daemon, the AT-SPI bus launcher and pyatspi are installed; in CI their absence
    /// is a failure, not a skip.
    static func requireTools() throws {
        var missing: [String] = []
        if AppHarness.which("dbus-daemon") == nil { missing.append("dbus-daemon") }
        if !FileManager.default.isExecutableFile(atPath: launcherPath) { missing.append("at-spi2-core") }
        if python == nil { missing.append("python3-pyatspi (python3-dogtail)") }
        guard !missing.isEmpty else { return }
        let message = "missing \(missing.joined(separator: ", ")) (scripts/setup.sh test installs them)"
        if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail(message) }
        throw XCTSkip(message)
    }

    init() throws {
        session = try PrivateSessionBus()
        address = session.address
        launcher = Process()
        launcher.executableURL = URL(fileURLWithPath: AccessibilityBus.launcherPath)
        launcher.arguments = ["--launch-immediately"]
        launcher.environment = environment(ProcessInfo.processInfo.environment)
        launcher.standardOutput = FileHandle.nullDevice
        launcher.standardError = FileHandle.nullDevice
        try launcher.run()
    }

    /// `base` with this session bus.
    func environment(_ base: [String: String]) -> [String: String] {
        var env = base
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        env.removeValue(forKey: "NO_AT_BRIDGE")
        env.removeValue(forKey: "GTK_A11Y")
        return env
    }

    /// Runs a Python (pyatspi) script on this bus and returns its standard output.
    func python(_ script: String, display: String, timeout: TimeInterval = 20) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: AccessibilityBus.python ?? "/usr/bin/python3")
        p.arguments = ["-c", script]
        var env = environment(ProcessInfo.processInfo.environment)
        env["DISPLAY"] = display
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let killer = DispatchWorkItem { if p.isRunning { p.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        killer.cancel()
        guard p.terminationStatus == 0 else {
            throw AppHarness.LaunchError(description: "python failed (\(p.terminationStatus)): \(String(decoding: errors, as: UTF8.self).suffix(800))")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Ends the session bus first, so the AT-SPI launcher sees it go and ends its own bus.
    func stop() {
        session.stop()
        let deadline = Date().addingTimeInterval(2)
        while launcher.isRunning && Date() < deadline { usleep(50_000) }
        if launcher.isRunning { launcher.terminate(); launcher.waitUntilExit() }
    }

    deinit { stop() }
}

extension AppHarness {
    /// Launches the app with accessibility on, on `bus`'s session (not GTK_A11Y=none).
    func launch(_ arguments: [String], accessibilityBus bus: AccessibilityBus, timeout: TimeInterval = 30) throws {
        try launch(arguments, environment: bus.environment(ProcessInfo.processInfo.environment), timeout: timeout)
    }
}

/// A D-Bus session bus of our own (dbus-daemon), so each test's app talks to a fresh bus instead
/// of one autolaunched for an earlier X server with the same display number.
final class PrivateSessionBus {
    let address: String
    private let daemon: Process

    init() throws {
        daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: AppHarness.which("dbus-daemon") ?? "/usr/bin/dbus-daemon")
        daemon.arguments = ["--session", "--nofork", "--print-address=1"]
        let out = Pipe()
        daemon.standardOutput = out
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        var text = ""
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline && !text.contains("\n") {
            let d = out.fileHandleForReading.availableData
            if d.isEmpty { break }
            text += String(decoding: d, as: UTF8.self)
        }
        address = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !address.isEmpty else { daemon.terminate(); throw AppHarness.LaunchError(description: "dbus-daemon did not start") }
    }

    func stop() {
        if daemon.isRunning { daemon.terminate(); daemon.waitUntilExit() }
    }

    deinit { stop() }
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

// MARK: Running the program without a display

/// Runs the built `clustermap` as a command-line program (no DISPLAY), capturing its output.
enum ProgramRun {
    struct Result {
        var status: Int32
        var out: String
        var err: String
    }

    static func clustermap(_ args: [String]) throws -> Result {
        guard FileManager.default.isExecutableFile(atPath: AppHarness.binaryPath) else {
            XCTFail("no app binary at \(AppHarness.binaryPath); run `swift build` first (make test does)")
            return Result(status: -1, out: "", err: "")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: AppHarness.binaryPath)
        p.arguments = args
        var e = ProcessInfo.processInfo.environment
        e.removeValue(forKey: "DISPLAY")
        e.removeValue(forKey: "WAYLAND_DISPLAY")
        p.environment = e
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), r = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, out: String(decoding: o, as: UTF8.self),
                      err: String(decoding: r, as: UTF8.self))
    }
}
