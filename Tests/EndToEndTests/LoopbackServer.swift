import Foundation

/// A test server (a Python script in test support) listening on loopback at a port the OS chose,
/// which the script prints as its first line.
final class LoopbackServer {
    let process = Process()
    let port: Int

    init(script: String, arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        var line = Data()
        while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line.append(byte)
        }
        guard let p = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw CocoaError(.fileReadCorruptFile)
        }
        port = p
    }

    func stop() { process.terminate(); process.waitUntilExit() }
}
