import Dispatch

/// The serial passes of a subset build over all its chosen points — listing them, and copying
/// their coordinates (and aggregate inputs) for the group's index — on two threads for big
/// subsets (at 10M points each was a pass of tens of milliseconds on the critical path). The
/// arrays are the same as the one-thread loops give (`PreparedPointsTests` compares).
extension SubsetClusterer {
    /// Subsets from this many points list and copy them on two threads.
    static let parallelFrom = 65_536

    /// The input indices of the chosen points (all `n` when `selection` is nil), ascending; in
    /// `parts` parts of whole words (nil: two for big inputs), each on its own thread.
    static func chosenMembers(_ selection: PointSelection?, count n: Int, parts wanted: Int? = nil) -> [Int32] {
        let m = selection?.chosenCount ?? n
        let words = selection?.words ?? []
        let wordCount = selection == nil ? (n + 63) >> 6 : words.count
        let parts = max(1, min(wanted ?? (m >= parallelFrom ? 2 : 1), max(wordCount, 1)))
        // Where each part starts writing: the chosen points in the words before it.
        var first = [Int](repeating: 0, count: parts + 1)
        for h in 0..<parts {
            let lo = wordCount * h / parts, hi = wordCount * (h + 1) / parts
            if selection == nil {
                first[h + 1] = min(n, hi << 6)
            } else {
                var c = 0
                for w in lo..<hi { c += words[w].nonzeroBitCount }
                first[h + 1] = first[h] + c
            }
        }
        let starts = first
        return [Int32](unsafeUninitializedCapacity: m) { out, c in
            let o = SendablePointer(out.baseAddress)
            words.withUnsafeBufferPointer { ws in
                let ws = SendableConstPointer(ws.baseAddress)
                DispatchQueue.concurrentPerform(iterations: parts) { h in
                    guard let out = o.pointer else { return }
                    var k = starts[h]
                    let lo = wordCount * h / parts, hi = wordCount * (h + 1) / parts
                    // (An empty array's buffer may have a base address: test for no selection itself.)
                    guard selection != nil, let ws = ws.pointer else {
                        for i in min(n, lo << 6)..<min(n, hi << 6) { out[i] = Int32(truncatingIfNeeded: i) }
                        return
                    }
                    for w in lo..<hi {
                        var bits = ws[w]
                        while bits != 0 {
                            out[k] = Int32(truncatingIfNeeded: w << 6 | bits.trailingZeroBitCount)
                            bits &= bits &- 1
                            k += 1
                        }
                    }
                }
            }
            c = m
        }
    }

    /// `values[members[j]]` for every j; in `parts` parts (nil: two for big inputs), each on its
    /// own thread. Empty `values` give an empty array (an input that isn't there).
    static func gather<T>(_ values: [T], at members: [Int32], parts wanted: Int? = nil) -> [T] {
        guard !values.isEmpty else { return [] }
        let m = members.count
        let parts = max(1, min(wanted ?? (m >= parallelFrom ? 2 : 1), max(m, 1)))
        return [T](unsafeUninitializedCapacity: m) { out, c in
            let o = SendablePointer(out.baseAddress)
            values.withUnsafeBufferPointer { vs in
            members.withUnsafeBufferPointer { ms in
                let vs = SendableConstPointer(vs.baseAddress), ms = SendableConstPointer(ms.baseAddress)
                DispatchQueue.concurrentPerform(iterations: parts) { h in
                    guard let out = o.pointer, let vs = vs.pointer, let ms = ms.pointer else { return }
                    for j in (m * h / parts)..<(m * (h + 1) / parts) {
                        (out + j).initialize(to: vs[Int(ms[j])])
                    }
                }
            }}
            c = m
        }
    }
}
