import Foundation
import ClusterCore

/// A schema-directed byte scanner for Natural Earth GeoJSON layers.
///
/// Walks the JSON structure (top-level object → `features` → each feature's `geometry`), skipping
/// properties without materialising them, and writes coordinates straight into a `BaseMapLayer`,
/// projected to unit-square Web Mercator with latitudes clamped to ±85.0511°. About 100× faster
/// than `JSONSerialization`. Null geometries and geometry types the layer can't use are skipped
/// and counted.
enum BaseMapScanner {
    struct ParseError: Error, CustomStringConvertible {
        var offset: Int
        var message: String
        var description: String { "\(message) at byte \(offset)" }
    }

    /// Parses a whole GeoJSON FeatureCollection, keeping the named properties of each feature
    /// (numbers and strings; see `BaseMapLayer.number(_:feature:)`).
    static func parse(_ data: Data, kind: BaseMapLayer.Kind, properties: [String] = []) throws -> BaseMapLayer {
        try data.withUnsafeBytes { raw in
            var s = Cursor(bytes: raw.bindMemory(to: UInt8.self), layer: BaseMapLayer(kind: kind))
            s.wantedProperties = Set(properties)
            s.layer.coordinates.reserveCapacity(data.count / 20)
            try s.parseTopLevel()
            return s.layer
        }
    }

    /// Parses from a string (tests).
    static func parse(_ text: String, kind: BaseMapLayer.Kind, properties: [String] = []) throws -> BaseMapLayer {
        try parse(Data(text.utf8), kind: kind, properties: properties)
    }

    struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0
        var layer: BaseMapLayer
        /// Property keys to keep; the values of the feature being read.
        var wantedProperties: Set<String> = []
        var featureValues: [String: BaseMapLayer.Value] = [:]

        init(bytes: UnsafeBufferPointer<UInt8>, layer: BaseMapLayer) {
            self.bytes = bytes
            self.layer = layer
        }

        // MARK: Structure

        mutating func parseTopLevel() throws {
            try expect(UInt8(ascii: "{"))
            try forEachKey { s, key in
                if key == "features" {
                    try s.parseFeatures()
                } else {
                    try s.skipValue()
                }
            }
        }

        mutating func parseFeatures() throws {
            try forEachElement { s in
                guard s.peek() == UInt8(ascii: "{") else { return try s.skipValue() }
                s.i += 1
                s.featureValues.removeAll(keepingCapacity: true)
                let featuresBefore = s.layer.featureCount
                try s.forEachKey { s, key in
                    if key == "geometry" {
                        try s.parseGeometry()
                    } else if key == "properties" && !s.wantedProperties.isEmpty && s.peek() == UInt8(ascii: "{") {
                        try s.parseProperties()
                    } else {
                        try s.skipValue()
                    }
                }
                if s.layer.featureCount > featuresBefore { s.layer.appendValues(s.featureValues) }
            }
        }

        /// Reads the wanted keys of a `properties` object (numbers and strings; others skipped).
        mutating func parseProperties() throws {
            i += 1
            try forEachKey { s, key in
                guard s.wantedProperties.contains(key) else { return try s.skipValue() }
                switch s.peek() {
                case UInt8(ascii: "\""): s.featureValues[key] = .string(try s.readDecodedString())
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): s.featureValues[key] = .number(try s.readNumber())
                default: try s.skipValue()
                }
            }
        }

        mutating func parseGeometry() throws {
            if peek() == UInt8(ascii: "n") {  // null
                try skipValue()
                layer.skippedFeatureCount += 1
                return
            }
            try expect(UInt8(ascii: "{"))
            var type = ""
            var coordinatesStart = -1
            try forEachKey { s, key in
                switch key {
                case "type": type = try s.readString()
                case "coordinates": coordinatesStart = s.i; try s.skipValue()
                default: try s.skipValue()
                }
            }
            let accepted: Bool
            switch layer.kind {
            case .polygons: accepted = type == "Polygon" || type == "MultiPolygon"
            case .lines: accepted = type == "LineString" || type == "MultiLineString"
            case .points: accepted = type == "Point"
            }
            guard accepted, coordinatesStart >= 0 else {
                layer.skippedFeatureCount += 1
                return
            }
            let end = i
            i = coordinatesStart
            var bounds = UnitRect.empty
            let ringsBefore = layer.ringStarts.count
            if layer.kind == .points {
                try parsePoint(&bounds)
            } else {
                try walkCoordinates(&bounds)
            }
            i = end
            if layer.ringStarts.count == ringsBefore {
                layer.skippedFeatureCount += 1  // empty geometry
                return
            }
            layer.featureBounds.append(bounds)
            layer.featureRingStarts.append(Int32(layer.ringStarts.count - 1))
        }

        /// Walks nested coordinate arrays; every array whose elements are positions is one ring.
        mutating func walkCoordinates(_ bounds: inout UnitRect) throws {
            try expect(UInt8(ascii: "["))
            skipWhitespace()
            if peek() == UInt8(ascii: "]") { i += 1; return }
            guard peek() == UInt8(ascii: "[") else { throw error("expected a coordinate array") }
            // Look past the inner '[': a number means our elements are positions.
            var j = i + 1
            while j < bytes.count, isWhitespace(bytes[j]) { j += 1 }
            if j < bytes.count, bytes[j] != UInt8(ascii: "[") {
                try parseRing(&bounds)
            } else {
                while true {
                    try walkCoordinates(&bounds)
                    skipWhitespace()
                    let c = peek()
                    i += 1
                    if c == UInt8(ascii: "]") { return }
                    if c != UInt8(ascii: ",") { throw error("expected ',' or ']'", at: i - 1) }
                    skipWhitespace()
                }
            }
        }

        /// Reads one `[lon, lat]` position (an altitude, if any, is skipped).
        @inline(__always) mutating func readPosition() throws -> (lon: Double, lat: Double) {
            try expect(UInt8(ascii: "["))
            let lon = try readNumber()
            try expect(UInt8(ascii: ","))
            let lat = try readNumber()
            skipWhitespace()
            while peek() == UInt8(ascii: ",") { i += 1; _ = try readNumber(); skipWhitespace() }  // altitude
            try expect(UInt8(ascii: "]"))
            return (lon, lat)
        }

        /// Parses a Point's single position as a one-vertex ring.
        mutating func parsePoint(_ bounds: inout UnitRect) throws {
            let (lon, lat) = try readPosition()
            guard lon.isFinite && lat.isFinite else { return }
            appendVertex(lon: lon, lat: lat, &bounds)
            layer.ringStarts.append(Int32(layer.coordinates.count / 2))
        }

        @inline(__always) mutating func appendVertex(lon: Double, lat: Double, _ bounds: inout UnitRect) {
            let x = min(1, max(0, lon / 360 + 0.5))  // a few vertices sit a hair past ±180°
            let y = WebMercator.y(latitude: min(WebMercator.maxLatitude, max(-WebMercator.maxLatitude, lat)))
            layer.coordinates.append(x)
            layer.coordinates.append(y)
            bounds.include(x: x, y: y)
        }

        /// Parses the positions of one ring (the opening '[' already consumed).
        mutating func parseRing(_ bounds: inout UnitRect) throws {
            let start = layer.coordinates.count / 2
            while true {
                let (lon, lat) = try readPosition()
                if lon.isFinite && lat.isFinite { appendVertex(lon: lon, lat: lat, &bounds) }
                skipWhitespace()
                let c = peek()
                i += 1
                if c == UInt8(ascii: "]") { break }
                if c != UInt8(ascii: ",") { throw error("expected ',' or ']' in a ring", at: i - 1) }
                skipWhitespace()
            }
            let count = layer.coordinates.count / 2 - start
            let minimum = layer.kind == .polygons ? 3 : 2
            if count < minimum {
                layer.coordinates.removeLast(count * 2)
            } else {
                layer.ringStarts.append(Int32(start + count))
            }
        }

        // MARK: Generic JSON

        /// Calls `body` for each key of an object whose '{' was consumed; `body` must consume the value.
        mutating func forEachKey(_ body: (inout Cursor, String) throws -> Void) throws {
            skipWhitespace()
            if peek() == UInt8(ascii: "}") { i += 1; return }
            while true {
                skipWhitespace()
                let key = try readString()
                try expect(UInt8(ascii: ":"))
                skipWhitespace()
                try body(&self, key)
                skipWhitespace()
                let c = peek()
                i += 1
                if c == UInt8(ascii: "}") { return }
                if c != UInt8(ascii: ",") { throw error("expected ',' or '}'", at: i - 1) }
            }
        }

        /// Calls `body` for each element of an array (at '['); `body` must consume the element.
        mutating func forEachElement(_ body: (inout Cursor) throws -> Void) throws {
            try expect(UInt8(ascii: "["))
            skipWhitespace()
            if peek() == UInt8(ascii: "]") { i += 1; return }
            while true {
                skipWhitespace()
                try body(&self)
                skipWhitespace()
                let c = peek()
                i += 1
                if c == UInt8(ascii: "]") { return }
                if c != UInt8(ascii: ",") { throw error("expected ',' or ']'", at: i - 1) }
            }
        }

        /// Skips any JSON value.
        mutating func skipValue() throws {
            skipWhitespace()
            guard i < bytes.count else { throw error("unexpected end of file") }
            switch bytes[i] {
            case UInt8(ascii: "\""):
                try skipString()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while i < bytes.count {
                    let c = bytes[i]
                    if c == UInt8(ascii: "\"") { try skipString(); continue }
                    if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") { depth += 1 }
                    else if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") {
                        depth -= 1
                        if depth == 0 { i += 1; return }
                    }
                    i += 1
                }
                throw error("unterminated object or array")
            default:
                // number, true, false, null
                let start = i
                while i < bytes.count {
                    let c = bytes[i]
                    if c == UInt8(ascii: ",") || c == UInt8(ascii: "}") || c == UInt8(ascii: "]") || isWhitespace(c) { break }
                    i += 1
                }
                if i == start { throw error("expected a value") }
            }
        }

        mutating func skipString() throws {
            i += 1
            while i < bytes.count {
                let c = bytes[i]
                if c == UInt8(ascii: "\\") { i += 2; continue }
                i += 1
                if c == UInt8(ascii: "\"") { return }
            }
            throw error("unterminated string")
        }

        /// Reads a string (escapes kept verbatim; only keys and type names are read).
        mutating func readString() throws -> String {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw error("expected a string") }
            let start = i + 1
            try skipString()
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start ..< i - 1]), as: UTF8.self)
        }

        /// Reads a string value with its escapes decoded (`\\n`, `\\u00e9`, surrogate pairs).
        mutating func readDecodedString() throws -> String {
            let raw = try readString()
            guard raw.utf8.contains(UInt8(ascii: "\\")) else { return raw }
            var out = String.UnicodeScalarView()
            var it = raw.unicodeScalars.makeIterator()
            var pendingHigh: UInt32?
            func hex4(_ it: inout String.UnicodeScalarView.Iterator) -> UInt32? {
                var v: UInt32 = 0
                for _ in 0..<4 {
                    guard let c = it.next(), let d = UInt32(String(c), radix: 16) else { return nil }
                    v = v << 4 | d
                }
                return v
            }
            while let c = it.next() {
                guard c == "\\", let e = it.next() else { out.append(c); continue }
                switch e {
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "r": out.append("\r")
                case "b", "f": out.append(" ")
                case "u":
                    guard let v = hex4(&it) else { out.append("\u{FFFD}"); continue }
                    if (0xD800..<0xDC00).contains(v) { pendingHigh = v; continue }
                    if (0xDC00..<0xE000).contains(v), let high = pendingHigh {
                        pendingHigh = nil
                        out.append(Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (v - 0xDC00)) ?? "\u{FFFD}")
                        continue
                    }
                    out.append(Unicode.Scalar(v) ?? "\u{FFFD}")
                default: out.append(e)  // \" \\ \/
                }
            }
            return String(out)
        }

        /// Reads a JSON number without allocating.
        mutating func readNumber() throws -> Double {
            skipWhitespace()
            let start = i
            var negative = false
            if peek() == UInt8(ascii: "-") { negative = true; i += 1 }
            var mantissa: UInt64 = 0
            var digits = 0
            var exponent = 0
            while i < bytes.count, bytes[i] &- 48 < 10 {
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 48); digits += 1 } else { exponent += 1 }
                i += 1
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                i += 1
                while i < bytes.count, bytes[i] &- 48 < 10 {
                    if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 48); digits += 1; exponent -= 1 }
                    i += 1
                }
            }
            if i < bytes.count, bytes[i] | 0x20 == UInt8(ascii: "e") {
                i += 1
                var expNegative = false
                if peek() == UInt8(ascii: "-") { expNegative = true; i += 1 } else if peek() == UInt8(ascii: "+") { i += 1 }
                var e = 0
                while i < bytes.count, bytes[i] &- 48 < 10 { e = min(e * 10 + Int(bytes[i] &- 48), 10_000); i += 1 }
                exponent += expNegative ? -e : e
            }
            if i == start || (negative && i == start + 1) { throw error("expected a number", at: start) }
            var value = Double(mantissa)
            if exponent < 0 {
                value /= exponent >= -22 ? Cursor.powersOfTen[-exponent] : pow(10, Double(-exponent))
            } else if exponent > 0 {
                value *= exponent <= 22 ? Cursor.powersOfTen[exponent] : pow(10, Double(exponent))
            }
            return negative ? -value : value
        }

        static let powersOfTen: [Double] = (0...22).map { pow(10, Double($0)) }

        // MARK: Bytes

        @inline(__always) func peek() -> UInt8 { i < bytes.count ? bytes[i] : 0 }

        @inline(__always) func isWhitespace(_ c: UInt8) -> Bool {
            c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09
        }

        @inline(__always) mutating func skipWhitespace() {
            while i < bytes.count, isWhitespace(bytes[i]) { i += 1 }
        }

        mutating func expect(_ c: UInt8) throws {
            skipWhitespace()
            guard peek() == c else { throw error("expected '\(Character(Unicode.Scalar(c)))'") }
            i += 1
        }

        func error(_ message: String, at offset: Int? = nil) -> ParseError {
            ParseError(offset: offset ?? i, message: message)
        }
    }
}
