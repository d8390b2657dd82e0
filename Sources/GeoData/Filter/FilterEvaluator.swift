import ClusterCore

/// Evaluates filter expressions over a `PropertyTable`'s columns to a `PointSelection`.
///
/// Each condition is decided in one tight pass over its column, into 64-place words; `and`,
/// `or` and `not` then combine words. A condition on texts is decided once per distinct text
/// and looked up per place. About 1–3 ms per condition for a million places.
///
/// Keeps the typed columns it built (reused by later expressions). Not thread-safe: use one
/// evaluator from one thread at a time.
public final class FilterEvaluator: @unchecked Sendable {
    /// The properties and their types.
    public private(set) var table: PropertyTable
    private var columns: [String: PropertyColumn] = [:]

    public init(table: PropertyTable) { self.table = table }

    /// Reads a property as `type` from now on.
    public func setType(_ type: PropertyType, of name: String) {
        table.setType(type, of: name)
        columns[name] = nil
    }

    /// The typed column of a property (kept for reuse), nil for an unknown name.
    public func column(_ name: String) -> PropertyColumn? {
        if let c = columns[name] { return c }
        guard let c = table.column(name) else { return nil }
        columns[name] = c
        return c
    }

    /// The places that pass `expression`.
    /// - Throws: `FilterError` at the name of an unknown property, or at a value that the
    ///   property's type can't be compared with.
    public func selection(for expression: FilterExpression) throws -> PointSelection {
        switch expression {
        case .and(let a, let b):
            var s = try selection(for: a)
            s.formIntersection(try selection(for: b))
            return s
        case .or(let a, let b):
            var s = try selection(for: a)
            s.formUnion(try selection(for: b))
            return s
        case .not(let a):
            var s = try selection(for: a)
            s.invert()
            return s
        case .isMissing(let f):
            let c = try columnOrError(f)
            if c.type == .number || c.type == .date { return Self.select(c.numbers) { $0.isNaN } }
            return Self.select(c.codes) { $0 < 0 }
        case .compare(let f, let op, let v):
            let c = try columnOrError(f)
            if c.type == .number || c.type == .date {
                let x = try number(v, for: c)
                return Self.compareNumbers(c.numbers, op, x)
            }
            let target = try text(v, for: c)
            return selectTexts(c) { op.holds(Self.order($0, target)) }
        case .isIn(let f, let vs):
            let c = try columnOrError(f)
            if c.type == .number || c.type == .date {
                let xs = Set(try vs.map { try number($0, for: c) })
                return Self.select(c.numbers) { xs.contains($0) }
            }
            let targets = Set(try vs.map { try text($0, for: c) })
            return selectTexts(c) { targets.contains($0) }
        case .contains(let f, let v):
            let c = try columnOrError(f)
            guard c.type == .text || c.type == .category else {
                throw FilterError(column: f.column, message: "'\(f.name)' holds \(c.type.plural); 'contains' works on texts")
            }
            guard case .text(let needle) = v.value else {
                throw FilterError(column: v.column, message: "'contains' needs a quoted text, found \(v.shown)")
            }
            let lower = needle.lowercased()
            return selectTexts(c) { lower.isEmpty || $0.lowercased().contains(lower) }
        }
    }

    /// Parses and evaluates `text`.
    public func selection(for text: String) throws -> PointSelection {
        try selection(for: FilterExpression.parse(text))
    }

    // MARK: - Conditions

    private func columnOrError(_ f: FilterField) throws -> PropertyColumn {
        if let c = column(f.name) { return c }
        let known = table.names.prefix(12).joined(separator: ", ")
        let more = table.names.count > 12 ? ", …" : ""
        throw FilterError(column: f.column, message: table.names.isEmpty
                          ? "no property '\(f.name)': the places have no properties"
                          : "no property '\(f.name)' (there are: \(known)\(more))")
    }

    private func number(_ v: FilterLiteral, for c: PropertyColumn) throws -> Double {
        switch (c.type, v.value) {
        case (.number, .number(let d)): return d
        case (.number, .text(let s)):
            if let d = PropertyTypeInference.numberText(s) { return d }
        case (.date, .date(let s, _)): return s
        case (.date, .text(let s)):
            if let d = DateText.seconds(s) { return d }
        default: break
        }
        let want = c.type == .date ? "a date like 2011-03-11 or 2011-03-11T05:46:24Z" : "a number"
        throw FilterError(column: v.column, message: "'\(c.name)' holds \(c.type.plural): compare it with \(want), not \(v.shown)")
    }

    private func text(_ v: FilterLiteral, for c: PropertyColumn) throws -> String {
        switch v.value {
        case .text(let s): return c.type == .boolean ? s.lowercased() : s
        case .number(let d): return PropertyValue.plainText(d)
        case .date(_, let s): return s
        case .bool(let b): return b ? "true" : "false"
        }
    }

    /// −1, 0, 1 for texts in Unicode order.
    @inline(__always) static func order(_ a: String, _ b: String) -> Int { a == b ? 0 : (a < b ? -1 : 1) }

    /// Places whose text passes `test`, deciding each distinct text once.
    private func selectTexts(_ c: PropertyColumn, _ test: (String) -> Bool) -> PointSelection {
        let passes = c.texts.map(test)
        return passes.withUnsafeBufferPointer { p in Self.select(c.codes) { $0 >= 0 && p[Int($0)] } }
    }

    static func compareNumbers(_ values: [Double], _ op: FilterComparison, _ x: Double) -> PointSelection {
        // One loop per operator, so the comparison is not a branch per place (NaN fails all).
        switch op {
        case .equal: return select(values) { $0 == x }
        case .notEqual: return select(values) { $0 != x && !$0.isNaN }
        case .less: return select(values) { $0 < x }
        case .lessOrEqual: return select(values) { $0 <= x }
        case .greater: return select(values) { $0 > x }
        case .greaterOrEqual: return select(values) { $0 >= x }
        }
    }

    /// The places whose value passes `test`, 64 at a time.
    @inline(__always)
    static func select<T>(_ values: [T], _ test: (T) -> Bool) -> PointSelection {
        let n = values.count
        var words = [UInt64](repeating: 0, count: (n + 63) >> 6)
        values.withUnsafeBufferPointer { v in
            words.withUnsafeMutableBufferPointer { w in
                let full = n >> 6
                for k in 0..<full {
                    var bits: UInt64 = 0
                    let base = k << 6
                    for b in 0..<64 where test(v[base + b]) { bits |= 1 << UInt64(b) }
                    w[k] = bits
                }
                if full < w.count {
                    var bits: UInt64 = 0
                    for b in 0..<(n - full << 6) where test(v[full << 6 + b]) { bits |= 1 << UInt64(b) }
                    w[full] = bits
                }
            }
        }
        return PointSelection(count: n, words: words)
    }
}
