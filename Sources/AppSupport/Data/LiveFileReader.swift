import Foundation
import GeoData

/// Reads a watched file again for a live update. A newline-delimited GeoJSON line that is not
/// valid JSON (a line caught half-written, or broken) is skipped and counted like a bad CSV row
/// (SPEC §4), instead of failing the whole file: the reader is run again with that line blanked
/// (byte positions kept), up to `maxBadLines` times.
public enum LiveFileReader {
    public static let maxBadLines = 1000

    /// The points, and the 1-based numbers of the lines skipped with the reason of the first.
    public static func load(path: String, options: LoadOptions) throws -> (set: PointSet, badLines: [Int], firstReason: String?) {
        // GeoPackage, Shapefile… are read from the file by GDAL (no lines to skip).
        if GDALFormats.readsThroughGDAL(path) { return (try PointSetLoader.load(path: path, options: options), [], nil) }
        let name = PointSetLoader.displayName(of: path)
        guard var bytes = FileManager.default.contents(atPath: path).map({ [UInt8]($0) }) else {
            return (try PointSetLoader.load(path: path, options: options), [], nil)
        }
        let lineDelimited = isLineDelimitedGeoJSON(bytes)
        var bad: [Int] = []
        var reason: String?
        while true {
            do {
                return (try PointSetLoader.load(bytes: bytes, name: name, options: options), bad, reason)
            } catch let e as GeoDataError where lineDelimited && e.kind == .syntax && bad.count < maxBadLines {
                guard let offset = e.byteOffset, offset <= bytes.count else { throw e }
                var start = min(offset, bytes.count - 1), end = start
                while start > 0 && bytes[start - 1] != 10 { start -= 1 }
                while end < bytes.count && bytes[end] != 10 { end += 1 }
                guard start < end, bytes[start..<end].contains(where: { $0 != 32 }) else { throw e }
                for i in start..<end { bytes[i] = 32 }
                bad.append(e.line ?? 0)
                if reason == nil { reason = e.message }
            }
        }
    }

    /// Whether the first non-blank line is one whole GeoJSON Feature (newline-delimited GeoJSON).
    static func isLineDelimitedGeoJSON(_ bytes: [UInt8]) -> Bool {
        var i = 0
        while i < bytes.count && (bytes[i] == 10 || bytes[i] == 13 || bytes[i] == 32 || bytes[i] == 9 || bytes[i] == 0x1E) { i += 1 }
        var end = i
        while end < bytes.count && bytes[end] != 10 { end += 1 }
        let line = String(decoding: bytes[i..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return line.hasPrefix("{") && line.hasSuffix("}") && line.contains("\"Feature\"")
    }
}
