/// A member name up to 16 bytes, pre-packed into two little-endian words so that comparing it
/// with bytes in the file is two loads and compares instead of a `memcmp` call.
struct KeyWord: Sendable {
    let count: Int
    let w0: UInt64
    let w1: UInt64

    init(count: Int, w0: UInt64, w1: UInt64) {
        self.count = count
        self.w0 = w0
        self.w1 = w1
    }

    init(_ s: StaticString) {
        precondition(s.utf8CodeUnitCount <= 16)
        count = s.utf8CodeUnitCount
        var a: UInt64 = 0, b: UInt64 = 0
        for i in 0..<count {
            let byte = UInt64(s.utf8Start[i])
            if i < 8 { a |= byte << (8 * UInt64(i)) } else { b |= byte << (8 * UInt64(i - 8)) }
        }
        w0 = a
        w1 = b
    }

    @inline(__always)
    static func mask(_ n: Int) -> UInt64 { n >= 8 ? ~0 : (1 << (8 * UInt64(n))) &- 1 }

    /// Whether `p[start..<start+n]` is this key. Reads up to 16 bytes from `start`: buffers are
    /// padded by at least 16 bytes past their content.
    @inline(__always)
    func matches(_ p: UnsafePointer<UInt8>, _ start: Int, _ n: Int) -> Bool {
        guard n == count else { return false }
        let raw = UnsafeRawPointer(p + start)
        if raw.loadUnaligned(as: UInt64.self) & KeyWord.mask(n) != w0 { return false }
        if n <= 8 { return true }
        return raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self) & KeyWord.mask(n - 8) == w1
    }

    // Literal words (not `KeyWord("…")`) so that using them costs no lazy-initialisation check;
    // `testKeyWordConstantsMatchTheirNames` checks them against the strings.
    static let type = KeyWord(count: 4, w0: 0x0000000065707974, w1: 0x0000000000000000)  // "type"
    static let features = KeyWord(count: 8, w0: 0x7365727574616566, w1: 0x0000000000000000)  // "features"
    static let geometry = KeyWord(count: 8, w0: 0x797274656D6F6567, w1: 0x0000000000000000)  // "geometry"
    static let properties = KeyWord(count: 10, w0: 0x69747265706F7270, w1: 0x0000000000007365)  // "properties"
    static let id = KeyWord(count: 2, w0: 0x0000000000006469, w1: 0x0000000000000000)  // "id"
    static let coordinates = KeyWord(count: 11, w0: 0x616E6964726F6F63, w1: 0x0000000000736574)  // "coordinates"
    static let point = KeyWord(count: 5, w0: 0x000000746E696F50, w1: 0x0000000000000000)  // "Point"
    static let multiPoint = KeyWord(count: 10, w0: 0x696F5069746C754D, w1: 0x000000000000746E)  // "MultiPoint"
    static let name = KeyWord(count: 4, w0: 0x00000000656D616E, w1: 0x0000000000000000)  // "name"
    static let title = KeyWord(count: 5, w0: 0x000000656C746974, w1: 0x0000000000000000)  // "title"
    static let label = KeyWord(count: 5, w0: 0x0000006C6562616C, w1: 0x0000000000000000)  // "label"
    static let category = KeyWord(count: 8, w0: 0x79726F6765746163, w1: 0x0000000000000000)  // "category"
    static let description = KeyWord(count: 11, w0: 0x7470697263736564, w1: 0x00000000006E6F69)  // "description"
    static let markerColor = KeyWord(count: 12, w0: 0x632D72656B72616D, w1: 0x00000000726F6C6F)  // "marker-color"
    static let markerSymbol = KeyWord(count: 13, w0: 0x732D72656B72616D, w1: 0x0000006C6F626D79)  // "marker-symbol"
}
