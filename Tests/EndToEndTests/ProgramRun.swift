import XCTest
import Foundation

// MARK: Running the program without a display

/// Runs the built `clustermap` as a command-line program (no DISPLAY), capturing its output.
enum ProgramRun {
    struct Result {
        var status: Int32
        var out: String
        var err: String
    }

    static func clustermap(_ args: [String], environment extra: [String: String] = [:]) throws -> Result {
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
        e.merge(extra) { _, new in new }
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
