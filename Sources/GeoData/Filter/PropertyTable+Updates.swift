/// Live updates of a property table (issue 29): when places are added, changed or removed, only
/// their rows are decoded again; the table that results equals one decoded afresh from every
/// place (same values, distinct texts in the same order, same inferred types and profiles), so
/// filters over it pass exactly the same places.
extension PropertyTable {
    /// The table after a live update: `count` places (at least as many as now: ids stay, new
    /// places come after), and for each id in `rows` its properties now (`[]` for a removed
    /// place); every other place keeps its values.
    ///
    /// The columns a new row touches are typed again; a column that only grew (its new places
    /// lack the property) keeps its type and profile, counted with the new missing values. A
    /// property that no place holds any more stays, with every value missing (a fresh table
    /// would not list it).
    /// - Complexity: decodes nothing; O(rows' properties) to set them, plus O(`count`) per
    ///   touched column to renumber its texts and infer its type.
    public func updating(count n: Int, rows: [(id: Int, properties: [(key: String, value: PropertyValue)])]) -> PropertyTable {
        precondition(n >= count, "a live update keeps every id")
        var raw = self.raw
        var names = self.names
        var touched = Set<String>()
        if n > count {
            for name in names { raw[name]!.grow(to: n) }
        }
        for (id, properties) in rows {
            // The row's old values go first (its new ones may leave some properties out).
            for name in names where raw[name]!.kinds[id] != RawPropertyColumn.Kind.missing.rawValue {
                raw[name]!.clear(id)
                touched.insert(name)
            }
            for (key, value) in properties {
                if raw[key] == nil {
                    raw[key] = RawPropertyColumn(count: n)
                    names.append(key)
                }
                raw[key]!.clear(id)
                raw[key]!.set(id, value)
                touched.insert(key)
            }
        }
        // Distinct texts in order of first appearance, as a fresh decoding makes them (the order
        // numbers categories: colours and groups follow it).
        for name in touched { raw[name]!.renumberTexts() }
        var types = self.types, profiles = self.profiles
        for name in names {
            if touched.contains(name) || self.raw[name] == nil {
                let (type, profile) = PropertyTypeInference.infer(raw[name]!, name: name)
                types[name] = type
                profiles[name] = profile
            } else if n > count {
                profiles[name]!.missing += n - count
            }
        }
        return PropertyTable(count: n, names: names, raw: raw, types: types, profiles: profiles)
    }

    /// A table of given parts (after `updating`).
    init(count: Int, names: [String], raw: [String: RawPropertyColumn], types: [String: PropertyType],
         profiles: [String: PropertyProfile]) {
        self.count = count
        self.names = names
        self.raw = raw
        self.types = types
        self.profiles = profiles
    }
}

extension RawPropertyColumn {
    /// Adds missing values up to `n` places.
    mutating func grow(to n: Int) {
        let extra = n - kinds.count
        guard extra > 0 else { return }
        kinds.append(contentsOf: repeatElement(Kind.missing.rawValue, count: extra))
        numbers.append(contentsOf: repeatElement(.nan, count: extra))
        codes.append(contentsOf: repeatElement(-1, count: extra))
    }

    /// Makes place `i`'s value missing (its text no longer counted).
    mutating func clear(_ i: Int) {
        let c = codes[i]
        if c >= 0 { textCounts[Int(c)] -= 1 }
        kinds[i] = Kind.missing.rawValue
        numbers[i] = .nan
        codes[i] = -1
    }

    /// Drops texts no place holds and numbers the rest in order of first appearance — when the
    /// order can matter: a column of few texts (a category's values are numbered so, and colours
    /// and groups follow). A column of many (dates, names, ids) keeps its numbers: renumbering
    /// would rebuild the lookup of every text at each update; the texts no place holds any more
    /// wait there (counted as none) until they are a third of all.
    mutating func renumberTexts() {
        let held = heldTextCount
        if held > PropertyTable.categoryLimit && texts.count - held <= held / 2 { return }
        var newCode = [Int32](repeating: -1, count: texts.count)
        var order: [Int] = []
        for i in 0..<codes.count {
            let c = codes[i]
            guard c >= 0 else { continue }
            var m = newCode[Int(c)]
            if m < 0 {
                m = Int32(order.count)
                newCode[Int(c)] = m
                order.append(Int(c))
            }
            codes[i] = m
        }
        // Unchanged when every text is still held and the first appearances keep their order.
        if order.count == texts.count && order.indices.allSatisfy({ order[$0] == $0 }) { return }
        texts = order.map { texts[$0] }
        textCounts = order.map { textCounts[$0] }
        textNumbers = order.map { textNumbers[$0] }
        textDates = order.map { textDates[$0] }
        textBools = order.map { textBools[$0] }
        codeByText = Dictionary(uniqueKeysWithValues: texts.enumerated().map { ($1, Int32($0)) })
    }
}
