import Foundation

extension RecountedClusters {
    /// Per cluster of `counts`' build: the passing members with a value (`values`, NaN: none),
    /// their sum, minimum and maximum — one pass over the cluster table, as the counts.
    static func summaries(_ counts: RecountCounts, _ values: [Double])
        -> (count: [UInt32], sum: [Double], min: [Double], max: [Double]) {
        let build = counts.base.build
        let clusters = build.table.rows.count
        var count = [UInt32](repeating: 0, count: clusters)
        var sum = [Double](repeating: 0, count: clusters)
        var low = [Double](repeating: .infinity, count: clusters)
        var high = [Double](repeating: -.infinity, count: clusters)
        count.withUnsafeMutableBufferPointer { cnt in
        sum.withUnsafeMutableBufferPointer { s in
        low.withUnsafeMutableBufferPointer { lo in
        high.withUnsafeMutableBufferPointer { hi in
            let out = Output(count: cnt.baseAddress, sum: s.baseAddress, low: lo.baseAddress, high: hi.baseAddress)
            RecountPass.run(build: build, passing: counts.passing) { range, words, children, starts in
                values.withUnsafeBufferPointer { v in
                    accumulate(range, words: words, children: children, starts: starts, inputCount: build.inputCount,
                               values: v.baseAddress!, out: out)
                }
            }
        }}}}
        return (count, sum, low, high)
    }

    /// The columns a pass writes (disjoint clusters per thread).
    private struct Output: @unchecked Sendable {
        let count: UnsafeMutablePointer<UInt32>?
        let sum: UnsafeMutablePointer<Double>?
        let low: UnsafeMutablePointer<Double>?
        let high: UnsafeMutablePointer<Double>?
    }

    private static func accumulate(_ range: Range<Int>, words: UnsafePointer<UInt64>?, children: UnsafePointer<UInt32>,
                                   starts: UnsafePointer<UInt32>, inputCount: Int, values: UnsafePointer<Double>,
                                   out: Output) {
        guard let count = out.count, let sum = out.sum, let low = out.low, let high = out.high else { return }
        for c in range {
            var n: UInt32 = 0, s = 0.0, lo = Double.infinity, hi = -Double.infinity
            for k in Int(starts[c])..<Int(starts[c + 1]) {
                let r = Int(children[k])
                if r < inputCount {
                    if let words, words[r >> 6] & (1 << UInt64(r & 63)) == 0 { continue }
                    let v = values[r]
                    if v.isNaN { continue }
                    n += 1
                    s += v
                    lo = Swift.min(lo, v)
                    hi = Swift.max(hi, v)
                } else {
                    let cc = r - inputCount
                    if count[cc] == 0 { continue }
                    n += count[cc]
                    s += sum[cc]
                    lo = Swift.min(lo, low[cc])
                    hi = Swift.max(hi, high[cc])
                }
            }
            count[c] = n
            sum[c] = s
            low[c] = lo
            high[c] = hi
        }
    }
}
