import Dispatch
import Foundation

// The kd-sort and the two queries behind `StaticKDTree`, written over raw buffers so that the
// tree can hold `Float` (as the hierarchical clusterer does, to match supercluster's Float32
// trees) or `Double` coordinates.
//
// This is the algorithm of Mapbox `kdbush` v4 operation for operation: the same Floyd–Rivest
// selection, the same swaps, the same traversal order. The clusterer depends on that: the order
// in which a radius query reports neighbours decides the order of floating-point sums and the
// order of items carried to the next level, and `leaves(of:limit:offset:)` pages in that order.

/// Interleaved coordinates (`x0, y0, x1, y1, …`) and the ids that travel with them.
@usableFromInline
struct KDBuffers<Scalar: BinaryFloatingPoint & Sendable>: @unchecked Sendable {
    @usableFromInline let ids: UnsafeMutablePointer<UInt32>
    @usableFromInline let coords: UnsafeMutablePointer<Scalar>

    @inlinable init(ids: UnsafeMutablePointer<UInt32>, coords: UnsafeMutablePointer<Scalar>) {
        self.ids = ids
        self.coords = coords
    }

    @inline(__always) func swapItems(_ i: Int, _ j: Int) {
        let id = ids[i]; ids[i] = ids[j]; ids[j] = id
        // Move a coordinate pair as one unit (one 64-bit word for Float).
        if MemoryLayout<Scalar>.size == 4 {
            let raw = UnsafeMutableRawPointer(coords)
            let a = raw.load(fromByteOffset: 8 * i, as: UInt64.self)
            raw.storeBytes(of: raw.load(fromByteOffset: 8 * j, as: UInt64.self), toByteOffset: 8 * i, as: UInt64.self)
            raw.storeBytes(of: a, toByteOffset: 8 * j, as: UInt64.self)
        } else {
            let x = coords[2 * i]; coords[2 * i] = coords[2 * j]; coords[2 * j] = x
            let y = coords[2 * i + 1]; coords[2 * i + 1] = coords[2 * j + 1]; coords[2 * j + 1] = y
        }
    }

    /// kd-sorts `left...right` so that each node's middle item splits its range on alternating axes.
    func sort(nodeSize: Int, left: Int, right: Int, axis: Int) {
        if right - left <= nodeSize { return }
        let m = (left + right) >> 1
        select(k: m, left: left, right: right, axis: axis)
        sort(nodeSize: nodeSize, left: left, right: m - 1, axis: 1 - axis)
        sort(nodeSize: nodeSize, left: m + 1, right: right, axis: 1 - axis)
    }

    /// Like `sort`, but hands the two halves of the first few splits to separate threads.
    /// The halves are disjoint, so the result is identical to the sequential sort.
    func parallelSort(nodeSize: Int, left: Int, right: Int, axis: Int, depth: Int) {
        if depth <= 0 || right - left < 131_072 {
            sort(nodeSize: nodeSize, left: left, right: right, axis: axis)
            return
        }
        let m = (left + right) >> 1
        select(k: m, left: left, right: right, axis: axis)
        DispatchQueue.concurrentPerform(iterations: 2) { half in
            if half == 0 {
                parallelSort(nodeSize: nodeSize, left: left, right: m - 1, axis: 1 - axis, depth: depth - 1)
            } else {
                parallelSort(nodeSize: nodeSize, left: m + 1, right: right, axis: 1 - axis, depth: depth - 1)
            }
        }
    }

    /// Floyd–Rivest selection: afterwards the items `left..<k` are not greater than item `k`
    /// on `axis`, and the items after it are not smaller.
    func select(k: Int, left leftIn: Int, right rightIn: Int, axis: Int) {
        var left = leftIn
        var right = rightIn
        while right > left {
            if right - left > 600 {
                let n = Double(right - left + 1)
                let m = Double(k - left + 1)
                let z = log(n)
                let s = 0.5 * exp(2 * z / 3)
                let sd = 0.5 * (z * s * (n - s) / n).squareRoot() * (m - n / 2 < 0 ? -1 : 1)
                let kd = Double(k)
                let newLeft = max(left, Int((kd - m * s / n + sd).rounded(.down)))
                let newRight = min(right, Int((kd + (n - m) * s / n + sd).rounded(.down)))
                select(k: k, left: newLeft, right: newRight, axis: axis)
            }
            let t = coords[2 * k + axis]
            var i = left
            var j = right
            swapItems(left, k)
            if coords[2 * right + axis] > t { swapItems(left, right) }
            while i < j {
                swapItems(i, j)
                i += 1
                j -= 1
                while coords[2 * i + axis] < t { i += 1 }
                while coords[2 * j + axis] > t { j -= 1 }
            }
            if coords[2 * left + axis] == t {
                swapItems(left, j)
            } else {
                j += 1
                swapItems(j, right)
            }
            if j <= k { left = j + 1 }
            if k <= j { right = j - 1 }
        }
    }
}

/// Explicit traversal stack for the queries (left, right, axis per entry), as kdbush keeps it.
/// A depth-first walk that pushes two children and pops one never holds more than
/// depth + 1 entries; 64 levels cover any index that fits in memory.
enum KDStack {
    @inline(__always) static func with<R>(_ body: (UnsafeMutablePointer<Int>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * 130) { buf in body(buf.baseAddress!) }
    }
}

/// Read-only view of kd-sorted interleaved coordinates, for the queries.
@usableFromInline
struct KDCoords<Scalar: BinaryFloatingPoint> {
    @usableFromInline let coords: UnsafePointer<Scalar>

    @inlinable init(_ coords: UnsafePointer<Scalar>) { self.coords = coords }
}

extension KDCoords {
    /// Calls `body(position)` for every tree position whose item lies in the box, in kdbush's order.
    @inline(__always)
    func forEachInRange(count: Int, nodeSize: Int, minX: Double, minY: Double, maxX: Double, maxY: Double,
                        _ body: (Int) -> Void) {
        if count == 0 { return }
        KDStack.with { stack in
            var sp = 0
            stack[0] = 0; stack[1] = count - 1; stack[2] = 0; sp = 3
            while sp > 0 {
                let axis = stack[sp - 1], right = stack[sp - 2], left = stack[sp - 3]
                sp -= 3
                if right - left <= nodeSize {
                    var i = left
                    while i <= right {
                        let x = Double(coords[2 * i]), y = Double(coords[2 * i + 1])
                        if x >= minX && x <= maxX && y >= minY && y <= maxY { body(i) }
                        i += 1
                    }
                    continue
                }
                let m = (left + right) >> 1
                let x = Double(coords[2 * m]), y = Double(coords[2 * m + 1])
                if x >= minX && x <= maxX && y >= minY && y <= maxY { body(m) }
                if axis == 0 ? minX <= x : minY <= y {
                    stack[sp] = left; stack[sp + 1] = m - 1; stack[sp + 2] = 1 - axis; sp += 3
                }
                if axis == 0 ? maxX >= x : maxY >= y {
                    stack[sp] = m + 1; stack[sp + 1] = right; stack[sp + 2] = 1 - axis; sp += 3
                }
            }
        }
    }

    /// Calls `body(position)` for every tree position within `r` of (qx, qy), in kdbush's order.
    @inline(__always)
    func forEachWithin(count: Int, nodeSize: Int, qx: Double, qy: Double, r: Double, _ body: (Int) -> Void) {
        if count == 0 { return }
        let r2 = r * r
        KDStack.with { stack in
            var sp = 0
            stack[0] = 0; stack[1] = count - 1; stack[2] = 0; sp = 3
            while sp > 0 {
                let axis = stack[sp - 1], right = stack[sp - 2], left = stack[sp - 3]
                sp -= 3
                if right - left <= nodeSize {
                    var i = left
                    while i <= right {
                        let dx = Double(coords[2 * i]) - qx, dy = Double(coords[2 * i + 1]) - qy
                        if dx * dx + dy * dy <= r2 { body(i) }
                        i += 1
                    }
                    continue
                }
                let m = (left + right) >> 1
                let x = Double(coords[2 * m]), y = Double(coords[2 * m + 1])
                let dx = x - qx, dy = y - qy
                if dx * dx + dy * dy <= r2 { body(m) }
                if axis == 0 ? qx - r <= x : qy - r <= y {
                    stack[sp] = left; stack[sp + 1] = m - 1; stack[sp + 2] = 1 - axis; sp += 3
                }
                if axis == 0 ? qx + r >= x : qy + r >= y {
                    stack[sp] = m + 1; stack[sp + 1] = right; stack[sp + 2] = 1 - axis; sp += 3
                }
            }
        }
    }
}
