import XCTest
import Foundation

// MARK: Accessibility bus (AT-SPI)

/// A private D-Bus session with the AT-SPI bus, so the app can be launched with accessibility on
/// and read through pyatspi (what dogtail and Orca use).
final class AccessibilityBus {
    let address: String
    private let session: PrivateSessionBus
    private let launcher: Process
    /// The bus's own runtime folder: the launcher puts its socket under `$XDG_RUNTIME_DIR/at-spi`
    /// (else the shared `~/.cache/at-spi/bus`), so two test runs at once — or two helpers — each
    /// have their own and one's stop can't take the other's socket away.
    private let runtimeDirectory: String

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
        runtimeDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("a11y-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: runtimeDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        launcher = Process()
        launcher.executableURL = URL(fileURLWithPath: AccessibilityBus.launcherPath)
        launcher.arguments = ["--launch-immediately"]
        launcher.environment = environment(ProcessInfo.processInfo.environment)
        launcher.standardOutput = FileHandle.nullDevice
        launcher.standardError = FileHandle.nullDevice
        try launcher.run()
        try waitUntilAnswering()
    }

    /// Waits until the launcher answers `org.a11y.Bus.GetAddress` with its bus's address. Why: the
    /// launcher claims its name and starts the accessibility bus asynchronously; on a loaded machine
    /// an app or probe started before that finds no bus ("Couldn't connect to accessibility bus")
    /// and the test fails for a reason that is not the app's.
    private func waitUntilAnswering(timeout: TimeInterval = 30) throws {
        var last = ""
        var answered = false
        try AppHarness.poll(timeout: timeout) {
            guard launcher.isRunning else { return true }  // gone: reported below
            let p = Process()
            p.executableURL = URL(fileURLWithPath: AppHarness.which("dbus-send") ?? "/usr/bin/dbus-send")
            p.arguments = ["--session", "--print-reply", "--reply-timeout=2000", "--dest=org.a11y.Bus",
                           "/org/a11y/bus", "org.a11y.Bus.GetAddress"]
            p.environment = environment(ProcessInfo.processInfo.environment)
            let out = Pipe()
            p.standardOutput = out
            p.standardError = out
            try p.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            last = String(decoding: data, as: UTF8.self)
            answered = p.terminationStatus == 0 && last.contains("unix:")
            return answered
        }
        if answered { return }
        stop()
        throw AppHarness.LaunchError(description: "the AT-SPI bus launcher did not answer within \(Int(timeout)) s (running: \(launcher.isRunning)): \(last.suffix(300))")
    }

    /// `base` with this session bus.
    func environment(_ base: [String: String]) -> [String: String] {
        var env = base
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        env["XDG_RUNTIME_DIR"] = runtimeDirectory
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
        AppHarness.poll(timeout: 2) { !launcher.isRunning }
        if launcher.isRunning { launcher.terminate(); launcher.waitUntilExit() }
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
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
