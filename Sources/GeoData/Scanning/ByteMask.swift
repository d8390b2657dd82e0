/// Eight bytes at a time (SWAR): masks with the high bit set in each byte of a word that the
/// readers must look at. The lowest marked byte is always a real match; higher ones may be
/// false alarms (a borrow can run on past the first match), so callers go to the lowest one
/// (`trailingZeroBitCount >> 3`) and check it byte by byte.
enum ByteMask {
    @inline(__always) static var ones: UInt64 { 0x0101_0101_0101_0101 }
    @inline(__always) static var highs: UInt64 { 0x8080_8080_8080_8080 }

    /// Marks control bytes, non-ASCII bytes and bytes equal to `byte`.
    @inline(__always)
    static func special(_ x: UInt64, or byte: UInt8) -> UInt64 {
        (equal(x, byte) | controlOrNonASCII(x)) & highs
    }

    /// Marks control bytes, non-ASCII bytes and bytes equal to `a` or `b`.
    @inline(__always)
    static func special(_ x: UInt64, or a: UInt8, _ b: UInt8) -> UInt64 {
        (equal(x, a) | equal(x, b) | controlOrNonASCII(x)) & highs
    }

    /// High bits (among other bits: mask with `highs`) of the bytes equal to `byte`.
    @inline(__always)
    static func equal(_ x: UInt64, _ byte: UInt8) -> UInt64 {
        let y = x ^ (ones &* UInt64(byte))
        return (y &- ones) & ~y
    }

    /// High bits (among other bits: mask with `highs`) of the bytes below 0x20 or above 0x7F.
    @inline(__always)
    static func controlOrNonASCII(_ x: UInt64) -> UInt64 { (x &- ones &* 0x20) | x }
}
