import Foundation

/// A tiny MVT writer for tests: builds tiles with exactly the bytes a test wants, including
/// broken ones.
public struct MVTEncoder {
    public struct Feature {
        public var id: UInt64 = 0
        public var type: UInt64
        public var tags: [UInt32]
        public var geometry: [UInt32]

        public init(id: UInt64 = 0, type: UInt64, tags: [UInt32], geometry: [UInt32]) {
            self.id = id; self.type = type; self.tags = tags; self.geometry = geometry
        }
    }

    public struct Layer {
        public var name: String
        public var extent: UInt64 = 4096
        public var keys: [String] = []
        public var values: [Data] = []
        public var features: [Feature] = []

        public init(name: String, extent: UInt64 = 4096, keys: [String] = [], values: [Data] = [], features: [Feature] = []) {
            self.name = name; self.extent = extent; self.keys = keys; self.values = values; self.features = features
        }
    }

    public static func varint(_ v: UInt64) -> Data {
        var v = v
        var out = Data()
        while v >= 0x80 { out.append(UInt8(v & 0x7f) | 0x80); v >>= 7 }
        out.append(UInt8(v))
        return out
    }

    public static func key(_ field: UInt64, _ type: UInt64) -> Data { varint(field << 3 | type) }

    public static func bytesField(_ field: UInt64, _ payload: Data) -> Data {
        key(field, 2) + varint(UInt64(payload.count)) + payload
    }

    public static func zigzag(_ v: Int64) -> UInt32 { UInt32(truncatingIfNeeded: (v << 1) ^ (v >> 63)) }

    public static func command(_ id: UInt32, _ count: UInt32) -> UInt32 { id | count << 3 }

    /// Geometry for a line through points (absolute tile coordinates).
    public static func line(_ points: [(Int64, Int64)]) -> [UInt32] {
        var out: [UInt32] = []
        var cx: Int64 = 0, cy: Int64 = 0
        for (i, p) in points.enumerated() {
            if i == 0 { out.append(command(1, 1)) } else if i == 1 { out.append(command(2, UInt32(points.count - 1))) }
            out.append(zigzag(p.0 - cx)); out.append(zigzag(p.1 - cy))
            cx = p.0; cy = p.1
        }
        return out
    }

    /// Geometry for one polygon ring (closed with ClosePath).
    public static func ring(_ points: [(Int64, Int64)], from start: (Int64, Int64) = (0, 0)) -> [UInt32] {
        var g = line(points)
        // Make the first MoveTo relative to `start` (the cursor after previous rings).
        g[1] = zigzag(points[0].0 - start.0); g[2] = zigzag(points[0].1 - start.1)
        return g + [command(7, 1)]
    }

    public static func stringValue(_ s: String) -> Data { bytesField(1, Data(s.utf8)) }
    public static func intValue(_ i: Int64) -> Data { key(4, 0) + varint(UInt64(bitPattern: i)) }
    public static func sintValue(_ i: Int64) -> Data { key(6, 0) + varint(UInt64(zigzag(i))) }
    public static func doubleValue(_ d: Double) -> Data {
        var bits = d.bitPattern.littleEndian
        return key(3, 1) + Data(bytes: &bits, count: 8)
    }
    public static func floatValue(_ f: Float) -> Data {
        var bits = f.bitPattern.littleEndian
        return key(2, 5) + Data(bytes: &bits, count: 4)
    }
    public static func boolValue(_ b: Bool) -> Data { key(7, 0) + varint(b ? 1 : 0) }

    public static func packed(_ values: [UInt32]) -> Data {
        values.reduce(Data()) { $0 + varint(UInt64($1)) }
    }

    public static func encode(_ layers: [Layer]) -> Data {
        var tile = Data()
        for layer in layers {
            var l = key(15, 0) + varint(2)
            l += bytesField(1, Data(layer.name.utf8))
            for f in layer.features {
                var fd = Data()
                if f.id != 0 { fd += key(1, 0) + varint(f.id) }
                fd += bytesField(2, packed(f.tags))
                fd += key(3, 0) + varint(f.type)
                fd += bytesField(4, packed(f.geometry))
                l += bytesField(2, fd)
            }
            for k in layer.keys { l += bytesField(3, Data(k.utf8)) }
            for v in layer.values { l += bytesField(4, v) }
            l += key(5, 0) + varint(layer.extent)
            tile += bytesField(3, l)
        }
        return tile
    }
}
