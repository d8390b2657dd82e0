/// A minimal protobuf wire-format reader over borrowed bytes: varints, fixed 32/64, and
/// length-delimited fields. Every read is bounds-checked and throws instead of trapping.
///
/// Hand-written rather than generated because MVT uses a handful of fields, and reading straight
/// into the tile model avoids building (and freeing) a generic message tree first.
struct ProtobufReader {
    enum WireType: UInt64 {
        case varint = 0, fixed64 = 1, lengthDelimited = 2, fixed32 = 5
    }

    enum ReadError: Error, Equatable {
        case truncated, overlongVarint, badWireType(UInt64), lengthOutOfRange
    }

    let bytes: UnsafeRawBufferPointer
    private(set) var position: Int
    let end: Int

    init(_ bytes: UnsafeRawBufferPointer, range: Range<Int>? = nil) {
        self.bytes = bytes
        position = range?.lowerBound ?? 0
        end = range?.upperBound ?? bytes.count
    }

    var isAtEnd: Bool { position >= end }

    @inline(__always)
    mutating func varint() throws -> UInt64 {
        // Fast path: one byte.
        guard position < end else { throw ReadError.truncated }
        let first = bytes[position]
        position += 1
        if first < 0x80 { return UInt64(first) }
        var result = UInt64(first & 0x7f)
        var shift: UInt64 = 7
        while true {
            guard position < end else { throw ReadError.truncated }
            let b = bytes[position]
            position += 1
            result |= UInt64(b & 0x7f) << shift
            if b < 0x80 { return result }
            shift += 7
            guard shift < 70 else { throw ReadError.overlongVarint }
        }
    }

    /// A field key: (field number, wire type).
    mutating func key() throws -> (field: UInt64, type: WireType) {
        let k = try varint()
        guard let t = WireType(rawValue: k & 7) else { throw ReadError.badWireType(k & 7) }
        return (k >> 3, t)
    }

    /// The byte range of a length-delimited field's payload; advances past it.
    mutating func lengthDelimited() throws -> Range<Int> {
        let n = try varint()
        guard n <= UInt64(end - position) else { throw ReadError.lengthOutOfRange }
        let start = position
        position += Int(n)
        return start..<position
    }

    mutating func fixed32() throws -> UInt32 {
        guard end - position >= 4 else { throw ReadError.truncated }
        var v: UInt32 = 0
        for i in 0..<4 { v |= UInt32(bytes[position + i]) << UInt32(8 * i) }
        position += 4
        return v
    }

    mutating func fixed64() throws -> UInt64 {
        guard end - position >= 8 else { throw ReadError.truncated }
        var v: UInt64 = 0
        for i in 0..<8 { v |= UInt64(bytes[position + i]) << UInt64(8 * i) }
        position += 8
        return v
    }

    /// Skips a field of the given wire type.
    mutating func skip(_ type: WireType) throws {
        switch type {
        case .varint: _ = try varint()
        case .fixed64: guard end - position >= 8 else { throw ReadError.truncated }; position += 8
        case .fixed32: guard end - position >= 4 else { throw ReadError.truncated }; position += 4
        case .lengthDelimited: _ = try lengthDelimited()
        }
    }

    /// A UTF-8 string from a byte range (invalid sequences repaired, never trapping).
    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Zigzag decoding (protobuf sint32/sint64, MVT geometry parameters).
    @inline(__always)
    static func zigzag(_ v: UInt64) -> Int64 {
        Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1)
    }
}
