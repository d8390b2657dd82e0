import Foundation
import XCTest

/// Files for the GDAL reader tests, made at test time with `ogr2ogr` (gdal-bin) from GeoJSON the
/// tests write, in a scratch folder removed afterwards.
final class GDALFixtures {
    let dir: String

    init() {
        dir = NSTemporaryDirectory() + "clustermap-gdal-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: dir) }

    /// Writes `text` to `name` in the folder; returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) -> String {
        let path = dir + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    func path(_ name: String) -> String { dir + "/" + name }

    /// Runs a program (`ogr2ogr`, `zip`), throwing with its error output when it fails.
    func run(_ program: String, _ args: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [program] + args
        p.currentDirectoryURL = URL(fileURLWithPath: dir)
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        if p.terminationStatus != 0 {
            throw NSError(domain: "GDALFixtures", code: Int(p.terminationStatus),
                          userInfo: [NSLocalizedDescriptionKey: "\(program) \(args.joined(separator: " ")): \(text)"])
        }
    }

    /// `ogr2ogr -f DRIVER out in [extra…]`; returns the output's path.
    @discardableResult
    func convert(_ input: String, to output: String, driver: String, _ extra: [String] = []) throws -> String {
        try run("ogr2ogr", ["-f", driver] + extra + [path(output), input])
        return path(output)
    }

    /// Places with typed properties around London (our own data, written here).
    static let places: [(lon: Double, lat: Double, name: String, count: Int, score: Double, day: String, when: String)] = [
        (-0.1275, 51.5072, "Trafalgar", 12, 4.5, "2024-03-01", "2024-03-01T12:30:00Z"),
        (-0.0754, 51.5055, "Tower Bridge", 7, 3.25, "2023-12-31", "2023-12-31T23:59:59Z"),
        (-0.1419, 51.5014, "Buckingham", 0, -1.5, "1999-01-01", "1999-01-01T00:00:00Z"),
        (-0.1246, 51.5007, "Westminster", 1_000_000, 0.125, "2000-02-29", "2000-02-29T06:15:00Z"),
        (-0.0983, 51.5138, "St Paul's", -3, 9.875, "1970-01-01", "1970-01-01T00:00:01Z"),
    ]

    /// `places` as a GeoJSON FeatureCollection of Points.
    static var placesGeoJSON: String {
        let features = places.map { p in
            "{\"type\":\"Feature\",\"properties\":{\"name\":\"\(p.name)\",\"count\":\(p.count),\"score\":\(p.score),"
                + "\"day\":\"\(p.day)\",\"when\":\"\(p.when)\"},"
                + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(p.lon),\(p.lat)]}}"
        }
        return "{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}"
    }
}
