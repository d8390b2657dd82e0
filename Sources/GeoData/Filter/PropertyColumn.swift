import ClusterCore

/// One property's values for every place, typed: what filters read.
///
/// Numbers and dates are in `numbers` (dates as UTC seconds), NaN where a place has no usable
/// value. Categories, texts and booleans are codes into `texts` (booleans: 0 "false", 1
/// "true"), −1 where a place has no usable value; a condition on texts is decided once per
/// distinct text, then looked up per place.
public struct PropertyColumn: Sendable {
    /// The property's name.
    public let name: String
    /// The type it is read as.
    public let type: PropertyType
    /// Number and date values per place (NaN: none); empty for other types.
    public let numbers: [Double]
    /// Text codes per place (−1: none); empty for numbers and dates.
    public let codes: [Int32]
    /// The distinct texts codes point at.
    public let texts: [String]
    /// What was found.
    public let profile: PropertyProfile

    init(name: String, type: PropertyType, numbers: [Double], codes: [Int32], texts: [String], profile: PropertyProfile) {
        self.name = name
        self.type = type
        self.numbers = numbers
        self.codes = codes
        self.texts = texts
        self.profile = profile
    }

    /// The number of places.
    public var count: Int { numbers.isEmpty ? codes.count : numbers.count }

    /// Places per distinct text, most common first (ties: first seen first): the checklist's counts.
    /// - Complexity: O(*n*).
    public func textCounts() -> [(text: String, count: Int)] {
        var counts = [Int](repeating: 0, count: texts.count)
        for c in codes where c >= 0 { counts[Int(c)] += 1 }
        return counts.indices.filter { counts[$0] > 0 }
            .sorted { counts[$0] != counts[$1] ? counts[$0] > counts[$1] : $0 < $1 }
            .map { (texts[$0], counts[$0]) }
    }

    /// The smallest and largest number or date, nil when there is none.
    public func numberRange() -> ClosedRange<Double>? {
        var lo = Double.infinity, hi = -Double.infinity
        for v in numbers where !v.isNaN {
            if v < lo { lo = v }
            if v > hi { hi = v }
        }
        return lo <= hi ? lo...hi : nil
    }

    /// Counts of numbers or dates in `bins` equal bins over `range` (a range's small histogram).
    public func histogram(bins: Int, over range: ClosedRange<Double>, selection: PointSelection? = nil) -> [Int] {
        let bins = max(1, bins)
        var out = [Int](repeating: 0, count: bins)
        let width = range.upperBound - range.lowerBound
        for (i, v) in numbers.enumerated() where !v.isNaN && range.contains(v) && (selection?[i] ?? true) {
            let b = width > 0 ? Int((v - range.lowerBound) / width * Double(bins)) : 0
            out[min(bins - 1, max(0, b))] += 1
        }
        return out
    }
}

extension PropertyColumn {
    /// The places whose number or date is in `lower..<upper` (the time bar's window; a pass of
    /// about a millisecond per million places).
    public func selection(from lower: Double, below upper: Double) -> PointSelection {
        FilterEvaluator.select(numbers) { $0 >= lower && $0 < upper }
    }
}
