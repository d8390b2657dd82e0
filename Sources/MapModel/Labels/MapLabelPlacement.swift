import Foundation

/// One placement of base-map labels (see `MapLabelPlacer`), done in steps: `advance(budget:)`
/// tries at most `budget` candidates and can be called again to go on, so a frame in motion can
/// give a dense street map's two thousand names a share of its time instead of all of it, as
/// MapLibre's placement does. Done in one step or in many, it places the same labels
/// (`MapLabelPlacementTests`).
///
/// How it stays cheap: the collision test uses a flat grid over the region (`RegionGrid`), the
/// repeated-name test hashes texts' bytes (`LineNameAnchors`), the overlay's candidates are taken
/// by their rank instead of looked up by id, and the sets for kept labels are only made when
/// there is something to keep.
public struct MapLabelPlacement {
    /// One entry of the placement order: a built-in candidate (`rank` −1) or the overlay's
    /// candidate at `rank`, in world copy `copy`.
    private struct Entry {
        var id: Int, copy: Int, rank: Int
    }

    private let placer: MapLabelPlacer
    private let index: MapLabelIndex
    private let overlayCandidates: [MapLabelCandidate]
    private let overlayTextKeys: [Int]
    /// The zoom and world-pixel region placed.
    public let zoom: Double
    public let minX: Double, minY: Double, maxX: Double, maxY: Double
    /// The overlay's revision when the placement started (nil: none).
    public let overlayRevision: Int?
    private let worldSize: Double
    private var order: [Entry] = []
    private var next = 0
    private var grid: RegionGrid
    private var lineNames: LineNameAnchors
    private var kept = Set<Int64>()
    /// The labels placed so far, in priority order (kept labels first).
    public private(set) var placed: [PlacedMapLabel] = []
    /// Candidates left out so far because their texts had no size yet.
    public private(set) var unmeasured = 0
    /// Whether every candidate has been tried.
    public var isDone: Bool { next >= order.count }
    /// Whether the placement is for a camera at rest: then a name is shown fully or not at all
    /// (those at least `MapLabelCandidate.restingAlpha` into their fade, at full opacity), where
    /// in motion names fade by zoom.
    public let atRest: Bool

    /// Starts a placement of `index`'s candidates (and `overlay`'s, first) anchored in the region
    /// at `zoom`, keeping the `previous` labels anchored in it (see `MapLabelPlacer.place`).
    public init(placer: MapLabelPlacer, index: MapLabelIndex, overlay: MapLabelOverlay?, zoom: Double,
                minX: Double, minY: Double, maxX: Double, maxY: Double, keeping previous: [PlacedMapLabel],
                atRest: Bool = false) {
        self.placer = placer
        self.atRest = atRest
        self.index = index
        self.zoom = zoom
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
        overlayRevision = overlay?.revision
        overlayCandidates = overlay?.candidates ?? []
        overlayTextKeys = overlay?.textKeys ?? []
        worldSize = 256 * exp2(zoom)
        grid = RegionGrid(cellSize: 64, minX: minX, minY: minY, maxX: maxX, maxY: maxY)
        lineNames = LineNameAnchors(distance: placer.repeatDistance)
        var order: [Entry] = []
        var overlayOrder: [Entry] = []
        let firstCopy = Int((minX / worldSize).rounded(.down)), lastCopy = Int((maxX / worldSize).rounded(.down))
        for k in firstCopy...max(firstCopy, lastCopy) {
            let offset = Double(k) * worldSize
            let x0 = max(0, (minX - offset) / worldSize), x1 = min(1, (maxX - offset) / worldSize)
            let y0 = max(0, minY / worldSize), y1 = min(1, maxY / worldSize)
            guard x0 <= x1 else { continue }
            for id in index.candidates(inUnitBox: x0, y0, x1, y1, zoom: zoom) {
                if let overlay, !overlay.covered.isEmpty {
                    let c = index.candidates[id]
                    if overlay.covers(x: c.x, y: c.y) { continue }
                }
                order.append(Entry(id: id, copy: k, rank: -1))
            }
            for (rank, c) in overlayCandidates.enumerated() where c.x >= x0 && c.x <= x1 && c.y >= y0 && c.y <= y1
                && zoom > c.minZoom - MapLabelCandidate.fadeZooms && zoom < c.maxZoom {
                overlayOrder.append(Entry(id: c.id, copy: k, rank: rank))
            }
        }
        // Priority first; the same label's copies side by side (west first). The overlay's names
        // come before the built-in ones.
        order.sort { $0.id != $1.id ? $0.id < $1.id : $0.copy < $1.copy }
        if !overlayOrder.isEmpty {
            overlayOrder.sort { $0.rank != $1.rank ? $0.rank < $1.rank : $0.copy < $1.copy }
            order = overlayOrder + order
        }
        if order.count > placer.maxCandidates { order.removeLast(order.count - placer.maxCandidates) }
        self.order = order
        if !previous.isEmpty {
            let inRegion = Set(order.map { Self.key($0.id, $0.copy) })
            let r = placer.dotRadius
            for var p in previous where inRegion.contains(Self.key(p.id, p.copy)) {
                // (At rest a name faint in the placement before is left out, the rest shown fully.)
                if atRest {
                    guard p.alpha >= MapLabelCandidate.restingAlpha else { continue }
                    p.alpha = 1
                }
                var hit = Box(minX: p.minX, minY: p.minY, maxX: p.maxX, maxY: p.maxY)
                if let d = p.dot { hit = hit.union(Box(minX: d.x - r, minY: d.y - r, maxX: d.x + r, maxY: d.y + r)) }
                grid.insert(hit)
                placed.append(p)
                kept.insert(Self.key(p.id, p.copy))
            }
        }
        for p in placed where p.kind.repeatsAlongLines { lineNames.add(p.text, key: LineNameAnchors.key(p.text), x: p.anchorX, y: p.anchorY) }
    }

    private static func key(_ id: Int, _ copy: Int) -> Int64 { Int64(id) << 16 ^ Int64(copy & 0xFFFF) }

    /// Tries the next `budget` candidates in priority order, each at its positions, keeping it at
    /// the first whose padded box meets nothing kept before. `sizeOfCandidate` gives nil for a
    /// text not measured yet: that candidate is left out and counted in `unmeasured`.
    public mutating func advance(budget: Int, sizeOfCandidate: (Int, MapLabelCandidate) -> MapLabelSize?) {
        let end = order.count - next <= budget ? order.count : next + budget
        let padding = placer.padding, r = placer.dotRadius
        while next < end {
            let e = order[next]
            next += 1
            if !kept.isEmpty, kept.contains(Self.key(e.id, e.copy)) { continue }
            let c = e.rank >= 0 ? overlayCandidates[e.rank] : index.candidates[e.id]
            var alpha = c.alpha(atZoom: zoom)
            guard alpha > 0 else { continue }
            if atRest {
                guard alpha >= MapLabelCandidate.restingAlpha else { continue }
                alpha = 1
            }
            let ax = (c.x + Double(e.copy)) * worldSize, ay = c.y * worldSize
            // (The overlay's names come with their text keys; a built-in river's is made here.)
            let textKey = c.kind.repeatsAlongLines ? (e.rank >= 0 ? overlayTextKeys[e.rank] : LineNameAnchors.key(c.text)) : 0
            if c.kind.repeatsAlongLines, lineNames.hasNear(c.text, key: textKey, x: ax, y: ay) { continue }
            guard let s = sizeOfCandidate(e.id, c) else { unmeasured += 1; continue }
            for i in 0..<placer.positionCount(c.kind) {
                let box = placer.position(i, for: c, anchorX: ax, anchorY: ay, size: s)
                let padded = Box(minX: box.minX - padding, minY: box.minY - padding,
                                 maxX: box.maxX + padding, maxY: box.maxY + padding)
                guard !grid.hits(padded) else { continue }
                var hit = box
                if c.kind.isPointLabel {  // the dot is part of what must stay clear
                    hit = hit.union(Box(minX: ax - r, minY: ay - r, maxX: ax + r, maxY: ay + r))
                }
                grid.insert(hit)
                placed.append(PlacedMapLabel(id: e.id, copy: e.copy, text: c.text, kind: c.kind, minX: box.minX, minY: box.minY,
                                             maxX: box.maxX, maxY: box.maxY,
                                             dot: c.kind.isPointLabel ? (ax, ay) : nil, anchorX: ax, anchorY: ay,
                                             alpha: alpha, angle: c.angle))
                if c.kind.repeatsAlongLines { lineNames.add(c.text, key: textKey, x: ax, y: ay) }
                break
            }
        }
    }
}
