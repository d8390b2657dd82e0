import ClusterCore
import GeoData

/// Where `0`/Home goes (SPEC §5.1 "shows all the data"; review-s16 finding 14): with a filter on,
/// the data shown is what passes — the person asked a question and `0` frames the answer, as
/// kepler.gl's "zoom to filtered". Without a filter, or when nothing passes, every place.
extension MapDataSession {
    /// The box `0`/Home fits: the places `shown` lets through, else every place.
    public func homeBounds(shown: FilteredClusters?) -> GeoBounds? {
        guard let shown, shown.passing > 0, let selection = shown.result.selection,
              selection.count == places.coordinates.count, !selection.isAll else { return bounds }
        return MapDataSession.bounds(of: selection, in: places.coordinates) ?? bounds
    }

    /// The box around the chosen places; a single spot is widened to about a town's size
    /// (±0.02°), so the fit is a useful zoom rather than the camera's closest.
    static func bounds(of selection: PointSelection, in coordinates: [GeoCoordinate]) -> GeoBounds? {
        var w = 180.0, s = 90.0, e = -180.0, n = -90.0
        selection.forEachChosen { i in
            let c = coordinates[i]
            guard c.isValid else { return }
            w = min(w, c.longitude); e = max(e, c.longitude); s = min(s, c.latitude); n = max(n, c.latitude)
        }
        guard w <= e else { return nil }
        let pad = 0.02
        if e - w < pad && n - s < pad {
            return GeoBounds(west: max(-180, w - pad), south: max(-85, s - pad), east: min(180, e + pad), north: min(85, n + pad))
        }
        return GeoBounds(west: w, south: s, east: e, north: n)
    }
}
