/// How many members of a cluster carry one category.
public struct CategoryCount: Hashable, Sendable {
    /// The category number given for the points (0 or more).
    public var category: Int32
    /// How many member points have it.
    public var count: Int

    public init(category: Int32, count: Int) {
        self.category = category
        self.count = count
    }
}

/// Summaries of a cluster's members (or of a single point), for colouring and callouts.
public struct ClusterAggregates: Hashable, Sendable {
    /// The number of member points.
    public var count: Int
    /// Members per category, most frequent first (ties: lower category first). Points without a
    /// category are not listed.
    public var categoryCounts: [CategoryCount]
    /// The number of members with a numeric value.
    public var valueCount: Int
    /// The smallest numeric value, nil when no member has one.
    public var minimum: Double?
    /// The largest numeric value, nil when no member has one.
    public var maximum: Double?
    /// The sum of the numeric values (0 when no member has one).
    public var sum: Double

    public init(count: Int, categoryCounts: [CategoryCount] = [], valueCount: Int = 0,
                minimum: Double? = nil, maximum: Double? = nil, sum: Double = 0) {
        self.count = count
        self.categoryCounts = categoryCounts
        self.valueCount = valueCount
        self.minimum = minimum
        self.maximum = maximum
        self.sum = sum
    }

    /// The mean of the numeric values, nil when no member has one.
    public var mean: Double? { valueCount > 0 ? sum / Double(valueCount) : nil }

    /// The most frequent category, nil when no member has one.
    public var dominantCategory: Int32? { categoryCounts.first?.category }

    /// Aggregates of one point with an optional category (−1: none) and value (NaN: none).
    public static func single(category: Int32, value: Double) -> ClusterAggregates {
        let hasValue = !value.isNaN
        return ClusterAggregates(
            count: 1,
            categoryCounts: category >= 0 ? [CategoryCount(category: category, count: 1)] : [],
            valueCount: hasValue ? 1 : 0,
            minimum: hasValue ? value : nil, maximum: hasValue ? value : nil, sum: hasValue ? value : 0)
    }
}
