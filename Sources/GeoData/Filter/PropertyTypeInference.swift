/// Chooses a type for a property from its values, and converts values to a type.
///
/// Rules, in order (present = values that are not missing or null; at least 90 % of them must
/// fit a type, the rest then count as mismatched and are missing for filters):
/// 1. true/false values (or the texts "true"/"false") → boolean;
/// 2. numbers (or texts holding numbers) → number — or date when the name says time
///    (`time`, `date`, `timestamp`, `…_at`, `…time…`, `…date…`) and every number is a plausible
///    epoch (seconds 1e8…4e9, i.e. 1973–2096, or milliseconds 1e11…4e12);
/// 3. ISO 8601 texts → date;
/// 4. other texts → category when few distinct (≤ `PropertyTable.categoryLimit` and at most
///    max(20, present / 20)), else text.
/// Nested JSON values count as text. A property with no present value is a category.
enum PropertyTypeInference {
    static let fitShare = 0.9

    static func infer(_ c: RawPropertyColumn, name: String) -> (PropertyType, PropertyProfile) {
        var numbers = 0, bools = 0, texts = 0, missing = 0
        for k in c.kinds {
            switch RawPropertyColumn.Kind(rawValue: k)! {
            case .missing: missing += 1
            case .number: numbers += 1
            case .bool: bools += 1
            case .text, .nested: texts += 1
            }
        }
        let present = c.count - missing
        var numberTexts = 0, dateTexts = 0, boolTexts = 0
        for k in c.texts.indices {
            let n = c.textCounts[k]
            if c.textBools[k] { boolTexts += n }
            if !c.textNumbers[k].isNaN { numberTexts += n }
            if !c.textDates[k].isNaN { dateTexts += n }
        }
        func fits(_ n: Int) -> Bool { present > 0 && Double(n) >= fitShare * Double(present) }
        let type: PropertyType
        if present == 0 {
            type = .category
        } else if fits(bools + boolTexts) {
            type = .boolean
        } else if fits(numbers + numberTexts) {
            type = epochUnit(c, name: name) != nil ? .date : .number
        } else if fits(dateTexts) {
            type = .date
        } else {
            let distinct = c.heldTextCount + distinctNonTexts(c)
            type = distinct <= PropertyTable.categoryLimit && distinct <= max(20, present / 20) ? .category : .text
        }
        return (type, profile(c, as: type, name: name))
    }

    /// How many distinct numbers/booleans there are (bounded: only matters near the limits).
    private static func distinctNonTexts(_ c: RawPropertyColumn) -> Int {
        var seen = Set<Double>()
        for i in 0..<c.count where c.kinds[i] == RawPropertyColumn.Kind.number.rawValue || c.kinds[i] == RawPropertyColumn.Kind.bool.rawValue {
            seen.insert(c.numbers[i])
            if seen.count > PropertyTable.categoryLimit { break }
        }
        return seen.count
    }

    static func isTimeName(_ name: String) -> Bool {
        let l = name.lowercased()
        return l.contains("time") || l.contains("date") || l.hasSuffix("_at") || l == "when" || l.hasSuffix("At")
            || name.hasSuffix("At")
    }

    /// The epoch unit when the property is named like a time and all its numbers are plausible
    /// epochs of one unit; nil otherwise.
    static func epochUnit(_ c: RawPropertyColumn, name: String) -> EpochUnit? {
        guard isTimeName(name) else { return nil }
        var lo = Double.infinity, hi = -Double.infinity
        for i in 0..<c.count {
            let v: Double
            switch RawPropertyColumn.Kind(rawValue: c.kinds[i])! {
            case .number: v = c.numbers[i]
            case .text:
                let d = c.textNumbers[Int(c.codes[i])]
                if d.isNaN { continue }
                v = d
            default: continue
            }
            lo = min(lo, v)
            hi = max(hi, v)
        }
        guard lo <= hi else { return nil }
        if lo >= 1e8 && hi <= 4e9 { return .seconds }
        if lo >= 1e11 && hi <= 4e12 { return .milliseconds }
        return nil
    }

    static func isBoolText(_ s: String) -> Bool {
        let l = s.lowercased()
        return l == "true" || l == "false"
    }

    static func numberText(_ s: String) -> Double? {
        guard let first = s.utf8.first, first != 32, s.utf8.last != 32 else { return nil }
        guard let d = Double(s), d.isFinite else { return nil }
        return d
    }

    /// Counts for `column` read as `type`.
    static func profile(_ c: RawPropertyColumn, as type: PropertyType, name: String) -> PropertyProfile {
        var p = PropertyProfile()
        let typed = typed(c, name: name, as: type, profile: PropertyProfile())
        for k in c.kinds where k == RawPropertyColumn.Kind.missing.rawValue { p.missing += 1 }
        p.present = c.count - p.missing
        let usable: Int
        switch type {
        case .number, .date: usable = typed.numbers.reduce(0) { $0 + ($1.isNaN ? 0 : 1) }
        default: usable = typed.codes.reduce(0) { $0 + ($1 >= 0 ? 1 : 0) }
        }
        p.mismatched = p.present - usable
        p.distinctTexts = c.heldTextCount + distinctNonTexts(c)
        if type == .date { p.epochUnit = epochUnit(c, name: name) ?? (hasNumbers(c) ? .seconds : nil) }
        return p
    }

    private static func hasNumbers(_ c: RawPropertyColumn) -> Bool {
        c.kinds.contains(RawPropertyColumn.Kind.number.rawValue)
    }

    /// The first present value of `c` (as text) that does not fit `type`, nil when all fit.
    static func firstMismatch(_ c: RawPropertyColumn, name: String, as type: PropertyType) -> String? {
        let t = typed(c, name: name, as: type, profile: PropertyProfile())
        for i in 0..<c.count where c.kinds[i] != RawPropertyColumn.Kind.missing.rawValue {
            let fits = type == .number || type == .date ? !t.numbers[i].isNaN : t.codes[i] >= 0
            if fits { continue }
            switch RawPropertyColumn.Kind(rawValue: c.kinds[i])! {
            case .number: return PropertyValue.plainText(c.numbers[i])
            case .bool: return c.numbers[i] != 0 ? "true" : "false"
            default: return c.texts[Int(c.codes[i])]
            }
        }
        return nil
    }

    /// The column read as `type`. Values that don't fit become missing.
    static func typed(_ c: RawPropertyColumn, name: String, as type: PropertyType, profile: PropertyProfile) -> PropertyColumn {
        let n = c.count
        switch type {
        case .number, .date:
            let isDate = type == .date
            let scale = isDate && (profile.epochUnit ?? epochUnit(c, name: name)) == .milliseconds ? 0.001 : 1
            // Each distinct text is read once.
            let textValue: [Double] = c.texts.indices.map { k in
                if isDate, !c.textDates[k].isNaN { return c.textDates[k] }
                return c.textNumbers[k] * (isDate ? scale : 1)
            }
            var out = [Double](repeating: .nan, count: n)
            for i in 0..<n {
                switch RawPropertyColumn.Kind(rawValue: c.kinds[i])! {
                case .number: out[i] = c.numbers[i] * scale
                case .text: out[i] = textValue[Int(c.codes[i])]
                default: break
                }
            }
            return PropertyColumn(name: name, type: type, numbers: out, codes: [], texts: [], profile: profile)
        case .boolean:
            let textValue: [Int32] = c.texts.map { s in
                switch s.lowercased() {
                case "true": return 1
                case "false": return 0
                default: return -1
                }
            }
            var out = [Int32](repeating: -1, count: n)
            for i in 0..<n {
                switch RawPropertyColumn.Kind(rawValue: c.kinds[i])! {
                case .bool: out[i] = c.numbers[i] != 0 ? 1 : 0
                case .text: out[i] = textValue[Int(c.codes[i])]
                default: break
                }
            }
            return PropertyColumn(name: name, type: type, numbers: [], codes: out, texts: ["false", "true"], profile: profile)
        case .category, .text:
            // Texts keep their codes; numbers and booleans join the pool by their text.
            var texts = c.texts
            var extra: [String: Int32] = [:]
            var out = c.codes
            for i in 0..<n {
                let k = RawPropertyColumn.Kind(rawValue: c.kinds[i])!
                guard k == .number || k == .bool else { continue }
                let s = k == .bool ? (c.numbers[i] != 0 ? "true" : "false") : PropertyValue.plainText(c.numbers[i])
                if let code = extra[s] {
                    out[i] = code
                } else {
                    let code = Int32(texts.count)
                    texts.append(s)
                    extra[s] = code
                    out[i] = code
                }
            }
            return PropertyColumn(name: name, type: type, numbers: [], codes: out, texts: texts, profile: profile)
        }
    }
}
