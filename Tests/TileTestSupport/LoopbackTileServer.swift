import Foundation
import XCTest

/// Runs `Tests/TilesTests/Support/tile_server.py` on 127.0.0.1 for one test and reads its statistics.
public final class LoopbackTileServer {
    public let process = Process()
    public let port: Int
    public let statsPath = FileManager.default.temporaryDirectory.appendingPathComponent("tile-server-\(UUID().uuidString).json").path

    public struct Stats: Decodable {
        public var count: Int
        public var max_in_flight: Int
        public var user_agents: [String]
        public var paths: [String]
    }

    public init() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("TilesTests/Support/tile_server.py")
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

    /// The User-Agent the online-tile tests send (and check the server saw).
    public static let userAgent = "ClusterMap/0.9 (+https://github.com/clustermap/clustermap)"

    public var base: String { "http://127.0.0.1:\(port)" }

    /// The server's counters after the last finished request (zeros before any).
    public func stats() -> Stats {
        guard let data = FileManager.default.contents(atPath: statsPath),
              let s = try? JSONDecoder().decode(Stats.self, from: data) else {
            return Stats(count: 0, max_in_flight: 0, user_agents: [], paths: [])
        }
        return s
    }

    /// The counters once the server has written `requests` finished requests (or after `timeout`):
    /// the server saves them after the reply went out, so a client can hold its answer first.
    public func stats(afterRequests requests: Int, timeout: TimeInterval = 5) -> Stats {
        let end = Date().addingTimeInterval(timeout)
        var s = stats()
        while s.count < requests && Date() < end {
            usleep(10_000)
            s = stats()
        }
        return s
    }
}
