import ClusterCore

/// `FilterSettings` answered over a point set's property columns: which places pass, the group
/// of each place (cluster by), and the per-place inputs of the total. Feed these to
/// `SubsetClusterer` (exact filtered / grouped clustering) or mask a plain build.
public struct FilterResult: Sendable {
    /// The places that pass every condition and the time window; nil when nothing filters.
    public let selection: PointSelection?
    /// Per place: the code of its value of the `--by` property (−1: none); empty when not grouping.
    public let groups: [Int32]
    /// The `--by` property's texts, indexed by group code.
    public let groupNames: [String]
    /// Per place: the total's number (NaN: none); empty unless the total reads a number.
    public let totalValues: [Double]
    /// Per place: the total's category code (−1: none); empty unless the total is `most-common`.
    public let totalCategories: [Int32]
    /// The most-common total's category texts, indexed by code.
    public let totalCategoryNames: [String]
    /// The date property the time window read, if any.
    public let timeProperty: String?
    /// Properties forced to a type (`--type`, the panel's choice) that most of their values
    /// don't read as, each in one line naming the property and a value: without it such a filter
    /// passes nothing and nobody says why.
    public internal(set) var warnings: [String] = []

    /// How many places pass (all when nothing filters).
    public func passingCount(of total: Int) -> Int { selection?.chosenCount ?? total }

    /// Answers `settings` with `evaluator`'s columns (types from `settings.types` are set on it).
    /// - Throws: `FilterSettingsError` naming the option (and for expressions the column).
    public static func apply(_ settings: FilterSettings, evaluator: FilterEvaluator) throws -> FilterResult {
        for (name, type) in settings.types.sorted(by: { $0.key < $1.key }) {
            guard evaluator.table.contains(name) else {
                throw FilterSettingsError(option: "type", value: "\(name)=\(type.rawValue)", message: unknown(name, evaluator))
            }
            if evaluator.table.type(of: name) != type { evaluator.setType(type, of: name) }
        }
        var selection: PointSelection?
        func narrow(_ s: PointSelection) {
            if selection == nil { selection = s } else { selection!.formIntersection(s) }
        }
        for text in settings.conditions {
            do {
                narrow(try evaluator.selection(for: text))
            } catch let e as FilterError {
                throw FilterSettingsError(option: "where", value: text, message: e.description)
            }
        }
        var timeProperty: String?
        if settings.since != nil || settings.until != nil {
            let option = settings.since != nil ? "since" : "until"
            let value = settings.since ?? settings.until!
            let name: String
            if let t = settings.timeProperty {
                guard let c = evaluator.column(t) else {
                    throw FilterSettingsError(option: "time", value: t, message: unknown(t, evaluator))
                }
                guard c.type == .date else {
                    throw FilterSettingsError(option: "time", value: t,
                                              message: "'\(t)' holds \(c.type.plural), not dates (say --type \(t)=date if it does)")
                }
                name = t
            } else {
                guard let first = evaluator.table.names(ofType: .date).first else {
                    throw FilterSettingsError(option: option, value: value,
                                              message: "no property holds dates (name one with --time PROPERTY and --type PROPERTY=date)")
                }
                name = first
            }
            timeProperty = name
            let numbers = evaluator.column(name)!.numbers
            let lo = settings.since.flatMap(DateText.seconds) ?? -.infinity
            var hi = settings.until.flatMap(DateText.seconds) ?? .infinity
            // A day without a time means the whole day.
            if let u = settings.until, u.count <= 10 { hi += 86400 }
            let inclusiveEnd = settings.until.map { $0.count > 10 } ?? true
            narrow(FilterEvaluator.select(numbers) { $0 >= lo && ($0 < hi || (inclusiveEnd && $0 == hi)) })
            if lo > hi {
                throw FilterSettingsError(option: "until", value: settings.until!, message: "the window ends before it starts (--since \(settings.since!))")
            }
        }
        var groups: [Int32] = [], groupNames: [String] = []
        if let by = settings.groupProperty {
            guard let c = evaluator.column(by) else {
                throw FilterSettingsError(option: "by", value: by, message: unknown(by, evaluator))
            }
            guard !c.codes.isEmpty else {
                throw FilterSettingsError(option: "by", value: by,
                                          message: "'\(by)' holds \(c.type.plural); cluster by a category (or say --type \(by)=category)")
            }
            groups = c.codes
            groupNames = c.texts
        }
        var totalValues: [Double] = [], totalCategories: [Int32] = [], totalNames: [String] = []
        if let total = settings.total {
            guard let c = evaluator.column(total.property) else {
                throw FilterSettingsError(option: "total", value: total.text, message: unknown(total.property, evaluator))
            }
            if total.kind.readsCategory {
                guard !c.codes.isEmpty else {
                    throw FilterSettingsError(option: "total", value: total.text,
                                              message: "'\(total.property)' holds \(c.type.plural); most-common needs a category")
                }
                totalCategories = c.codes
                totalNames = c.texts
            } else {
                guard c.type == .number else {
                    throw FilterSettingsError(option: "total", value: total.text,
                                              message: "'\(total.property)' holds \(c.type.plural); \(total.kind.rawValue) needs numbers (or say --type \(total.property)=number)")
                }
                totalValues = c.numbers
            }
        }
        var result = FilterResult(selection: selection, groups: groups, groupNames: groupNames, totalValues: totalValues,
                                  totalCategories: totalCategories, totalCategoryNames: totalNames, timeProperty: timeProperty)
        result.warnings = settings.types.keys.sorted().compactMap { evaluator.table.mostlyMismatched($0) }
        return result
    }

    private static func unknown(_ name: String, _ evaluator: FilterEvaluator) -> String {
        let names = evaluator.table.names
        if names.isEmpty { return "no property '\(name)': the places have no properties" }
        return "no property '\(name)' (there are: \(names.prefix(12).joined(separator: ", "))\(names.count > 12 ? ", …" : ""))"
    }
}
