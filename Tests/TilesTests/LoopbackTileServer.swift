import Foundation
import XCTest

/// Runs `Support/tile_server.py` on 127.0.0.1 for one test and reads its statistics.
final class LoopbackTileServer {
    let process = Process()
    let port: Int
    let statsPath = FileManager.default.temporaryDirectory.appendingPathComponent("tile-server-\(UUID().uuidString).json").path

    struct Stats: Decodable {
        var count: Int
        var max_in_flight: Int
        var user_agents: [String]
        var paths: [String]
    }

    init() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Support/tile_server.py")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, statsPath]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        // The first line is the port.
        var line = Data()
        while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line += byte
        }
        guard let p = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw CocoaError(.fileReadCorruptFile)
        }
        port = p
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: statsPath)
    }

    var base: String { "http://127.0.0.1:\(port)" }

    /// The server's counters after the last finished request (zeros before any).
    func stats() -> Stats {
        guard let data = FileManager.default.contents(atPath: statsPath),
              let s = try? JSONDecoder().decode(Stats.self, from: data) else {
            return Stats(count: 0, max_in_flight: 0, user_agents: [], paths: [])
        }
        return s
    }
}
