import ClusterCore
import GeoData
import MapModel

/// The data on the map: one or more loaded point sets, clustered together in one index.
///
/// Built off the GTK thread (loading and indexing take time) and then only read, so it is
/// safe to hand to the GTK thread. Point indices are global: the points of the first source,
/// then the second, and so on.
public final class MapDataSession: @unchecked Sendable {
    /// The loaded files (or bundled dataset), in order.
    public let sources: [Source]
    /// The clustering index over all points (changed in place by live updates, on the GTK
    /// thread: `MapDataSession+Live.swift`).
    public let clusterer: LiveClusterIndex
    /// Names, labels, colours and coordinates by global point index.
    public let places: Places
    /// The smallest box holding every point (nil when there are none).
    public let bounds: GeoBounds?
    /// Total number of points.
    public var pointCount: Int { places.coordinates.count }
    /// Identity keys for live updates, captured once (`MapDataSession+Live.swift`).
    let identity = IdentityCache()
    /// The points prepared for filtered builds (`FilterEngine`), made on the first filter; after
    /// a live update, from the previous session's (`UpdatePlan.applied`).
    public let preparedPoints = PreparedPointsCache()
    /// Whether places are kept out of clustering: each is its own item at every zoom, never in
    /// a bubble (a dataset that asks for it, such as Lisbon's priced stays, or `--no-clustering`).
    /// The index is still built; `visibleItems` asks it below its deepest level, where every
    /// place stands alone.
    public let keepsPlacesApart: Bool
    /// The filter shown, if any (set on the GTK thread by `MapPresentation.finishFilter`;
    /// `MapDataSession+Filter.swift`).
    public internal(set) var filtered: FilteredClusters?
    /// A view a remote source (a PostGIS table) clustered: its items replace the index's
    /// (`MapDataSession+Remote.swift`); nil for loaded files.
    public internal(set) var remote: RemoteView?

    /// One loaded file.
    public struct Source: Sendable {
        public let points: PointSet
        public let dataset: Dataset?
        /// Global index of this source's first point.
        public let firstIndex: Int
    }

    /// Options the app clusters with: the radius is in screen pixels at every zoom (extent 256 in
    /// the 256-pixel convention), and clusters are built up to the camera's deepest zoom so
    /// same-spot places still form a bubble there (and fan out on click).
    public static let clusterOptions = HierarchicalClusterer.Options(minZoom: 0, maxZoom: 18, minPoints: 2,
                                                                     radius: 60, extent: 256, nodeSize: 64)

    /// Indexes already-loaded point sets.
    ///
    /// With one set (the usual case) its coordinates are not copied: the set, `places` and the
    /// index share one array (10M points: 160 MB once, not twice).
    public init(pointSets: [PointSet], datasets: [Dataset?] = [], keepPlacesApart: Bool = false) {
        keepsPlacesApart = keepPlacesApart || datasets.contains { $0?.keepsPlacesApart == true }
        var sources: [Source] = []
        var first = 0
        for (i, set) in pointSets.enumerated() {
            sources.append(Source(points: set, dataset: i < datasets.count ? datasets[i] : nil, firstIndex: first))
            first += set.count
        }
        let coordinates: [GeoCoordinate]
        var categories: [Int32] = []
        if pointSets.count == 1 {
            coordinates = pointSets[0].coordinates
            // Category for aggregates: the set's own categories (none stored when no point has one).
            let own = pointSets[0].categoryIndices
            if !own.allEqual(-1) { categories = own.array }
        } else {
            coordinates = pointSets.flatMap(\.coordinates)
            // Several files shown together: the source number is the category.
            categories.reserveCapacity(coordinates.count)
            for (i, set) in pointSets.enumerated() { categories += repeatElement(Int32(i), count: set.count) }
        }
        self.sources = sources
        let values = pointSets.count == 1 ? pointSets[0].numericValues : []
        clusterer = LiveClusterIndex(points: coordinates, categories: categories,
                                     values: values.count == coordinates.count ? values : [],
                                     options: MapDataSession.clusterOptions)
        places = Places(sources: sources, coordinates: coordinates)
        bounds = MapDataSession.bounds(of: coordinates)
    }

    /// A session over an index that already holds the points (a live update's result).
    init(sources: [Source], clusterer: LiveClusterIndex, places: Places, keepPlacesApart: Bool? = nil) {
        keepsPlacesApart = keepPlacesApart ?? sources.contains { $0.dataset?.keepsPlacesApart == true }
        self.sources = sources
        self.clusterer = clusterer
        self.places = places
        bounds = MapDataSession.bounds(of: places.coordinates)
    }

    /// The items to draw for a camera: everything in the visible area plus a margin so bubbles at
    /// the edges don't pop in, at the camera's index zoom.
    public func visibleItems(for camera: Camera, marginPixels: Double = 40) -> [PlacedItem] {
        if let remote { return remote.items.map { PlacedItem(item: $0) } }
        var buffer: [ClusterItem] = []
        // Kept apart: past the index's deepest level every place is alone.
        let zoom = keepsPlacesApart ? Double(shownIndex.maxZoom + 1) : camera.zoom
        shownIndex.clusters(in: MapDataSession.queryBounds(camera, margin: marginPixels), zoom: zoom, into: &buffer)
        return buffer.map { PlacedItem(item: $0) }
    }

    /// The visible bubble holding a place, if the place is clustered at this zoom. Checks the
    /// nearest few bubbles' members (cheap: at most a few leaves lists, once per zoom change).
    public func container(of point: Int, among items: [PlacedItem], camera: Camera) -> SceneItemID? {
        guard point >= 0 && point < pointCount else { return nil }
        if items.contains(where: { $0.item.pointIndex == point }) { return nil }
        let p = camera.screenPoint(for: places.coordinates[point])
        let candidates = items.filter { $0.item.isCluster }.sorted {
            let a = camera.screenPoint(for: $0.coordinate), b = camera.screenPoint(for: $1.coordinate)
            return (a.x - p.x) * (a.x - p.x) + (a.y - p.y) * (a.y - p.y) < (b.x - p.x) * (b.x - p.x) + (b.y - p.y) * (b.y - p.y)
        }
        for c in candidates.prefix(6) {
            if let id = c.item.clusterID, shownIndex.leaves(of: id, limit: .max, offset: 0).contains(point) { return c.id }
        }
        return nil
    }

    /// The source (file) a global point index belongs to, and the index inside it.
    public func source(of point: Int) -> (source: Source, local: Int) {
        places.source(of: point)
    }

    // MARK: Helpers

    /// The visible bounds widened by a margin in pixels (whole world when it wraps past 360°).
    static func queryBounds(_ camera: Camera, margin: Double) -> GeoBounds {
        var c = camera
        c.viewportSize = ScreenSize(width: camera.viewportSize.width + 2 * margin, height: camera.viewportSize.height + 2 * margin)
        return c.visibleBounds
    }

    static func bounds(of coordinates: [GeoCoordinate]) -> GeoBounds? {
        var w = 180.0, s = 90.0, e = -180.0, n = -90.0
        for c in coordinates where c.isValid {
            w = min(w, c.longitude); e = max(e, c.longitude); s = min(s, c.latitude); n = max(n, c.latitude)
        }
        return w <= e ? GeoBounds(west: w, south: s, east: e, north: n) : nil
    }
}

extension MapDataSession {
    /// The callout card of a place (global index).
    public func calloutText(of point: Int) -> CalloutText.Card {
        if let later = laterCalloutText(of: point) { return later }
        let (src, local) = source(of: point)
        return CalloutText.card(for: src.points, at: local, fallbackTitle: places.name(of: point))
    }
}
