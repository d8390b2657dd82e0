import ClusterCore
import GeoData

/// Sessions for sources that count elsewhere (a PostGIS table): the bubbles are the source's,
/// the places a small point set read from their columns, so cards, names and pins work as for a
/// file (`RemoteView`).
extension MapDataSession {
    /// A session showing one remote view: `name` names the source (the table) in cards and
    /// messages. Places' columns (JSON objects) become their properties; a place without them
    /// shows its coordinate only. With `total` the bubbles show the source's total. Built on any thread.
    public static func remote(_ items: [RemoteView.Item], zoom: Int, name: String, total: FilterSettings.TotalSetting? = nil) -> MapDataSession {
        let places = items.filter { !$0.isCluster }
        var sets: [PointSet] = []
        if !places.isEmpty {
            // Properties the reader will not take (e.g. a column named like a coordinate) must
            // not cost the places: then they show by position only.
            let bare = places.map { p -> RemoteView.Item in var p = p; p.properties = nil; return p }
            for text in [geoJSON(places), geoJSON(bare)] {
                if let set = try? PointSetLoader.load(text: text, name: name), set.count == places.count { sets = [set]; break }
            }
        }
        // Places always index the session's points: none without them.
        var view = RemoteView(items: sets.isEmpty ? items.filter(\.isCluster) : items, zoom: zoom)
        view.total = total
        let session = MapDataSession(pointSets: sets)
        session.remote = view
        return session
    }

    /// The places as one GeoJSON FeatureCollection, in order (the reader keeps it).
    static func geoJSON(_ places: [RemoteView.Item]) -> String {
        var out = "{\"type\":\"FeatureCollection\",\"features\":["
        for (i, p) in places.enumerated() {
            if i > 0 { out += "," }
            // Coordinates as Swift prints Doubles: the shortest text that reads back exactly.
            out += "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":["
                + "\(p.coordinate.longitude),\(p.coordinate.latitude)]},\"properties\":"
            out += p.properties.flatMap { $0.first == "{" ? $0 : nil } ?? "{}"
            out += "}"
        }
        return out + "]}"
    }

    /// The new index of each place of `self` in `updated` (by row id), for keeping a selection
    /// across views (`MapPresentation.dataDidChange`).
    public func remotePlaceIndex(_ old: Int, in updated: MapDataSession) -> Int? {
        guard let mine = remote, let theirs = updated.remote, old >= 0, old < mine.rowIDs.count,
              let row = mine.rowIDs[old] else { return nil }
        return theirs.placeIndex(ofRow: row)
    }

    /// The bubble drawn for a cluster id: one of the index's, or of a remote view.
    public func bubbleItem(for cluster: ClusterID) -> ClusterItem? {
        shownIndex.item(for: cluster) ?? remote?.item(for: cluster)
    }

    /// A place's columns read after its view (its card opened on a place beyond the first few
    /// thousand): its card shows them from now on. False when they do not make a place.
    public func setRemoteColumns(_ json: String, ofPlace index: Int) -> Bool {
        guard let remote, index >= 0, index < pointCount, json.first == "{" else { return false }
        let item = RemoteView.Item(coordinate: places.coordinates[index], count: 1, isCluster: false, key: nil, properties: json)
        let name = sources.first?.points.sourceName ?? ""
        guard let set = try? PointSetLoader.load(text: Self.geoJSON([item]), name: name), set.count == 1 else { return false }
        remote.laterCards[place: index] = set
        return true
    }

    /// Whether a place's columns were read after its view.
    public func hasLaterColumns(ofPlace index: Int) -> Bool { remote?.laterCards[place: index] != nil }

    /// The name of a place whose columns were read after its view, as the map names places
    /// (its pin, its In View row); nil when they were not.
    public func laterName(of point: Int) -> String? {
        guard let set = remote?.laterCards[place: point] else { return nil }
        return Places(sources: [Source(points: set, dataset: nil, firstIndex: 0)], coordinates: set.coordinates).name(of: 0)
    }

    /// Whether any place's columns were read after its view.
    var hasLaterColumns: Bool { remote.map { !$0.laterCards.isEmpty } ?? false }

    /// The card of a place whose columns were read after its view, if they were.
    func laterCalloutText(of point: Int) -> CalloutText.Card? {
        guard let set = remote?.laterCards[place: point] else { return nil }
        return CalloutText.card(for: set, at: 0, fallbackTitle: places.name(of: point))
    }
}
