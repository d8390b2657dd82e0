import Foundation
import XCTest

/// Cluster tile files read back with PyPI's `pmtiles` and `mapbox-vector-tile`
/// (`Tests/TilesTests/Support/decode_cluster_tiles.py`, in the venv `scripts/tile-check-venv.sh` makes),
/// independent of ClusterMap's own tile readers.
enum TileDecode {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private static func run(_ args: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = args
        p.currentDirectoryURL = root
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw NSError(domain: "TileDecode", code: Int(p.terminationStatus)) }
        return String(decoding: data, as: UTF8.self)
    }

    /// The decoder's lines: the first holds the metadata, then one per feature (z, x, y, id, properties).
    static func lines(_ path: String) throws -> [[String: Any]] {
        let python = try run(["bash", "scripts/tile-check-venv.sh"]).trimmingCharacters(in: .whitespacesAndNewlines)
        return try run([python, "Tests/TilesTests/Support/decode_cluster_tiles.py", path]).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
    }

    /// Every feature inside its tile, with `zoom` and `properties`.
    static func features(_ path: String) throws -> [[String: Any]] {
        try lines(path).dropFirst().map { l in ["zoom": l["z"] as? Int ?? -1, "properties": l["properties"] ?? [:]] }
    }

    /// The `clusters` layer's fields and their types from the metadata.
    static func fields(_ path: String) throws -> [String: String] {
        let meta = try lines(path).first?["metadata"] as? [String: Any]
        let layers = meta?["vector_layers"] as? [[String: Any]] ?? []
        return layers.first?["fields"] as? [String: String] ?? [:]
    }
}
