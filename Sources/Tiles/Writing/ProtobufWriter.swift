/// Appends protocol-buffer fields to a byte buffer (the subset MVT and PMTiles need:
/// varints, length-delimited fields, fixed 64-bit doubles).
struct ProtobufWriter {
    private(set) var bytes: [UInt8] = []

    /// Wire types used by MVT.
    enum WireType: UInt64 { case varint = 0, fixed64 = 1, lengthDelimited = 2, fixed32 = 5 }

    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    mutating func key(_ field: UInt64, _ type: WireType) { varint(field << 3 | type.rawValue) }

    mutating func varintField(_ field: UInt64, _ value: UInt64) {
        key(field, .varint)
        varint(value)
    }

    mutating func bytesField(_ field: UInt64, _ payload: [UInt8]) {
        key(field, .lengthDelimited)
        varint(UInt64(payload.count))
        bytes.append(contentsOf: payload)
    }

    mutating func stringField(_ field: UInt64, _ text: String) { bytesField(field, Array(text.utf8)) }

    mutating func doubleField(_ field: UInt64, _ value: Double) {
        key(field, .fixed64)
        let bits = value.bitPattern
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
    }

    /// A packed repeated uint32 field (feature tags, geometry commands).
    mutating func packedField(_ field: UInt64, _ values: [UInt32]) {
        var inner = ProtobufWriter()
        for v in values { inner.varint(UInt64(v)) }
        bytesField(field, inner.bytes)
    }

    /// Zig-zag encoding of a signed value (MVT geometry parameters, sint values).
    static func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
}
