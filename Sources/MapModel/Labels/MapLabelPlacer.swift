import Foundation

/// A base-map label that won its place: its text box in world pixels of the placement zoom.
public struct PlacedMapLabel: Sendable, Equatable {
    public var id: Int
    /// Which world copy the label was placed in (0 is the copy at world pixels 0…worldSize).
    public var copy: Int
    public var text: String
    public var kind: MapLabelKind
    /// Text box in world pixels (x not wrapped: it belongs to the world copy it was placed in).
    public var minX: Double, minY: Double, maxX: Double, maxY: Double
    /// The marked point (for point labels: cities with a dot), in world pixels.
    public var dot: (x: Double, y: Double)?
    /// The candidate's anchor in world pixels (the dot, or the point a centred name is placed around).
    public var anchorX: Double, anchorY: Double
    /// Opacity from the zoom fade.
    public var alpha: Double
    /// Direction of the text (radians); the box is the one around the turned text.
    public var angle: Double = 0

    public static func == (a: PlacedMapLabel, b: PlacedMapLabel) -> Bool {
        a.id == b.id && a.copy == b.copy && a.text == b.text && a.kind == b.kind && a.minX == b.minX && a.minY == b.minY
            && a.maxX == b.maxX && a.maxY == b.maxY && a.dot?.x == b.dot?.x && a.dot?.y == b.dot?.y && a.alpha == b.alpha
            && a.angle == b.angle
    }
}

/// Places base-map labels without overlaps, most important first.
///
/// Greedy placement in priority order (as MapLibre's and Mapnik's placement do): a candidate is
/// tried at its positions (centred; or right, left, above, below its dot) and kept at the first
/// whose box, grown by `padding`, meets no box kept before it. Everything is in world pixels of one
/// zoom over a region, so a label's fate depends only on the more important labels near it, not on
/// where the viewport is: panning a pixel moves every label by a pixel and changes nothing else.
public struct MapLabelPlacer: Sendable {
    /// Empty space kept around every label, logical pixels.
    public var padding = 3.0
    /// Radius of a point label's dot, and the gap between the dot and the text.
    public var dotRadius = 2.5
    public var dotGap = 3.0
    /// Upper bound on the candidates tried in one placement (keeps a frame bounded in dense data).
    public var maxCandidates = 4000
    /// A river or street name is not repeated closer than this (logical pixels) to the same name
    /// placed before (long rivers offer several places; neighbouring tiles name the same street).
    public var repeatDistance = 250.0

    public init() {}

    /// Places the candidates of `index` anchored in the world-pixel region (at `zoom`; x may run
    /// past the world's edges, covering its copies). `size(id)` gives a label's text size.
    ///
    /// `overlay` names (a street map's) are placed first; built-in candidates anchored where the
    /// overlay covers give way to them.
    ///
    /// `keeping` are labels placed before at the same zoom (e.g. for a region the view just left):
    /// those anchored in the new region keep their places before anything else is placed, so a
    /// label on screen never disappears or jumps when panning moves the placement region.
    public func place(_ index: MapLabelIndex, overlay: MapLabelOverlay? = nil, zoom: Double,
                      minX: Double, minY: Double, maxX: Double, maxY: Double,
                      keeping previous: [PlacedMapLabel] = [],
                      size: (Int) -> MapLabelSize) -> [PlacedMapLabel] {
        place(index, overlay: overlay, zoom: zoom, minX: minX, minY: minY, maxX: maxX, maxY: maxY, keeping: previous,
              sizeIfMeasured: { size($0) }).labels
    }

    /// As `place(_:overlay:zoom:minX:minY:maxX:maxY:keeping:size:)`, but a candidate whose text has
    /// no size yet (`sizeIfMeasured` gives nil: it is being measured elsewhere) is left out, as if
    /// it were not there, and counted in `unmeasured`: the placement is then incomplete, to be done
    /// again once the sizes are known (see `MapLabelLayout`).
    public func place(_ index: MapLabelIndex, overlay: MapLabelOverlay? = nil, zoom: Double,
                      minX: Double, minY: Double, maxX: Double, maxY: Double,
                      keeping previous: [PlacedMapLabel] = [],
                      sizeIfMeasured: (Int) -> MapLabelSize?) -> (labels: [PlacedMapLabel], unmeasured: Int) {
        let worldSize = 256 * exp2(zoom)
        var order: [(id: Int, copy: Int)] = []
        // With each name's place in the overlay's priority order (its index), so that sorting
        // compares integers instead of looking both ranks up in a dictionary per comparison.
        var overlayOrder: [(rank: Int, id: Int, copy: Int)] = []
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
                order.append((id, k))
            }
            for (rank, c) in (overlay?.candidates ?? []).enumerated() where c.x >= x0 && c.x <= x1 && c.y >= y0 && c.y <= y1
                && zoom > c.minZoom - MapLabelCandidate.fadeZooms && zoom < c.maxZoom {
                overlayOrder.append((rank, c.id, k))
            }
        }
        // Priority first; the same label's copies side by side (west first). The overlay's names
        // come before the built-in ones.
        order.sort { $0.id != $1.id ? $0.id < $1.id : $0.copy < $1.copy }
        if !overlayOrder.isEmpty {
            overlayOrder.sort { $0.rank != $1.rank ? $0.rank < $1.rank : $0.copy < $1.copy }
            order = overlayOrder.map { (id: $0.id, copy: $0.copy) } + order
        }
        func candidate(_ id: Int) -> MapLabelCandidate {
            id >= 0 ? index.candidates[id] : overlay!.candidate(id: id)!
        }
        var grid = CollisionGrid(cellSize: 64)
        var placed: [PlacedMapLabel] = []
        var kept = Set<Int64>()
        func key(_ id: Int, _ copy: Int) -> Int64 { Int64(id) << 16 ^ Int64(copy & 0xFFFF) }
        let inRegion = Set(order.map { key($0.id, $0.copy) })
        for p in previous where inRegion.contains(key(p.id, p.copy)) {
            var hit = Box(minX: p.minX, minY: p.minY, maxX: p.maxX, maxY: p.maxY)
            if let d = p.dot { hit = hit.union(Box(minX: d.x - dotRadius, minY: d.y - dotRadius, maxX: d.x + dotRadius, maxY: d.y + dotRadius)) }
            grid.insert(hit)
            placed.append(p)
            kept.insert(key(p.id, p.copy))
        }
        // Anchors of the river and street names placed so far, by text.
        var lineNames: [String: [(x: Double, y: Double)]] = [:]
        var unmeasured = 0
        for p in placed where p.kind.repeatsAlongLines { lineNames[p.text, default: []].append((p.anchorX, p.anchorY)) }
        for (id, copy) in order.prefix(maxCandidates) where !kept.contains(key(id, copy)) {
            let c = candidate(id)
            let alpha = c.alpha(atZoom: zoom)
            guard alpha > 0 else { continue }
            let ax = (c.x + Double(copy)) * worldSize, ay = c.y * worldSize
            if c.kind.repeatsAlongLines, let others = lineNames[c.text],
               others.contains(where: { hypot($0.x - ax, $0.y - ay) < repeatDistance }) { continue }
            guard let s = sizeIfMeasured(id) else { unmeasured += 1; continue }
            for box in positions(for: c, anchorX: ax, anchorY: ay, size: s) {
                let padded = Box(minX: box.minX - padding, minY: box.minY - padding,
                                 maxX: box.maxX + padding, maxY: box.maxY + padding)
                guard !grid.hits(padded) else { continue }
                var hit = box
                if c.kind.isPointLabel {  // the dot is part of what must stay clear
                    hit = hit.union(Box(minX: ax - dotRadius, minY: ay - dotRadius, maxX: ax + dotRadius, maxY: ay + dotRadius))
                }
                grid.insert(hit)
                placed.append(PlacedMapLabel(id: id, copy: copy, text: c.text, kind: c.kind, minX: box.minX, minY: box.minY,
                                             maxX: box.maxX, maxY: box.maxY,
                                             dot: c.kind.isPointLabel ? (ax, ay) : nil, anchorX: ax, anchorY: ay,
                                             alpha: alpha, angle: c.angle))
                if c.kind.repeatsAlongLines { lineNames[c.text, default: []].append((ax, ay)) }
                break
            }
        }
        return (placed, unmeasured)
    }

    /// Text boxes to try, in order of preference.
    func positions(for c: MapLabelCandidate, anchorX ax: Double, anchorY ay: Double, size s: MapLabelSize) -> [Box] {
        guard c.kind.isPointLabel else {
            // Turned text (a street name) keeps clear the box around it.
            let cosA = abs(cos(c.angle)), sinA = abs(sin(c.angle))
            let w = s.width * cosA + s.height * sinA, h = s.width * sinA + s.height * cosA
            let centred = Box(minX: ax - w / 2, minY: ay - h / 2, maxX: ax + w / 2, maxY: ay + h / 2)
            guard c.kind == .country else { return [centred] }
            // A country's name may step a line up or down (e.g. off its capital's dot).
            let step = s.height + 2 * padding + dotRadius
            return [centred,
                    Box(minX: centred.minX, minY: centred.minY - step, maxX: centred.maxX, maxY: centred.maxY - step),
                    Box(minX: centred.minX, minY: centred.minY + step, maxX: centred.maxX, maxY: centred.maxY + step)]
        }
        let off = dotRadius + dotGap
        return [
            Box(minX: ax + off, minY: ay - s.height / 2, maxX: ax + off + s.width, maxY: ay + s.height / 2),
            Box(minX: ax - off - s.width, minY: ay - s.height / 2, maxX: ax - off, maxY: ay + s.height / 2),
            Box(minX: ax - s.width / 2, minY: ay - off - s.height, maxX: ax + s.width / 2, maxY: ay - off),
            Box(minX: ax - s.width / 2, minY: ay + off, maxX: ax + s.width / 2, maxY: ay + off + s.height),
        ]
    }
}

/// An axis-aligned box in pixels.
struct Box: Equatable {
    var minX: Double, minY: Double, maxX: Double, maxY: Double

    func intersects(_ o: Box) -> Bool { minX < o.maxX && o.minX < maxX && minY < o.maxY && o.minY < maxY }

    func union(_ o: Box) -> Box {
        Box(minX: min(minX, o.minX), minY: min(minY, o.minY), maxX: max(maxX, o.maxX), maxY: max(maxY, o.maxY))
    }
}

/// Boxes already placed, bucketed in square cells so a test touches only its neighbours.
struct CollisionGrid {
    let cellSize: Double
    private var cells: [Int64: [Int]] = [:]
    private(set) var boxes: [Box] = []

    init(cellSize: Double) { self.cellSize = cellSize }

    private func cellRange(_ b: Box) -> (Int, Int, Int, Int) {
        (Int((b.minX / cellSize).rounded(.down)), Int((b.maxX / cellSize).rounded(.down)),
         Int((b.minY / cellSize).rounded(.down)), Int((b.maxY / cellSize).rounded(.down)))
    }

    private static func key(_ i: Int, _ j: Int) -> Int64 { Int64(i) << 32 ^ Int64(UInt32(truncatingIfNeeded: j)) }

    func hits(_ b: Box) -> Bool {
        let (i0, i1, j0, j1) = cellRange(b)
        for j in j0...j1 {
            for i in i0...i1 {
                guard let list = cells[CollisionGrid.key(i, j)] else { continue }
                for k in list where boxes[k].intersects(b) { return true }
            }
        }
        return false
    }

    /// Calls `body` with the index (in insertion order) of every box that meets `b`, possibly
    /// more than once for a box spread over several cells.
    func forEachHit(_ b: Box, _ body: (Int) -> Void) {
        let (i0, i1, j0, j1) = cellRange(b)
        for j in j0...j1 {
            for i in i0...i1 {
                guard let list = cells[CollisionGrid.key(i, j)] else { continue }
                for k in list where boxes[k].intersects(b) { body(k) }
            }
        }
    }

    mutating func insert(_ b: Box) {
        let (i0, i1, j0, j1) = cellRange(b)
        boxes.append(b)
        for j in j0...j1 { for i in i0...i1 { cells[CollisionGrid.key(i, j), default: []].append(boxes.count - 1) } }
    }
}
