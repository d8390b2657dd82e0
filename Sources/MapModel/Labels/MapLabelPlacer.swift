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
        place(index, overlay: overlay, zoom: zoom, minX: minX, minY: minY, maxX: maxX, maxY: maxY, keeping: previous,
              sizeOfCandidate: { id, _ in sizeIfMeasured(id) })
    }

    /// As `place(…sizeIfMeasured:)`, with the candidate at hand for the size (the caller may keep
    /// sizes by id and check them against the candidate's text, see `MapLabelRenderer.placementSize`).
    /// The whole placement at once; `MapLabelPlacement` does the same in steps.
    public func place(_ index: MapLabelIndex, overlay: MapLabelOverlay? = nil, zoom: Double,
                      minX: Double, minY: Double, maxX: Double, maxY: Double,
                      keeping previous: [PlacedMapLabel] = [],
                      sizeOfCandidate: (Int, MapLabelCandidate) -> MapLabelSize?) -> (labels: [PlacedMapLabel], unmeasured: Int) {
        var run = MapLabelPlacement(placer: self, index: index, overlay: overlay, zoom: zoom,
                                    minX: minX, minY: minY, maxX: maxX, maxY: maxY, keeping: previous)
        run.advance(budget: .max, sizeOfCandidate: sizeOfCandidate)
        return (run.placed, run.unmeasured)
    }

    /// Text boxes to try, in order of preference.
    /// How many positions a candidate of `kind` tries (see `position(_:for:anchorX:anchorY:size:)`).
    func positionCount(_ kind: MapLabelKind) -> Int { kind.isPointLabel ? 4 : (kind == .country ? 3 : 1) }

    /// The `i`th text box to try, in order of preference: beside a point label's dot (right, left,
    /// above, below); centred on other anchors, a country's name then a line up or down. (One box
    /// at a time, so a placement allocates nothing per name.)
    @inline(__always)
    func position(_ i: Int, for c: MapLabelCandidate, anchorX ax: Double, anchorY ay: Double, size s: MapLabelSize) -> Box {
        guard c.kind.isPointLabel else {
            // Turned text (a street name) keeps clear the box around it.
            let (w, h): (Double, Double)
            if c.angle == 0 {
                (w, h) = (s.width, s.height)
            } else {
                let cosA = abs(cos(c.angle)), sinA = abs(sin(c.angle))
                (w, h) = (s.width * cosA + s.height * sinA, s.width * sinA + s.height * cosA)
            }
            let centred = Box(minX: ax - w / 2, minY: ay - h / 2, maxX: ax + w / 2, maxY: ay + h / 2)
            guard i > 0 else { return centred }
            // A country's name may step a line up or down (e.g. off its capital's dot).
            let step = (s.height + 2 * padding + dotRadius) * (i == 1 ? -1 : 1)
            return Box(minX: centred.minX, minY: centred.minY + step, maxX: centred.maxX, maxY: centred.maxY + step)
        }
        let off = dotRadius + dotGap
        switch i {
        case 0: return Box(minX: ax + off, minY: ay - s.height / 2, maxX: ax + off + s.width, maxY: ay + s.height / 2)
        case 1: return Box(minX: ax - off - s.width, minY: ay - s.height / 2, maxX: ax - off, maxY: ay + s.height / 2)
        case 2: return Box(minX: ax - s.width / 2, minY: ay - off - s.height, maxX: ax + s.width / 2, maxY: ay - off)
        default: return Box(minX: ax - s.width / 2, minY: ay + off, maxX: ax + s.width / 2, maxY: ay + off + s.height)
        }
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
