import Foundation

extension RecountedClusters {
    /// Per cluster: the passing members with a value, their sum, minimum and maximum.
    struct ValueRow {
        var sum: Double
        var low: Double
        var high: Double
        var count: UInt32
    }

    /// Per cluster of `counts`' build: the passing members' value summaries (`values`, NaN: none)
    /// — one pass over the cluster table, as the counts.
    static func summaries(_ counts: RecountCounts, _ values: [Double]) -> [ValueRow] {
        let build = counts.base.build
        var rows = [ValueRow](repeating: ValueRow(sum: 0, low: .infinity, high: -.infinity, count: 0), count: build.table.rows.count)
        rows.withUnsafeMutableBufferPointer { out in
            let target = Output(rows: out.baseAddress)
            RecountPass.run(build: build, passing: counts.passing) { range, words, children, starts in
                values.withUnsafeBufferPointer { v in
                    accumulate(range, words: words, children: children, starts: starts, inputCount: build.inputCount,
                               values: v.baseAddress!, out: target)
                }
            }
        }
        return rows
    }

    /// The rows a pass writes (disjoint clusters per thread).
    private struct Output: @unchecked Sendable {
        let rows: UnsafeMutablePointer<ValueRow>?
    }

    private static func accumulate(_ range: Range<Int>, words: UnsafePointer<UInt64>?, children: UnsafePointer<UInt32>,
                                   starts: UnsafePointer<UInt32>, inputCount: Int, values: UnsafePointer<Double>,
                                   out: Output) {
        guard let rows = out.rows else { return }
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
                    let child = rows[r - inputCount]
                    if child.count == 0 { continue }
                    n += child.count
                    s += child.sum
                    lo = Swift.min(lo, child.low)
                    hi = Swift.max(hi, child.high)
                }
            }
            rows[c] = ValueRow(sum: s, low: lo, high: hi, count: n)
        }
    }
}
