/// Every property of a point set as columns, with a type inferred for each (overridable):
/// what filters, category grouping and totals read.
///
/// Built once per loaded file (`init(pointSet:names:)` decodes each place's properties from
/// the kept file bytes), or from values directly (`init(count:values:)`).
public struct PropertyTable: Sendable {
    /// The number of places.
    public let count: Int
    /// Property names in order of first appearance.
    public let names: [String]
    let raw: [String: RawPropertyColumn]
    var types: [String: PropertyType]
    var profiles: [String: PropertyProfile]

    /// Texts with at most this many distinct values (and few per place) are categories.
    public static let categoryLimit = 1000

    /// Columns from values given per property (`values[name][i]` for place `i`; a shorter
    /// array leaves the rest missing).
    public init(count: Int, values: [(name: String, values: [PropertyValue])]) {
        var raw: [String: RawPropertyColumn] = [:]
        var names: [String] = []
        for (name, vs) in values where raw[name] == nil {
            var column = RawPropertyColumn(count: count)
            for (i, v) in vs.prefix(count).enumerated() { column.set(i, v) }
            raw[name] = column
            names.append(name)
        }
        self.init(count: count, names: names, raw: raw)
    }

    /// Columns of every property of `pointSet` (or only those in `names`), decoded now.
    /// - Complexity: O(size of the records' properties).
    public init(pointSet: PointSet, names wanted: Set<String>? = nil) {
        self.init(count: pointSet.count, names: wanted) { pointSet.properties(at: $0) }
    }

    /// Columns of `count` places whose properties `properties(i)` gives (or only those in
    /// `names`): a window's places spread over several files, or ids that differ from a file's
    /// record order after live updates.
    public init(count n: Int, names wanted: Set<String>? = nil,
                properties: (Int) -> [(key: String, value: PropertyValue)]) {
        var raw: [String: RawPropertyColumn] = [:]
        var names: [String] = []
        for i in 0..<n {
            for (key, value) in properties(i) {
                if let wanted, !wanted.contains(key) { continue }
                if raw[key] == nil {
                    raw[key] = RawPropertyColumn(count: n)
                    names.append(key)
                }
                raw[key]!.set(i, value)
            }
        }
        self.init(count: n, names: names, raw: raw)
    }

    init(count: Int, names: [String], raw: [String: RawPropertyColumn]) {
        self.count = count
        self.names = names
        self.raw = raw
        var types: [String: PropertyType] = [:], profiles: [String: PropertyProfile] = [:]
        for name in names {
            let (type, profile) = PropertyTypeInference.infer(raw[name]!, name: name)
            types[name] = type
            profiles[name] = profile
        }
        self.types = types
        self.profiles = profiles
    }

    /// Whether the table has a property.
    public func contains(_ name: String) -> Bool { raw[name] != nil }

    /// The type a property is read as (inferred unless overridden), nil for an unknown name.
    public func type(of name: String) -> PropertyType? { types[name] }

    /// What inference found in a property.
    public func profile(of name: String) -> PropertyProfile? { profiles[name] }

    /// Reads a property as `type` from now on (the person knows better than the guess).
    public mutating func setType(_ type: PropertyType, of name: String) {
        guard let column = raw[name] else { return }
        types[name] = type
        profiles[name] = PropertyTypeInference.profile(column, as: type, name: name)
    }

    /// The property as a typed column (as its current type, or as `type`), nil for an unknown name.
    /// - Complexity: O(*n*) (build once and keep it).
    public func column(_ name: String, as type: PropertyType? = nil) -> PropertyColumn? {
        guard let column = raw[name], let t = type ?? types[name] else { return nil }
        let profile = type == nil ? profiles[name]! : PropertyTypeInference.profile(column, as: t, name: name)
        return PropertyTypeInference.typed(column, name: name, as: t, profile: profile)
    }

    /// "'date' is read as dates but 23,412 of 23,412 values are not dates (e.g. 'Jan 2 1965');
    /// they count as missing" when most present values of `name` don't fit its current type;
    /// nil when most do (or for an unknown name).
    public func mostlyMismatched(_ name: String) -> String? {
        guard let p = profiles[name], let t = types[name], p.present > 0, p.mismatched * 2 > p.present,
              let column = raw[name] else { return nil }
        let example = PropertyTypeInference.firstMismatch(column, name: name, as: t).map { " (e.g. '\(MessageText.excerpt($0, limit: 40))')" } ?? ""
        return "'\(name)' is read as \(t.plural) but \(formatCount(p.mismatched)) of \(formatCount(p.present)) values are not \(t.plural)\(example); they count as missing"
    }

    /// The properties read as `type`, in order.
    public func names(ofType type: PropertyType) -> [String] { names.filter { types[$0] == type } }
}
