/// The byte layout of a point feature, learnt from one the general reader has just read: the
/// exact bytes between its values (member names, punctuation, white space, `"Feature"`,
/// `"Point"`) and what each value is for.
///
/// Big point files are written by programs, so nearly every feature repeats the first one's
/// layout with other values. `GeoJSONReader.readFeatureByLayout` then compares the fixed bytes
/// a word at a time and reads only the values, instead of scanning and recognising every member
/// name (issue 14: the parse ran at ≈ 2,000 instructions a feature). Anything that differs — a
/// member more or less, another order, other white space, a value of another shape where the
/// layout needs a number — makes it give up, and the general reader reads the feature from its
/// start. The layout only ever accepts what the general reader accepts, with the same result.
final class FeatureLayout {
    /// One step of reading a feature.
    enum Step: Equatable {
        /// The next `count` bytes equal `fixed[offset..<offset + count]`.
        case fixed(offset: Int32, count: Int32)
        /// A number: element `index` of the position (0 longitude, 1 latitude, later ones ignored).
        case coordinate(index: Int8)
        /// A property value with a role (name, label, category, …): `readPropertyValue`.
        case propertyValue(role: UInt16)
        /// Any JSON value, validated and skipped, at nesting `depth`.
        case skip(depth: Int8)
        /// The feature's `id` value.
        case id
        /// `properties` starts here (its `{`) / ended just before here.
        case propertiesStart, propertiesEnd
    }

    /// The steps, in their own memory so that reading a feature retains nothing.
    let steps: UnsafeMutableBufferPointer<Step>
    /// The fixed bytes, followed by 8 bytes of padding (comparisons read whole words).
    let fixed: UnsafeMutableBufferPointer<UInt8>
    /// The steps compiled for a feature that keeps no property value (nil if one does).
    let plain: PlainLayout?

    /// The layout of the feature in `p[start..<end]` (a feature object the general reader has
    /// read without error), or nil when it is not a plain point feature this can describe:
    /// escaped or repeated member names, a geometry other than a `Point` with numbers, … .
    /// `role` gives a property name's role (`GeoJSONReader.role(bytes:count:…)`).
    init?(_ p: UnsafePointer<UInt8>, from start: Int, to end: Int, role: (UnsafePointer<UInt8>, Int) -> UInt16) {
        var walker = LayoutWalker(p: p, i: start, end: end)
        guard walker.readFeature(role: role), walker.i == end else { return nil }
        walker.endFixed()
        steps = .allocate(capacity: walker.steps.count)
        _ = steps.initialize(from: walker.steps)
        fixed = .allocate(capacity: walker.fixed.count + 8)
        fixed.initialize(repeating: 0)
        _ = fixed.initialize(from: walker.fixed)
        plain = PlainLayout(steps: steps)
    }

    deinit {
        steps.deallocate()
        fixed.deallocate()
        plain?.deallocate()
    }
}

/// Walks a valid feature once, writing a `FeatureLayout`'s steps.
private struct LayoutWalker {
    let p: UnsafePointer<UInt8>
    var i: Int
    let end: Int
    /// Where the fixed bytes not yet written as a step begin.
    var fixedFrom: Int
    var steps: [FeatureLayout.Step] = []
    var fixed: [UInt8] = []

    init(p: UnsafePointer<UInt8>, i: Int, end: Int) {
        self.p = p
        self.i = i
        self.end = end
        fixedFrom = i
    }

    /// Ends the fixed run at `i` (if any) as a step.
    mutating func endFixed() {
        guard i > fixedFrom else { return }
        steps.append(.fixed(offset: Int32(fixed.count), count: Int32(i - fixedFrom)))
        fixed.append(contentsOf: UnsafeBufferPointer(start: p + fixedFrom, count: i - fixedFrom))
        fixedFrom = i
    }

    /// A value step at `i`; the value's bytes are then stepped over.
    mutating func valueStep(_ step: FeatureLayout.Step) -> Bool {
        endFixed()
        steps.append(step)
        guard skipValue(depth: 0) else { return false }
        fixedFrom = i
        return true
    }

    mutating func skipBlanks() {
        while i < end, p[i] == 32 || p[i] == 10 || p[i] == 13 || p[i] == 9 { i += 1 }
    }

    mutating func take(_ c: UInt8) -> Bool {
        skipBlanks()
        guard i < end, p[i] == c else { return false }
        i += 1
        skipBlanks()
        return true
    }

    /// A member name without escapes, and its colon; nil otherwise.
    mutating func memberName() -> (start: Int, count: Int)? {
        guard i < end, p[i] == 34 else { return nil }
        let s = i + 1
        var j = s
        while j < end && p[j] != 34 {
            if p[j] == 92 { return nil }
            j += 1
        }
        guard j < end else { return nil }
        i = j + 1
        guard take(UInt8(ascii: ":")) else { return nil }
        return (s, j - s)
    }

    func isName(_ name: (start: Int, count: Int), _ key: KeyWord) -> Bool {
        key.matches(p, name.start, name.count)
    }

    /// Steps over a string whose quote is at `i`; its body must be `expected` if given.
    mutating func skipString(expected: KeyWord? = nil) -> Bool {
        guard i < end, p[i] == 34 else { return false }
        let s = i + 1
        var j = s
        while j < end && p[j] != 34 {
            if p[j] == 92 { j += 1 }
            j += 1
        }
        guard j < end else { return false }
        if let expected, !expected.matches(p, s, j - s) { return false }
        i = j + 1
        return true
    }

    /// Steps over any (valid) value at `i`.
    mutating func skipValue(depth: Int) -> Bool {
        guard i < end, depth < 64 else { return false }
        switch p[i] {
        case 34: return skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let closer = p[i] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            let isObject = p[i] == UInt8(ascii: "{")
            i += 1
            skipBlanks()
            if i < end && p[i] == closer { i += 1; return true }
            while true {
                if isObject {
                    guard skipString(), take(UInt8(ascii: ":")) else { return false }
                }
                guard skipValue(depth: depth + 1) else { return false }
                skipBlanks()
                guard i < end else { return false }
                if p[i] == closer { i += 1; return true }
                guard p[i] == UInt8(ascii: ",") else { return false }
                i += 1
                skipBlanks()
            }
        default:
            // Numbers and literals: up to the next delimiter.
            let s = i
            while i < end, !isDelimiter(p[i]) { i += 1 }
            return i > s
        }
    }

    func isDelimiter(_ c: UInt8) -> Bool {
        c == UInt8(ascii: ",") || c == UInt8(ascii: "}") || c == UInt8(ascii: "]") || c == 32 || c == 10 || c == 13 || c == 9
    }

    /// The members of the feature object at `i`.
    mutating func readFeature(role: (UnsafePointer<UInt8>, Int) -> UInt16) -> Bool {
        guard i < end, p[i] == UInt8(ascii: "{") else { return false }
        i += 1
        skipBlanks()
        var sawGeometry = false, sawProperties = false, sawID = false, sawType = false
        while true {
            guard let name = memberName() else { return false }
            if isName(name, .type) {
                guard !sawType, skipString() else { return false }   // stays fixed: "Feature"
                sawType = true
            } else if isName(name, .geometry) {
                guard !sawGeometry, readPointGeometry() else { return false }
                sawGeometry = true
            } else if isName(name, .properties) {
                guard !sawProperties, readProperties(role: role) else { return false }
                sawProperties = true
            } else if isName(name, .id) {
                guard !sawID, valueStep(.id) else { return false }
                sawID = true
            } else {
                guard valueStep(.skip(depth: 2)) else { return false }
            }
            skipBlanks()
            guard i < end else { return false }
            if p[i] == UInt8(ascii: "}") { i += 1; return sawGeometry }
            guard take(UInt8(ascii: ",")) else { return false }
        }
    }

    /// `{"type": "Point", "coordinates": [numbers…]}` in either order, nothing else.
    mutating func readPointGeometry() -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        var sawType = false, sawCoordinates = false
        while true {
            guard let name = memberName() else { return false }
            if isName(name, .type) {
                guard !sawType, skipString(expected: .point) else { return false }
                sawType = true
            } else if isName(name, .coordinates) {
                guard !sawCoordinates, readPosition() else { return false }
                sawCoordinates = true
            } else {
                return false
            }
            skipBlanks()
            guard i < end else { return false }
            if p[i] == UInt8(ascii: "}") { i += 1; return sawType && sawCoordinates }
            guard take(UInt8(ascii: ",")) else { return false }
        }
    }

    /// `[number, number, …]` (two to four numbers).
    mutating func readPosition() -> Bool {
        guard take(UInt8(ascii: "[")) else { return false }
        var index: Int8 = 0
        while true {
            guard index < 4, i < end, p[i] == UInt8(ascii: "-") || p[i] &- 48 < 10,
                  valueStep(.coordinate(index: index)) else { return false }
            index += 1
            skipBlanks()
            guard i < end else { return false }
            if p[i] == UInt8(ascii: "]") { i += 1; return index >= 2 }
            guard take(UInt8(ascii: ",")) else { return false }
        }
    }

    /// `null`, or an object whose members become property steps.
    mutating func readProperties(role: (UnsafePointer<UInt8>, Int) -> UInt16) -> Bool {
        guard i < end else { return false }
        if p[i] == UInt8(ascii: "n") { return skipValue(depth: 0) }   // null: fixed
        guard p[i] == UInt8(ascii: "{") else { return false }
        endFixed()
        steps.append(.propertiesStart)
        i += 1
        skipBlanks()
        if i < end && p[i] == UInt8(ascii: "}") {
            i += 1
            endFixed()
            steps.append(.propertiesEnd)
            return true
        }
        while true {
            guard let name = memberName() else { return false }
            let r = role(p + name.start, name.count)
            guard valueStep(r == 0 ? .skip(depth: 4) : .propertyValue(role: r)) else { return false }
            skipBlanks()
            guard i < end else { return false }
            if p[i] == UInt8(ascii: "}") {
                i += 1
                endFixed()
                steps.append(.propertiesEnd)
                return true
            }
            guard take(UInt8(ascii: ",")) else { return false }
        }
    }
}
