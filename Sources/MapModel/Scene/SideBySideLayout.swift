import Foundation

/// Puts marks that would overlap side by side (SPEC §10 "by category": bubbles of different
/// categories at nearly the same spot sit next to each other, never on top of each other).
///
/// Marks are circles. Those that overlap (with `gap`) form a group; a group is packed around
/// where its marks are — the largest stays at its own spot, each next one goes to the free
/// position nearest its own — and groups that then touch are merged and packed again, until no
/// two marks overlap. Pure and translation-invariant: panning moves every mark alike, so a
/// layout doesn't jitter while the map moves.
public struct SideBySideLayout: Sendable {
    /// Pixels kept between two marks.
    public var gap: Double = 2
    /// Directions tried around each placed mark (every 15°).
    static let directions = 24

    /// A layout keeping `gap` pixels between marks.
    public init(gap: Double = 2) { self.gap = gap }

    /// New centres for `circles` (same order) so that no two are closer than their radii plus
    /// `gap`; circles already apart keep their centres.
    /// - Complexity: about O(n) for scattered marks; O(k³) for k marks at one spot (k is the
    ///   number of categories there; over 64 they are packed on a hexagonal grid instead).
    public func centres(of circles: [(center: ScreenPoint, radius: Double)]) -> [ScreenPoint] {
        let n = circles.count
        var out = circles.map(\.center)
        guard n > 1 else { return out }
        var sets = UnionFind(n)
        let radii = circles.map(\.radius)
        while true {
            var merged = false
            for (a, b) in overlappingPairs(out, radii) where sets.find(a) != sets.find(b) {
                sets.union(a, b)
                merged = true
            }
            guard merged else { break }
            // Every group packs again from its marks' own spots (deterministic, so a group that
            // didn't change lands where it was).
            var members: [Int: [Int]] = [:]
            for i in 0..<n { members[sets.find(i), default: []].append(i) }
            for m in members.values where m.count > 1 {
                let placed = pack(m.map { circles[$0] })
                for (k, i) in m.enumerated() { out[i] = placed[k] }
            }
        }
        return out
    }

    /// Packs one group's circles: largest first at its own spot, then each at the free place
    /// nearest its own spot.
    func pack(_ circles: [(center: ScreenPoint, radius: Double)]) -> [ScreenPoint] {
        let order = circles.indices.sorted {
            circles[$0].radius != circles[$1].radius ? circles[$0].radius > circles[$1].radius : $0 < $1
        }
        if circles.count > 64 { return hexPack(circles, order: order) }
        // Worked out relative to the largest mark, so that a panned pile rounds alike and picks
        // the same places (ties go to the first candidate by more than rounding).
        let origin = circles[order[0]].center
        var placed: [(center: ScreenPoint, radius: Double)] = []
        var out = circles.map(\.center)
        for i in order {
            let want = ScreenPoint(x: circles[i].center.x - origin.x, y: circles[i].center.y - origin.y), r = circles[i].radius
            func free(_ p: ScreenPoint) -> Bool {
                placed.allSatisfy { q in
                    let dx = p.x - q.center.x, dy = p.y - q.center.y, d = q.radius + r + gap
                    return dx * dx + dy * dy >= d * d - 1e-6
                }
            }
            var best = want
            if !free(want) {
                var bestDistance = Double.infinity
                for q in placed {
                    let d = q.radius + r + gap + 1e-6
                    for k in 0..<SideBySideLayout.directions {
                        let a = Double(k) * 2 * Double.pi / Double(SideBySideLayout.directions)
                        let p = ScreenPoint(x: q.center.x + d * sin(a), y: q.center.y - d * cos(a))
                        let dx = p.x - want.x, dy = p.y - want.y
                        let e = dx * dx + dy * dy
                        if e < bestDistance - 1e-6 && free(p) { bestDistance = e; best = p }
                    }
                }
                if bestDistance == .infinity {
                    // Always free: outside every placed circle, seen from the first one.
                    let c = placed[0].center
                    let reach = placed.map { hypot($0.center.x - c.x, $0.center.y - c.y) + $0.radius }.max()!
                    best = ScreenPoint(x: c.x + reach + r + gap + 1, y: c.y)
                }
            }
            out[i] = ScreenPoint(x: best.x + origin.x, y: best.y + origin.y)
            placed.append((best, r))
        }
        return out
    }

    /// Many marks at one spot: a hexagonal grid around their middle, nearest cells to the
    /// largest marks.
    private func hexPack(_ circles: [(center: ScreenPoint, radius: Double)], order: [Int]) -> [ScreenPoint] {
        let step = 2 * (circles.map(\.radius).max() ?? 0) + gap + 1e-6
        let cx = circles.reduce(0) { $0 + $1.center.x } / Double(circles.count)
        let cy = circles.reduce(0) { $0 + $1.center.y } / Double(circles.count)
        let rings = Int(Double(circles.count).squareRoot()) + 2
        // Offsets from the middle (the same numbers wherever the pile is, so ties sort alike).
        var cells: [ScreenPoint] = []
        for row in -rings...rings {
            for col in -rings...rings {
                cells.append(ScreenPoint(x: (Double(col) + (row & 1 == 0 ? 0 : 0.5)) * step, y: Double(row) * step * 0.8660254037844386))
            }
        }
        cells.sort { a, b in
            let da = a.x * a.x + a.y * a.y, db = b.x * b.x + b.y * b.y
            return da != db ? da < db : (a.y != b.y ? a.y < b.y : a.x < b.x)
        }
        cells = cells.map { ScreenPoint(x: $0.x + cx, y: $0.y + cy) }
        var out = circles.map(\.center)
        for (k, i) in order.enumerated() { out[i] = cells[k] }
        return out
    }

    /// Pairs of circles closer than their radii plus `gap` (a grid of cells as big as the
    /// largest circle, so only neighbours are compared).
    public func overlappingPairs(_ centres: [ScreenPoint], _ radii: [Double]) -> [(Int, Int)] {
        let cell = max(1, 2 * (radii.max() ?? 1) + gap)
        var grid: [SIMD2<Int>: [Int]] = [:]
        for (i, p) in centres.enumerated() {
            grid[SIMD2(Int((p.x / cell).rounded(.down)), Int((p.y / cell).rounded(.down))), default: []].append(i)
        }
        var pairs: [(Int, Int)] = []
        for (i, p) in centres.enumerated() {
            let gx = Int((p.x / cell).rounded(.down)), gy = Int((p.y / cell).rounded(.down))
            for dx in -1...1 {
                for dy in -1...1 {
                    for j in grid[SIMD2(gx + dx, gy + dy)] ?? [] where j > i {
                        let ex = centres[j].x - p.x, ey = centres[j].y - p.y, d = radii[i] + radii[j] + gap
                        if ex * ex + ey * ey < d * d - 1e-3 { pairs.append((i, j)) }
                    }
                }
            }
        }
        return pairs
    }
}

/// Disjoint sets of mark indices (path halving).
private struct UnionFind {
    var parent: [Int]
    init(_ n: Int) { parent = Array(0..<n) }
    mutating func find(_ i: Int) -> Int {
        var i = i
        while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
        return i
    }
    mutating func union(_ a: Int, _ b: Int) {
        let ra = find(a), rb = find(b)
        if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
    }
}

extension Scene {
    /// Moves bubbles and pins that overlap side by side (`SideBySideLayout`), and the focus ring
    /// with its item. For grouped clusters, whose categories' bubbles can share a spot.
    public mutating func placeSideBySide(style: BubbleStyle, layout: SideBySideLayout = SideBySideLayout()) {
        let marks = bubbles.map { (center: $0.center, radius: $0.radius * $0.scale) }
            + pins.map { (center: $0.center, radius: style.pinRadius) }
        guard marks.count > 1 else { return }
        let moved = layout.centres(of: marks)
        for i in bubbles.indices { bubbles[i].center = moved[i] }
        for i in pins.indices {
            let to = moved[bubbles.count + i]
            // The callout stays on its pin.
            if var c = callout, c.pointIndex == pins[i].pointIndex, pins[i].isSelected {
                let dx = to.x - pins[i].center.x, dy = to.y - pins[i].center.y
                c.frame.x += dx; c.frame.y += dy
                c.anchor = ScreenPoint(x: c.anchor.x + dx, y: c.anchor.y + dy)
                callout = c
            }
            pins[i].center = to
        }
        if let f = focusRing {
            if let b = bubbles.first(where: { $0.id == f.id }) { focusRing?.center = b.center }
            if let p = pins.first(where: { $0.id == f.id }) { focusRing?.center = p.center }
        }
    }
}
