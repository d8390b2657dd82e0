import ClusterCore
import MapModel

/// How data opens: framed on its bulk, at the zoom where it fits, no deeper than where it stops
/// splitting (`Camera.framing`).
extension MapDataSession {
    /// Below this many places every place counts in the framed bounds; from it on, the bounds
    /// leave out the outermost percent on each side (see `bulkBounds`).
    public static let bulkMinimumCount = 100
    /// The share of places left out on each side of the bulk bounds.
    public static let bulkOutlierShare = 0.01

    /// The box holding the bulk of the places: from the 1st to the 99th percentile of latitude
    /// and of longitude (every place when there are few). Why: a few outlying places (the
    /// airports' Antarctic strip) made the opening view centre at −12° with half of it Antarctica.
    public var bulkBounds: GeoBounds? {
        let valid = places.coordinates.filter(\.isValid)
        guard valid.count >= MapDataSession.bulkMinimumCount else { return bounds }
        let lats = valid.map(\.latitude).sorted(), lons = valid.map(\.longitude).sorted()
        let k = Int((Double(valid.count) * MapDataSession.bulkOutlierShare).rounded(.down))
        let last = valid.count - 1 - k
        return GeoBounds(west: lons[k], south: lats[k], east: lons[last], north: lats[last])
    }

    /// The smallest zoom at which no bubble inside `bounds` will split any more (all its
    /// places alone, or sharing one spot); nil when the index can't tell.
    /// - Complexity: a few index queries of the box (a binary search over the zoom levels).
    public func splitZoom(in bounds: GeoBounds) -> Int? {
        let maxZoom = clusterer.maxZoom
        var buffer: [ClusterItem] = []
        func settled(_ z: Int) -> Bool {
            clusterer.clusters(in: bounds, zoom: Double(z), into: &buffer)
            return !buffer.contains { item in
                guard let id = item.clusterID, let e = clusterer.expansionZoom(of: id) else { return false }
                return e <= maxZoom
            }
        }
        var lo = clusterer.minZoom, hi = maxZoom + 1  // settled(hi) holds: past maxZoom every point is alone
        guard lo < hi else { return hi }
        while lo < hi {
            let mid = (lo + hi) / 2
            if settled(mid) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    /// The camera (`camera`'s viewport and limits) that opens on this data: its bulk framed in
    /// the part of the view `insets` leave free (see `Camera.framing`). Where the bulk fits
    /// shallower than `Camera.openingZoomFloor` the split zoom is not asked (it can't cap).
    public func openingCamera(from camera: Camera, paddingPixels: Double = 60, insets: ScreenInsets = .zero) -> Camera? {
        guard let b = bulkBounds else { return nil }
        let fit = camera.zoomToFit(b, paddingPixels: paddingPixels)
        let split = fit > Camera.openingZoomFloor ? splitZoom(in: b) : nil
        return camera.framing(b, splitZoom: split, paddingPixels: paddingPixels, insets: insets)
    }
}

/// Where a found place is shown (search): standing alone, not inside a bubble.
extension MapDataSession {
    /// The smallest zoom at which `point` is drawn as itself, not inside a bubble; nil for an
    /// unknown point, or one that shares its spot with others (it never stands alone).
    /// - Complexity: a few index queries of a tiny box (a binary search over the zoom levels).
    public func aloneZoom(of point: Int) -> Int? {
        guard point >= 0, point < pointCount else { return nil }
        let c = places.coordinates[point]
        guard c.isValid else { return nil }
        let d = 1e-4  // about 10 m: the point's item is found by its index, the box need only hold it
        let box = GeoBounds(west: c.longitude - d, south: max(-90, c.latitude - d), east: c.longitude + d,
                            north: min(90, c.latitude + d))
        var buffer: [ClusterItem] = []
        func alone(_ z: Int) -> Bool {
            clusterer.clusters(in: box, zoom: Double(z), into: &buffer)
            return buffer.contains { $0.pointIndex == point }
        }
        // (Past the index's deepest zoom every point is alone, but the camera goes no deeper:
        // one not alone there shares its spot.)
        var lo = clusterer.minZoom, hi = clusterer.maxZoom
        guard alone(hi) else { return nil }
        while lo < hi {
            let mid = (lo + hi) / 2
            if alone(mid) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    /// The zoom a search flies to for `point`: at least `minimum` (the current zoom, or the
    /// chrome's place zoom), deep enough that the place stands alone (one highlight, its pin, not
    /// a marked bubble around it), within `camera`'s limits. Search "Lisbon" landed at 12 inside
    /// a "10" bubble.
    public func landingZoom(of point: Int, atLeast minimum: Double, camera: Camera) -> Double {
        let alone = aloneZoom(of: point).map(Double.init) ?? minimum
        return min(camera.maxZoom, max(minimum, alone))
    }
}
