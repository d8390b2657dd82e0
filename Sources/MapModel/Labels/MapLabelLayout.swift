import Foundation

/// Keeps the base-map labels placed for the camera, re-placing only when needed.
///
/// Placement runs over the view grown by `margin` on every side and is reused while the view stays
/// inside that region at the same zoom: panning only translates the labels. When the view leaves
/// the region, the labels placed before keep their places and only new ground is filled in, so a
/// label never jumps or flickers while panning at one zoom.
public final class MapLabelLayout {
    /// The candidates.
    public private(set) var index: MapLabelIndex
    /// How the labels are placed.
    public var placer = MapLabelPlacer()
    /// Extra placement area around the view, logical pixels.
    public var margin = 384.0
    /// Where controls cover the view: at rest, names there (or cut by the view's edge) are left out.
    /// Setting it places again (what was placed at rest may now be under a control).
    public var keepClear = MapChromeAreas.standard {
        didSet { cached = nil; inProgress = nil }
    }
    /// Placements computed so far (for tests and benchmarks).
    public private(set) var placementCount = 0

    /// The last placement: its zoom and region, and (when names were left out because their
    /// sizes were not known yet) how many and at which `sizeRevision`.
    private var cached: Placement?
    private struct Placement {
        var zoom: Double, minX: Double, minY: Double, maxX: Double, maxY: Double
        var labels: [PlacedMapLabel]
        var unmeasured = 0
        var sizeRevision = 0
        /// Placed for a camera at rest (names fully shown or left out, see `MapLabelPlacement.atRest`).
        var atRest = false
    }

    public init(index: MapLabelIndex = .empty) { self.index = index }

    /// Names of a street map placed before the built-in ones (nil: none).
    public private(set) var overlay: MapLabelOverlay?
    /// Set when the overlay changed: the next call places again (keeping what was placed).
    private var stale = false

    /// Replaces the candidates (e.g. once the 1:10m labels have loaded).
    public func setIndex(_ index: MapLabelIndex) {
        self.index = index
        cached = nil
        inProgress = nil
    }

    /// Sets the street map's names (e.g. when tiles arrive); placing again only if they changed.
    public func setOverlay(_ overlay: MapLabelOverlay?) {
        guard overlay?.revision != self.overlay?.revision else { return }
        self.overlay = overlay
        stale = true
    }

    /// The candidate with `id` (built-in ids are ≥ 0; a street map's are negative).
    public func candidate(id: Int) -> MapLabelCandidate? {
        id >= 0 ? (id < index.count ? index.candidates[id] : nil) : overlay?.candidate(id: id)
    }

    /// How far (in zoom levels) a placement may be reused, scaled, while the camera animates.
    public var animationReuseZooms = 0.25

    /// The labels to show for `camera`, in screen coordinates, in priority order.
    ///
    /// With `isAnimating`, a placement made within `animationReuseZooms` of the camera's zoom is
    /// reused with its anchors moved to the new zoom (names keep their size and fade by zoom): a
    /// zoom animation then re-places names a few times instead of every frame, and they glide
    /// with the map. At rest the placement is always exact for the zoom, and a name is drawn
    /// fully or not at all: never faint, never cut by the view's edge, never under `keepClear`.
    public func labels(for camera: Camera, isAnimating: Bool = false, size: (Int) -> MapLabelSize) -> [SceneLabel] {
        labels(for: camera, isAnimating: isAnimating, sizeRevision: 0, sizeIfMeasured: { size($0) })
    }

    /// Whether the last placement left names out for want of their sizes (see below).
    public var isIncomplete: Bool { (cached?.unmeasured ?? 0) > 0 }

    /// As `labels(for:isAnimating:size:)`, where a text may not be measured yet: `sizeIfMeasured`
    /// gives nil for it (in motion, measuring waits for a background thread instead of holding up
    /// the frame) and the placement leaves that name out. Such an incomplete placement is done
    /// again when `sizeRevision` changes (more sizes are known) or at rest (`isAnimating` false:
    /// then the caller gives every size), keeping at the same zoom what it had placed.
    public func labels(for camera: Camera, isAnimating: Bool, sizeRevision: Int,
                       sizeIfMeasured: (Int) -> MapLabelSize?) -> [SceneLabel] {
        labels(for: camera, isAnimating: isAnimating, sizeRevision: sizeRevision, sizeOfCandidate: { id, _ in sizeIfMeasured(id) })
    }

    /// As `labels(for:isAnimating:sizeRevision:sizeIfMeasured:)`, the size asked with the candidate
    /// at hand (its id and the candidate itself: a measurer may keep sizes by id, checked against
    /// the text, instead of looking the candidate up and hashing its text for every name).
    public func labels(for camera: Camera, isAnimating: Bool, sizeRevision: Int,
                       sizeOfCandidate: (Int, MapLabelCandidate) -> MapLabelSize?) -> [SceneLabel] {
        guard index.count > 0 || !(overlay?.candidates.isEmpty ?? true) else { return [] }
        let c = camera.centerWorldPixel
        let w = camera.viewportSize.width, h = camera.viewportSize.height
        let left = c.x - w / 2, top = c.y - h / 2
        let current = cached.map { $0.unmeasured == 0 || (isAnimating && $0.sizeRevision == sizeRevision) } ?? false
        if current, let k = cached, !stale, k.zoom == camera.zoom, isAnimating || k.atRest,
           left >= k.minX, top >= k.minY, left + w <= k.maxX, top + h <= k.maxY {
            return project(k.labels, left: left, top: top, width: w, height: h, atRest: !isAnimating)
        }
        if isAnimating, current, !stale, let k = cached, abs(k.zoom - camera.zoom) < animationReuseZooms {
            let f = exp2(camera.zoom - k.zoom)
            if left >= k.minX * f, top >= k.minY * f, left + w <= k.maxX * f, top + h <= k.maxY * f {
                return project(k.labels, left: left, top: top, width: w, height: h, scale: f, zoom: camera.zoom)
            }
        }
        // Snap the region to a grid of `margin` so that the same view always gets the same region.
        let step = margin
        let minX = (left / step).rounded(.down) * step - step, minY = (top / step).rounded(.down) * step - step
        let maxX = ((left + w) / step).rounded(.up) * step + step, maxY = ((top + h) / step).rounded(.up) * step + step
        // At the same zoom, what was placed keeps its place (panning never makes a label jump).
        let keep = cached.flatMap { $0.zoom == camera.zoom ? $0.labels : nil } ?? []
        if isAnimating, let budget = motionPlacementBudget, let k = cached, k.zoom != camera.zoom, abs(k.zoom - camera.zoom) < 1 {
            // In a zoom animation, in steps: the placement in progress goes on if it still suits
            // the view (else one starts for it), and the last placement is shown, moved to this
            // zoom, until it is done. (Panning at one zoom places at once: it keeps what was
            // placed and only fills in new ground, and a drag held still draws no more frames.)
            if let run = inProgress?.run, !suits(run, camera: camera, left: left, top: top, width: w, height: h) {
                inProgress = nil
            }
            if inProgress == nil {
                inProgress = (MapLabelPlacement(placer: placer, index: index, overlay: overlay, zoom: camera.zoom,
                                                minX: minX, minY: minY, maxX: maxX, maxY: maxY, keeping: keep), sizeRevision)
            }
            inProgress!.run.advance(budget: budget, sizeOfCandidate: sizeOfCandidate)
            guard let (run, revision) = inProgress, run.isDone else {
                let f = exp2(camera.zoom - k.zoom)
                return project(k.labels, left: left, top: top, width: w, height: h, scale: f, zoom: camera.zoom)
            }
            inProgress = nil
            keepPlacement(run, sizeRevision: revision)
            let f = exp2(camera.zoom - run.zoom)
            return project(run.placed, left: left, top: top, width: w, height: h, scale: f, zoom: f == 1 ? nil : camera.zoom)
        }
        inProgress = nil
        // Names whole or not at all at rest, and while panning at the zoom of a placement made so
        // (a drag at a fractional zoom would otherwise bring faint names in and take them out
        // again at rest); names fade only while the zoom changes.
        let wholeNames = !isAnimating || (cached.map { $0.zoom == camera.zoom && $0.atRest } ?? false)
        var run = MapLabelPlacement(placer: placer, index: index, overlay: overlay, zoom: camera.zoom,
                                    minX: minX, minY: minY, maxX: maxX, maxY: maxY, keeping: keep, atRest: wholeNames)
        run.advance(budget: .max, sizeOfCandidate: sizeOfCandidate)
        keepPlacement(run, sizeRevision: sizeRevision)
        return project(run.placed, left: left, top: top, width: w, height: h, atRest: !isAnimating)
    }

    /// In a zoom animation, how many candidates a frame may try when names must be placed again
    /// (nil: all at once). Why: a dense street map offers two thousand names, and placing them all held up
    /// the frame that did it by 2–4 ms, several times a second in a zoom animation; in steps, a
    /// frame spends well under a millisecond on it and the names follow a few frames later. At
    /// rest a placement is always done at once.
    public var motionPlacementBudget: Int? = 500
    /// The placement being done in steps, and the size revision it started at.
    private var inProgress: (run: MapLabelPlacement, sizeRevision: Int)?

    /// Whether a placement in progress still suits the view: within a zoom level of it, the view
    /// (at its zoom) inside its region, the overlay it started with.
    private func suits(_ run: MapLabelPlacement, camera: Camera, left: Double, top: Double, width w: Double, height h: Double) -> Bool {
        // (Not only within `animationReuseZooms`: the zoom moves on while the steps are taken,
        // and a run dropped for that would start again and again and never be done.)
        guard run.overlayRevision == overlay?.revision, abs(run.zoom - camera.zoom) < 1 else { return false }
        let f = exp2(camera.zoom - run.zoom)
        return left >= run.minX * f && top >= run.minY * f && left + w <= run.maxX * f && top + h <= run.maxY * f
    }

    private func keepPlacement(_ run: MapLabelPlacement, sizeRevision: Int) {
        placementCount += 1
        stale = run.overlayRevision != overlay?.revision
        cached = Placement(zoom: run.zoom, minX: run.minX, minY: run.minY, maxX: run.maxX, maxY: run.maxY, labels: run.placed,
                           unmeasured: run.unmeasured, sizeRevision: sizeRevision, atRest: run.atRest)
    }

    /// Screen positions of placed labels; `scale` ≠ 1 moves their anchors to another zoom.
    /// `atRest`: only names wholly inside the view and clear of `keepClear` (a name cut by the
    /// edge or half under a button reads as a mistake on a still map; in motion they come and go).
    private func project(_ placed: [PlacedMapLabel], left: Double, top: Double, width: Double, height: Double,
                         scale f: Double = 1, zoom: Double? = nil, atRest: Bool = false) -> [SceneLabel] {
        var out: [SceneLabel] = []
        let covered = atRest ? keepClear.rects(width: width, height: height) : []
        for p in placed {
            let dx = p.anchorX * (f - 1) - left, dy = p.anchorY * (f - 1) - top
            let frame = ScreenRect(x: p.minX + dx, y: p.minY + dy, width: p.maxX - p.minX, height: p.maxY - p.minY)
            let dot = p.dot.map { ScreenPoint(x: $0.x * f - left, y: $0.y * f - top) }
            guard frame.maxX > 0, frame.minX < width, frame.maxY > 0, frame.minY < height else { continue }
            if atRest {
                var whole = frame
                if let d = dot {  // a city's dot belongs to its name
                    let r = placer.dotRadius
                    let x0 = min(whole.minX, d.x - r), y0 = min(whole.minY, d.y - r)
                    whole = ScreenRect(x: x0, y: y0, width: max(whole.maxX, d.x + r) - x0, height: max(whole.maxY, d.y + r) - y0)
                }
                guard whole.minX >= 0, whole.minY >= 0, whole.maxX <= width, whole.maxY <= height,
                      !covered.contains(where: { $0.intersects(whole) }) else { continue }
            }
            let alpha = zoom.flatMap { z in candidate(id: p.id)?.alpha(atZoom: z) } ?? p.alpha
            guard alpha > 0 else { continue }
            out.append(SceneLabel(id: p.id, text: p.text, kind: p.kind, frame: frame, dot: dot, alpha: alpha, angle: p.angle))
        }
        return out
    }
}
