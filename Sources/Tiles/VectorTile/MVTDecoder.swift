import Foundation

/// Decodes Mapbox Vector Tiles (protobuf) into `VectorTile`s.
///
/// Hardened for untrusted files: every length, count and coordinate is checked against what is
/// left of the input, and anything malformed — a truncated varint, an unknown geometry command, a
/// count larger than the bytes that could hold it, a coordinate overflow — throws `MVTError`, so the
/// caller skips the tile. Nothing traps.
public enum MVTDecoder {
    /// What was wrong with a tile.
    public enum MVTError: Error, Equatable {
        case malformed(String)
        case badGeometry(String)
    }

    /// Geometry command ids (MVT spec 4.3).
    private static let moveTo: UInt32 = 1, lineTo: UInt32 = 2, closePath: UInt32 = 7

    /// Decodes a tile (already gunzipped). `layers`, when given, limits decoding to those layer names
    /// (the others are skipped without parsing their features), which is how the painter avoids
    /// paying for `poi` or `housenumber` layers it does not draw.
    public static func decode(_ data: Data, layers wanted: Set<String>? = nil) throws -> VectorTile {
        try data.withUnsafeBytes { try decode(bytes: $0, layers: wanted) }
    }

    /// Decodes a tile from raw bytes (see `decode(_:layers:)`).
    public static func decode(bytes: UnsafeRawBufferPointer, layers wanted: Set<String>? = nil) throws -> VectorTile {
        var reader = ProtobufReader(bytes)
        var layers: [VectorTileLayer] = []
        do {
            while !reader.isAtEnd {
                let (field, type) = try reader.key()
                if field == 3 && type == .lengthDelimited {
                    let range = try reader.lengthDelimited()
                    if let layer = try decodeLayer(bytes, range: range, wanted: wanted) { layers.append(layer) }
                } else {
                    try reader.skip(type)
                }
            }
        } catch let e as ProtobufReader.ReadError {
            throw MVTError.malformed("\(e)")
        }
        return VectorTile(layers: layers)
    }

    private static func decodeLayer(_ bytes: UnsafeRawBufferPointer, range: Range<Int>,
                                    wanted: Set<String>?) throws -> VectorTileLayer? {
        // First pass: name only, so unwanted layers cost one scan of their keys.
        var reader = ProtobufReader(bytes, range: range)
        var name: String?
        var extent = 4096
        var featureRanges: [Range<Int>] = []
        var keys: [String] = []
        var values: [VectorTileValue] = []
        while !reader.isAtEnd {
            let (field, type) = try reader.key()
            switch (field, type) {
            case (1, .lengthDelimited):
                name = reader.string(try reader.lengthDelimited())
                if let wanted, let name, !wanted.contains(name) { return nil }
            case (2, .lengthDelimited): featureRanges.append(try reader.lengthDelimited())
            case (3, .lengthDelimited): keys.append(reader.string(try reader.lengthDelimited()))
            case (4, .lengthDelimited): values.append(try decodeValue(bytes, range: try reader.lengthDelimited()))
            case (5, .varint):
                let e = try reader.varint()
                guard e > 0, e <= 1 << 20 else { throw MVTError.malformed("layer extent \(e)") }
                extent = Int(e)
            default: try reader.skip(type)
            }
        }
        guard let name else { throw MVTError.malformed("layer without a name") }
        // The features' tags, points and parts go into one buffer each for the whole layer; the
        // features get slices of three arrays made once at the end. The layer's bytes bound what
        // they can hold: a tag or a coordinate takes at least a byte, a part at least two.
        var scratch = FeatureScratch(capacity: range.count)
        defer { scratch.free() }
        var records: [FeatureRecord] = []
        records.reserveCapacity(featureRanges.count)
        for r in featureRanges { records.append(try decodeFeature(bytes, range: r, scratch: &scratch)) }
        let tags = scratch.tags.array(of: UInt32.self)
        let points = scratch.points.array(of: Int32.self)
        let parts = scratch.parts.array(of: Int32.self)
        var features: [VectorTileFeature] = []
        features.reserveCapacity(records.count)
        for r in records {
            features.append(VectorTileFeature(id: r.id, type: r.type, tags: tags[r.tags], points: points[r.points],
                                              parts: parts[r.parts]))
        }
        return VectorTileLayer(name: name, extent: extent, keys: keys, values: values, features: features)
    }

    private static func decodeValue(_ bytes: UnsafeRawBufferPointer, range: Range<Int>) throws -> VectorTileValue {
        var reader = ProtobufReader(bytes, range: range)
        var value = VectorTileValue.string("")
        while !reader.isAtEnd {
            let (field, type) = try reader.key()
            switch (field, type) {
            case (1, .lengthDelimited): value = .string(reader.string(try reader.lengthDelimited()))
            case (2, .fixed32): value = .double(Double(Float(bitPattern: try reader.fixed32())))
            case (3, .fixed64): value = .double(Double(bitPattern: try reader.fixed64()))
            case (4, .varint): value = .int(Int64(bitPattern: try reader.varint()))
            case (5, .varint):
                let u = try reader.varint()
                value = u <= UInt64(Int64.max) ? .int(Int64(u)) : .double(Double(u))
            case (6, .varint): value = .int(ProtobufReader.zigzag(try reader.varint()))
            case (7, .varint): value = .bool(try reader.varint() != 0)
            default: try reader.skip(type)
            }
        }
        return value
    }

    /// A decoded feature before its arrays exist: its ranges in the layer's buffers.
    private struct FeatureRecord {
        var id: UInt64 = 0
        var type = VectorTileFeature.GeometryType.unknown
        var tags = 0..<0
        var points = 0..<0
        var parts = 0..<0
    }

    /// The buffers a layer's features are decoded into, end to end. Raw buffers, not arrays: an
    /// array's `append` was a third of the decoder's work. A struct passed `inout` (a class's
    /// stored properties pay a run-time exclusivity check on every access); `free()` releases
    /// the memory.
    private struct FeatureScratch {
        var tags: Buffer
        var points: Buffer
        var parts: Buffer

        /// Buffers for a layer of `bytes` bytes (they grow if a count ever needs more).
        init(capacity bytes: Int) {
            tags = Buffer(capacity: bytes + 1)
            points = Buffer(capacity: bytes + 1)
            parts = Buffer(capacity: bytes / 2 + 1)
        }

        /// Growable storage of 32-bit values.
        struct Buffer {
            var base: UnsafeMutablePointer<UInt32>
            var capacity: Int
            var count = 0

            init(capacity: Int) {
                base = .allocate(capacity: capacity)
                self.capacity = capacity
            }

            /// Makes room for `n` more values.
            @inline(__always)
            mutating func reserve(_ n: Int) {
                if count + n > capacity { grow(count + n) }
            }

            mutating func grow(_ needed: Int) {
                let c = max(needed, capacity * 2)
                let b = UnsafeMutablePointer<UInt32>.allocate(capacity: c)
                b.moveInitialize(from: base, count: count)
                base.deallocate()
                base = b
                capacity = c
            }

            /// The values as a new array of exactly `count` elements.
            func array<T>(of _: T.Type) -> [T] {
                UnsafeRawPointer(base).withMemoryRebound(to: T.self, capacity: count) { Array(UnsafeBufferPointer(start: $0, count: count)) }
            }
        }

        func free() {
            tags.base.deallocate()
            points.base.deallocate()
            parts.base.deallocate()
        }
    }

    private static func decodeFeature(_ bytes: UnsafeRawBufferPointer, range: Range<Int>,
                                      scratch: inout FeatureScratch) throws -> FeatureRecord {
        var reader = ProtobufReader(bytes, range: range)
        var feature = FeatureRecord()
        var geometry: Range<Int>?
        let tagStart = scratch.tags.count
        while !reader.isAtEnd {
            let (field, type) = try reader.key()
            switch (field, type) {
            case (1, .varint): feature.id = try reader.varint()
            case (2, .lengthDelimited):
                let r = try reader.lengthDelimited()
                var packed = ProtobufReader(bytes, range: r)
                // At most one value per byte.
                scratch.tags.reserve(r.count)
                while !packed.isAtEnd {
                    let v = try packed.varint()
                    guard v <= UInt64(UInt32.max) else { throw MVTError.malformed("tag index \(v)") }
                    scratch.tags.base[scratch.tags.count] = UInt32(v)
                    scratch.tags.count += 1
                }
            case (3, .varint):
                let t = try reader.varint()
                feature.type = t <= 3 ? VectorTileFeature.GeometryType(rawValue: UInt8(t))! : .unknown
            case (4, .lengthDelimited): geometry = try reader.lengthDelimited()
            default: try reader.skip(type)
            }
        }
        guard (scratch.tags.count - tagStart) % 2 == 0 else { throw MVTError.malformed("odd number of tags") }
        feature.tags = tagStart..<scratch.tags.count
        feature.points = scratch.points.count..<scratch.points.count
        feature.parts = scratch.parts.count..<scratch.parts.count
        if let geometry { try decodeGeometry(bytes, range: geometry, into: &feature, scratch: &scratch) }
        return feature
    }

    private static func decodeGeometry(_ bytes: UnsafeRawBufferPointer, range: Range<Int>,
                                       into feature: inout FeatureRecord, scratch: inout FeatureScratch) throws {
        var reader = ProtobufReader(bytes, range: range)
        var x: Int64 = 0, y: Int64 = 0
        // Every point takes two varints of at least a byte each, so a point per two bytes (its two
        // values in `points`, perhaps a part start in `parts`) is all the room the geometry can need.
        scratch.points.reserve(range.count)
        scratch.parts.reserve(range.count / 2)
        let pointStart = scratch.points.count, partStart = scratch.parts.count
        let points = scratch.points.base + pointStart, parts = scratch.parts.base + partStart
        var pointCount = 0, partCount = 0
        var inPart = false
        while !reader.isAtEnd {
            let command = try reader.varint()
            let id = UInt32(truncatingIfNeeded: command & 7)
            let count = command >> 3
            switch id {
            case moveTo, lineTo:
                // Each point needs two varints of at least one byte each: a bigger count is a lie.
                guard count > 0, count <= UInt64((reader.end - reader.position) / 2) else {
                    throw MVTError.badGeometry("command count \(count) exceeds the remaining bytes")
                }
                if id == lineTo && !inPart { throw MVTError.badGeometry("LineTo before MoveTo") }
                for _ in 0..<Int(count) {
                    x += ProtobufReader.zigzag(try reader.varint())
                    y += ProtobufReader.zigzag(try reader.varint())
                    guard x >= Int64(Int32.min), x <= Int64(Int32.max), y >= Int64(Int32.min), y <= Int64(Int32.max) else {
                        throw MVTError.badGeometry("coordinate out of range")
                    }
                    if id == moveTo {
                        // Each MoveTo point starts a part (a point of a multipoint, a line, a ring),
                        // counted from the feature's first point.
                        parts[partCount] = UInt32(truncatingIfNeeded: pointCount)
                        partCount += 1
                        inPart = true
                    }
                    points[2 * pointCount] = UInt32(truncatingIfNeeded: Int32(x))
                    points[2 * pointCount + 1] = UInt32(truncatingIfNeeded: Int32(y))
                    pointCount += 1
                }
            case closePath:
                guard count == 1, inPart else { throw MVTError.badGeometry("ClosePath count \(count)") }
            default:
                throw MVTError.badGeometry("unknown command \(id)")
            }
        }
        scratch.points.count = pointStart + 2 * pointCount
        scratch.parts.count = partStart + partCount
        feature.points = pointStart..<scratch.points.count
        feature.parts = partStart..<scratch.parts.count
    }
}
