/// What a bubble totals of its places: a numeric property's sum, mean, minimum or maximum, or
/// the most common value of a category.
public enum ClusterTotal: String, Sendable, CaseIterable, Codable {
    case sum, mean
    case minimum = "min"
    case maximum = "max"
    case mostCommon = "most-common"

    /// Whether the total reads a category (else a number).
    public var readsCategory: Bool { self == .mostCommon }

    /// The total from an item's aggregates (numbers), nil when no member has a value.
    /// `mostCommon` gives the category number (as a Double).
    public func value(of a: ClusterAggregates) -> Double? {
        switch self {
        case .sum: return a.valueCount > 0 ? a.sum : nil
        case .mean: return a.mean
        case .minimum: return a.minimum
        case .maximum: return a.maximum
        case .mostCommon: return a.dominantCategory.map(Double.init)
        }
    }

    /// The total abbreviated like counts (`1.2k`, `15k`, `1.2M`), for the bubble: at most three
    /// significant digits below 1,000 too (`842`, `45.6`, `6.25`; under 1, two decimals), so a
    /// bubble's number stays as short as a count's. The exact value is in the tooltip and card.
    public static func abbreviated(_ v: Double) -> String {
        guard v.isFinite else { return "–" }
        let sign = v < 0 ? "-" : ""
        let a = abs(v)
        if a >= 999.5, a < 1e15 { return sign + abbreviatedCount(Int(a.rounded())) }
        let decimals = a >= 99.95 ? 0 : a >= 9.995 ? 1 : 2
        let scale = [1.0, 10, 100][decimals]
        let r = (a * scale).rounded() / scale
        if r == 0 { return "0" }
        if r == r.rounded() { return sign + String(Int(r)) }
        var s = String(r)
        if s.hasSuffix(".0") { s.removeLast(2) }
        return sign + s
    }
}
