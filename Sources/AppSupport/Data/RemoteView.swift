import ClusterCore
import GeoData

/// What a data source that counts elsewhere (a PostGIS table: the server counts) gave for one
/// view: its bubbles and places as items to draw, without an index of its own behind them.
///
/// Places are points of the session's `places` (their columns make their cards). Bubbles carry
/// negative cluster ids (`-1 - key`), which no in-process index hands out, so the session's own
/// index answers nothing for them (no members, no aggregates) and nothing is mistaken for one of
/// its clusters; the key is the source's own (a server cell's number), stable from view to view.
public struct RemoteView: Sendable {
    /// One bubble or place as the source gave it.
    public struct Item: Sendable, Equatable {
        public var coordinate: GeoCoordinate
        public var count: Int
        public var isCluster: Bool
        /// A cluster's key (its cell, or the source's cluster id); a place's row id.
        public var key: Int64?
        /// The zoom at which a cluster splits, when the source knows it.
        public var expansionZoom: Int?
        /// A place's columns as a JSON object (its card), if read.
        public var properties: String?
        /// What the source says about a cluster besides its count (its totals): its card's lines.
        public var facts: [Fact] = []

        public init(coordinate: GeoCoordinate, count: Int, isCluster: Bool, key: Int64?, expansionZoom: Int? = nil,
                    properties: String? = nil) {
            self.coordinate = coordinate
            self.count = count
            self.isCluster = isCluster
            self.key = key
            self.expansionZoom = expansionZoom
            self.properties = properties
        }
    }

    /// The items to draw: places as `.point(i)` of the session's places, bubbles as negative ids.
    public let items: [ClusterItem]
    /// Row ids of the places, by place index (nil: the table has no integer key).
    public let rowIDs: [Int64?]
    /// The whole zoom the view was clustered at.
    public let zoom: Int
    /// Points the view stands for (bubbles' counts and places).
    public let pointCount: Int
    private let expansionZooms: [Int: Int]
    /// Clusters' facts by raw cluster id (`facts(of:)`).
    let clusterFacts: [Int: [Fact]]

    /// The view of `items` clustered at `zoom`; places take indices 0, 1, … in their order.
    public init(items source: [Item], zoom: Int) {
        var items: [ClusterItem] = [], rows: [Int64?] = [], expansion: [Int: Int] = [:]
        var facts: [Int: [Fact]] = [:]
        var total = 0
        for (n, item) in source.enumerated() {
            total += item.count
            if item.isCluster {
                let raw = RemoteView.clusterRawValue(key: item.key ?? Int64(n))
                items.append(ClusterItem(kind: .cluster(ClusterID(rawValue: raw)), coordinate: item.coordinate, count: item.count))
                if let e = item.expansionZoom { expansion[raw] = e }
                if !item.facts.isEmpty { facts[raw] = item.facts }
            } else {
                items.append(ClusterItem(kind: .point(rows.count), coordinate: item.coordinate, count: 1))
                rows.append(item.key)
            }
        }
        self.items = items
        rowIDs = rows
        self.zoom = zoom
        pointCount = total
        expansionZooms = expansion
        clusterFacts = facts
    }

    /// The negative cluster id of a source's key.
    static func clusterRawValue(key: Int64) -> Int { -1 - Int(max(0, key)) }

    /// Whether a cluster id is one of a remote view's.
    public static func isRemote(_ cluster: ClusterID) -> Bool { cluster.rawValue < 0 }

    /// The item drawn for a cluster id, if this view has it.
    public func item(for cluster: ClusterID) -> ClusterItem? {
        items.first { $0.clusterID == cluster }
    }

    /// The zoom to fly to for a bubble (SPEC §5.2): where it splits when the source knows it,
    /// else two zooms deeper than the view (a server cell holds a 4 × 4 block of the cells two
    /// zooms down, so it shows them split).
    public func flightZoom(for cluster: ClusterID) -> Int {
        expansionZooms[cluster.rawValue] ?? zoom + 2
    }

    /// The place index of a row id in this view, if it shows that place on its own.
    public func placeIndex(ofRow id: Int64) -> Int? { rowIDs.firstIndex(of: id) }
}
