/// One property's values for every place, as found (before a type is chosen): per place a kind,
/// a number (numbers and booleans) and a text code into a pool of distinct texts. Typing a
/// column then works on the distinct texts once, not on every place.
struct RawPropertyColumn: Sendable {
    enum Kind: UInt8 { case missing = 0, number, text, bool, nested }

    var kinds: [UInt8]
    var numbers: [Double]
    /// Index into `texts` for text (and nested) values, −1 otherwise.
    var codes: [Int32]
    /// Distinct texts in order of first appearance, and how many places hold each.
    var texts: [String] = []
    var textCounts: [Int] = []
    /// What each distinct text reads as, worked out once when it is first seen (type inference
    /// and typing read these, not the texts: a live update types its columns again without
    /// parsing a million dates): its number and its date's seconds (NaN: none), and whether it
    /// is "true" or "false".
    var textNumbers: [Double] = []
    var textDates: [Double] = []
    var textBools: [Bool] = []
    var codeByText: [String: Int32] = [:]

    init(count: Int) {
        kinds = [UInt8](repeating: Kind.missing.rawValue, count: count)
        numbers = [Double](repeating: .nan, count: count)
        codes = [Int32](repeating: -1, count: count)
    }

    /// Sets place `i`'s value.
    mutating func set(_ i: Int, _ value: PropertyValue) {
        switch value {
        case .null: kinds[i] = Kind.missing.rawValue
        case .number(let d):
            kinds[i] = Kind.number.rawValue
            numbers[i] = d
        case .bool(let b):
            kinds[i] = Kind.bool.rawValue
            numbers[i] = b ? 1 : 0
        case .string(let s), .date(let s):
            // A typed date (GDAL's date fields) is ISO 8601 text: type inference reads it as a date.
            kinds[i] = Kind.text.rawValue
            codes[i] = code(s)
        case .json(let s):
            kinds[i] = Kind.nested.rawValue
            codes[i] = code(s)
        }
    }

    private mutating func code(_ s: String) -> Int32 {
        if let c = codeByText[s] {
            textCounts[Int(c)] += 1
            return c
        }
        let c = Int32(texts.count)
        texts.append(s)
        textCounts.append(1)
        textNumbers.append(PropertyTypeInference.numberText(s) ?? .nan)
        textDates.append(DateText.seconds(s) ?? .nan)
        textBools.append(PropertyTypeInference.isBoolText(s))
        codeByText[s] = c
        return c
    }

    var count: Int { kinds.count }

    /// How many distinct texts some place holds (after live updates a text may be held by none).
    var heldTextCount: Int { textCounts.reduce(0) { $0 + ($1 > 0 ? 1 : 0) } }
}
