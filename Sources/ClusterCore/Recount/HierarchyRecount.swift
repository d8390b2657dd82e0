import Foundation

/// The unfiltered hierarchy of every place, ready to be *recounted* over any subset of them
/// (issue 29 item 3: a first frame for any filter change, shown while the exact build of the
/// subset is made, then replaced by it — SPEC §10 "exact once it settles").
///
/// A recount keeps the unfiltered clusters and gives each one the number, the centroid and the
/// aggregates of its passing members: a cluster with none disappears, one with a single passing
/// member shows as that place. Centroids are made as the build makes them — the mean of the
/// members' projected coordinates (each rounded to `Float`, as the build indexes them), summed
/// in `Double` — so a recounted cluster whose members all pass sits where the build put it.
///
/// Made once per build (projecting every point: O(*n*), 8 bytes a point), then each recount is one
/// pass over the cluster table in creation order (children are always made before their parent),
/// which counts every zoom at once: a zoom change needs no new pass.
public final class HierarchyRecount: @unchecked Sendable {
    /// The unfiltered build recounted.
    public let build: HierarchicalClusterer
    /// Each input point's projected x, y (interleaved, Float as the build rounds them; NaN: invalid).
    let projected: [Float]
    /// Which input points are valid (indexed by the build), for counting the passing ones by words.
    let valid: PointSelection

    /// Readies `build` for recounts.
    /// - Complexity: O(*n*) (the projection, in parallel chunks).
    public init(build: HierarchicalClusterer) {
        self.build = build
        let (projected, validIndices) = HierarchicalClusterer.project(build.coordinates)
        self.projected = projected
        valid = PointSelection(count: build.inputCount, indices: validIndices.lazy.map { Int($0) })
    }

    /// The clusters of `build` recounted over the points `passing` chooses (all when nil; its
    /// count must be the build's input count), aggregating `categories` (−1: none) and `values`
    /// (NaN: none) by input index (empty: none).
    /// - Complexity: O(*c* + *k*) for *c* clusters and *k* child references (at most 3*n* in all).
    public func recount(passing: PointSelection?, categories: [Int32] = [], values: [Double] = []) -> RecountedClusters {
        precondition(passing.map { $0.count == build.inputCount } ?? true, "one selection bit per input point")
        let counts = RecountCounts(self, passing: passing)
        return RecountedClusters(counts: counts, categories: categories, values: values)
    }

    /// The same recount aggregating other inputs (a total's): shares `recounted`'s counts and
    /// centroids, only its own value summaries are made.
    public func sameRecount(as recounted: RecountedClusters, categories: [Int32], values: [Double]) -> RecountedClusters {
        RecountedClusters(counts: recounted.counts, categories: categories, values: values)
    }
}

/// Per cluster of a build: how many passing members it has, the sum of their projected
/// coordinates and one of them (the only one when the count is 1). Immutable once made.
final class RecountCounts: @unchecked Sendable {
    /// One cluster's recount, together: a parent reads all four of each child cluster, so one row
    /// is one cache miss where four columns were four (at 10M the table is far beyond the cache).
    struct Row {
        var x: Double
        var y: Double
        var count: UInt32
        var member: Int32
    }

    let base: HierarchyRecount
    let passing: PointSelection?
    let rows: [Row]
    /// How many input points pass and are valid.
    let passingCount: Int

    init(_ base: HierarchyRecount, passing: PointSelection?) {
        self.base = base
        self.passing = passing
        let build = base.build
        var rows = [Row](repeating: Row(x: 0, y: 0, count: 0, member: -1), count: build.table.rows.count)
        rows.withUnsafeMutableBufferPointer { out in
            let target = Output(rows: out.baseAddress)
            RecountPass.run(build: build, passing: passing) { range, words, children, starts in
                base.projected.withUnsafeBufferPointer { xy in
                    Self.accumulate(range, words: words, children: children, starts: starts, inputCount: build.inputCount,
                                    xy: xy.baseAddress!, out: target)
                }
            }
        }
        self.rows = rows
        var valid = 0
        if let passing {
            // Valid and passing, a word at a time.
            passing.words.withUnsafeBufferPointer { p in
                base.valid.words.withUnsafeBufferPointer { v in
                    for k in 0..<min(p.count, v.count) { valid += (p[k] & v[k]).nonzeroBitCount }
                }
            }
        } else {
            valid = build.inputCount - build.skippedCount
        }
        passingCount = valid
    }

    /// The rows a pass writes (disjoint clusters per thread).
    struct Output: @unchecked Sendable {
        let rows: UnsafeMutablePointer<Row>?
    }

    /// Counts clusters `range`: each sums its children — a passing point, or a cluster counted before.
    private static func accumulate(_ range: Range<Int>, words: UnsafePointer<UInt64>?, children: UnsafePointer<UInt32>,
                                   starts: UnsafePointer<UInt32>, inputCount: Int, xy: UnsafePointer<Float>, out: Output) {
        guard let rows = out.rows else { return }
        for c in range {
            var n: UInt32 = 0, x = 0.0, y = 0.0, one: Int32 = -1
            for k in Int(starts[c])..<Int(starts[c + 1]) {
                let r = Int(children[k])
                if r < inputCount {
                    if let words, words[r >> 6] & (1 << UInt64(r & 63)) == 0 { continue }
                    n += 1
                    x += Double(xy[2 * r])
                    y += Double(xy[2 * r + 1])
                    one = Int32(r)
                } else {
                    let child = rows[r - inputCount]
                    if child.count == 0 { continue }
                    n += child.count
                    x += child.x
                    y += child.y
                    one = child.member
                }
            }
            rows[c] = Row(x: x, y: y, count: n, member: one)
        }
    }
}

/// The pass every recount makes: the clusters zoom by zoom from the deepest (children first), a
/// big zoom's clusters on two threads (a zoom's clusters only read deeper ones).
public enum RecountPass {
    /// Clusters per zoom from which a zoom is split between two threads (the bench sets `Int.max`
    /// to compare one thread).
    nonisolated(unsafe) public static var twoThreadsFrom = 32_768

    static func run(build: HierarchicalClusterer, passing: PointSelection?,
                    _ body: @escaping (Range<Int>, UnsafePointer<UInt64>?, UnsafePointer<UInt32>, UnsafePointer<UInt32>) -> Void) {
        let table = build.table
        guard !table.rows.isEmpty else { return }
        let words = passing?.words ?? []
        words.withUnsafeBufferPointer { w in
        table.childItems.withUnsafeBufferPointer { children in
        table.childStart.withUnsafeBufferPointer { starts in
            let wp = passing == nil ? nil : w.baseAddress
            let ptrs = Pointers(words: wp, children: children.baseAddress!, starts: starts.baseAddress!)
            for k in 0..<(table.zoomStart.count - 1) {
                let lo = table.zoomStart[k], hi = table.zoomStart[k + 1]
                if hi - lo >= twoThreadsFrom {
                    let mid = (lo + hi) / 2
                    let work = SendableWork(body)
                    DispatchQueue.concurrentPerform(iterations: 2) { h in
                        work.body(h == 0 ? lo..<mid : mid..<hi, ptrs.words, ptrs.children, ptrs.starts)
                    }
                } else if hi > lo {
                    body(lo..<hi, ptrs.words, ptrs.children, ptrs.starts)
                }
            }
        }}}
    }

    private struct Pointers: @unchecked Sendable {
        let words: UnsafePointer<UInt64>?
        let children: UnsafePointer<UInt32>
        let starts: UnsafePointer<UInt32>
    }

    private struct SendableWork: @unchecked Sendable {
        let body: (Range<Int>, UnsafePointer<UInt64>?, UnsafePointer<UInt32>, UnsafePointer<UInt32>) -> Void
        init(_ body: @escaping (Range<Int>, UnsafePointer<UInt64>?, UnsafePointer<UInt32>, UnsafePointer<UInt32>) -> Void) {
            self.body = body
        }
    }
}
