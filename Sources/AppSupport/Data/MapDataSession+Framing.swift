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
