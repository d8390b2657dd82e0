// Reading a feature by the layout of the ones before it (`FeatureLayout`), and learning that
// layout: the fast path of big point files.
extension GeoJSONReader {
    /// Reads the feature at `pos` (its `{`) into `cur`, by the learnt layout if it fits,
    /// otherwise by the general reader (which then may learn the layout from it).
    @inline(__always)
    mutating func readFeatureMembers() throws {
        let start = pos
        if layoutFixed != nil {
            if readFeatureByLayout() {
                layoutMisses = 0
                return
            }
            pos = start
            layoutMisses += 1
            // Files whose features vary: learn again from a later one, a few times, then stop trying.
            if layoutMisses >= 32 {
                layout = nil
                layoutMisses = 0
            }
        }
        try parseFeatureMembers(depth: 2)
        if layout == nil && layoutsLearnt < 8 && learnsLayouts {
            layoutsLearnt += 1
            let numericKey = self.numericKey, categoryKey = self.categoryKey
            layout = FeatureLayout(p, from: start, to: pos) { k, n in
                GeoJSONReader.role(bytes: k, count: n, numericKey, categoryKey)
            }
        }
    }

    /// Reads the feature at `pos` by `layout`; false (with `pos` and `cur` undefined) as soon as
    /// it differs, or when a value is not what the general reader would accept: the caller then
    /// reads the feature again from its start, and that reader reports any error.
    mutating func readFeatureByLayout() -> Bool {
        guard let fixed = layoutFixed else { return false }
        let steps = layoutSteps
        cur = FeatureState()
        cur.start = pos
        var lon = 0.0, lat = 0.0
        do {
            for step in steps {
                switch step {
                case let .fixed(offset, count):
                    let n = Int(count)
                    guard pos + n <= end, GeoJSONReader.sameBytes(p + pos, fixed + Int(offset), n) else { return false }
                    pos += n
                case let .coordinate(index):
                    guard GeoJSONReader.startsNumber(p[pos]) else { return false }
                    let v = try scanNumber()
                    if index == 0 { lon = v } else if index == 1 { lat = v }
                case let .propertyValue(role):
                    try readPropertyValue(role: role, depth: 4)
                case let .skip(depth):
                    try skipValue(depth: Int(depth))
                case .id:
                    let s = pos
                    let c = p[pos]
                    try skipValue(depth: 3)
                    if c == 34 || GeoJSONReader.startsNumber(c) {
                        cur.idStart = s
                        cur.idEnd = pos
                    }
                case .propertiesStart:
                    cur.propsStart = pos
                case .propertiesEnd:
                    cur.propsEnd = pos
                }
            }
        } catch {
            return false
        }
        cur.kind = .point
        cur.shape = .position
        cur.lon = lon
        cur.lat = lat
        cur.status = .ok
        return true
    }

    /// Whether `a[0..<n]` equals `b[0..<n]`, compared a word at a time (both readable a word past n).
    @inline(__always)
    static func sameBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        var k = 0
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        while k + 8 <= n {
            if ra.loadUnaligned(fromByteOffset: k, as: UInt64.self) != rb.loadUnaligned(fromByteOffset: k, as: UInt64.self) { return false }
            k += 8
        }
        if k == n { return true }
        let mask = KeyWord.mask(n - k)
        return (ra.loadUnaligned(fromByteOffset: k, as: UInt64.self) ^ rb.loadUnaligned(fromByteOffset: k, as: UInt64.self)) & mask == 0
    }
}
