/// Counts of places over time in equal bins, the time bar's background; also maps times to
/// positions along the bar (and back) so drawing and clicking agree.
public struct TimeHistogram: Equatable, Sendable {
    /// Places per bin, oldest first.
    public let counts: [Int]
    /// The first and last time (UTC seconds).
    public let extent: ClosedRange<Double>

    /// A histogram of `counts` (at least one bin) over `extent`.
    public init(counts: [Int], extent: ClosedRange<Double>) {
        self.counts = counts.isEmpty ? [0] : counts
        self.extent = extent
    }

    /// Counts `times` (NaN: none) in `bins` equal bins over `extent`.
    public init(times: [Double], bins: Int, extent: ClosedRange<Double>) {
        var out = [Int](repeating: 0, count: max(1, bins))
        let width = extent.upperBound - extent.lowerBound
        for t in times where extent.contains(t) {
            let b = width > 0 ? Int((t - extent.lowerBound) / width * Double(out.count)) : 0
            out[min(out.count - 1, max(0, b))] += 1
        }
        self.init(counts: out, extent: extent)
    }

    /// The extent's length in seconds (at least one).
    public var span: Double { max(1, extent.upperBound - extent.lowerBound) }

    /// The largest bin.
    public var maxCount: Int { counts.max() ?? 0 }

    /// The share 0…1 along the bar of `time` (clamped).
    public func fraction(of time: Double) -> Double {
        min(1, max(0, (time - extent.lowerBound) / span))
    }

    /// The time at share `fraction` along the bar.
    public func time(at fraction: Double) -> Double {
        extent.lowerBound + min(1, max(0, fraction)) * span
    }

    /// Each bin's height 0…1 (of the largest), for drawing; a bin with any place is at least
    /// `minimum` high so a lone event is not lost.
    public func heights(minimum: Double = 0.06) -> [Double] {
        let top = Double(max(1, maxCount))
        return counts.map { $0 == 0 ? 0 : max(minimum, Double($0) / top) }
    }

    /// How many places fall in `range` by whole bins (for the bar's spoken summary): bins whose
    /// middle is inside the range.
    public func approximateCount(in range: Range<Double>) -> Int {
        let w = span / Double(counts.count)
        var n = 0
        for (i, c) in counts.enumerated() where range.contains(extent.lowerBound + (Double(i) + 0.5) * w) { n += c }
        return n
    }
}
