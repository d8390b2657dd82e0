import ClusterCore
import Foundation
import GeoData
import MapModel

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
        /// What a bubble's words add to its count, when the source says (its top category, its
        /// totals): "mostly fire · mag total 1,234".
        public var detail: String?
        /// What the source says about a cluster besides its count (its totals): its card's lines.
        public var facts: [Fact] = []

        public init(coordinate: GeoCoordinate, count: Int, isCluster: Bool, key: Int64?, expansionZoom: Int? = nil,
                    properties: String? = nil, detail: String? = nil) {
            self.coordinate = coordinate
            self.count = count
            self.isCluster = isCluster
            self.key = key
            self.expansionZoom = expansionZoom
            self.properties = properties
            self.detail = detail
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
    /// Whether each place came with its columns (a view reads the first few thousand places').
    private let columnsRead: [Bool]
    /// Places' columns read later, when their card opened (`MapDataSession.setRemoteColumns`).
    let laterCards = LaterCards()
    /// Bubbles by cluster id: their position in `items`.
    private let bubbles: [Int: Int]
    private let details: [Int: String]
    /// Clusters' facts by raw cluster id (`facts(of:)`).
    let clusterFacts: [Int: [Fact]]
    /// What the bubbles show instead of their count, when the source was asked (a table's `--total`).
    public internal(set) var total: FilterSettings.TotalSetting?

    /// The view of `items` clustered at `zoom`; places take indices 0, 1, … in their order.
    public init(items source: [Item], zoom: Int) {
        var items: [ClusterItem] = [], rows: [Int64?] = [], expansion: [Int: Int] = [:], read: [Bool] = []
        var bubbles: [Int: Int] = [:], details: [Int: String] = [:]
        var facts: [Int: [Fact]] = [:]
        var total = 0
        for (n, item) in source.enumerated() {
            total += item.count
            if item.isCluster {
                let raw = RemoteView.clusterRawValue(key: item.key ?? Int64(n))
                if bubbles[raw] == nil { bubbles[raw] = items.count }
                if let d = item.detail, !d.isEmpty { details[raw] = d }
                items.append(ClusterItem(kind: .cluster(ClusterID(rawValue: raw)), coordinate: item.coordinate, count: item.count))
                if let e = item.expansionZoom { expansion[raw] = e }
                if !item.facts.isEmpty { facts[raw] = item.facts }
            } else {
                items.append(ClusterItem(kind: .point(rows.count), coordinate: item.coordinate, count: 1))
                rows.append(item.key)
                read.append(item.properties != nil)
            }
        }
        self.items = items
        rowIDs = rows
        columnsRead = read
        self.zoom = zoom
        pointCount = total
        expansionZooms = expansion
        self.bubbles = bubbles
        self.details = details
        clusterFacts = facts
    }

    /// Words for a bubble from what a source keeps with it — its top category and a total
    /// column's sum: "mostly fire · mag total 1,234.5"; nil when it keeps neither.
    public static func detail(category: String?, total: (name: String, sum: Double)?) -> String? {
        var parts: [String] = []
        if let c = category.map({ DisplayText.line($0) }), !c.isEmpty { parts.append("mostly \(c)") }
        if let t = total, t.sum.isFinite {
            let name = t.name.isEmpty ? "total" : "\(PropertyFormat.words(t.name)) total"
            parts.append("\(name) \(PropertyFormat.number(t.sum))")
        }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// The negative cluster id of a source's key.
    static func clusterRawValue(key: Int64) -> Int { -1 - Int(max(0, key)) }

    /// Whether a cluster id is one of a remote view's.
    public static func isRemote(_ cluster: ClusterID) -> Bool { cluster.rawValue < 0 }

    /// The item drawn for a cluster id, if this view has it.
    public func item(for cluster: ClusterID) -> ClusterItem? {
        bubbles[cluster.rawValue].map { items[$0] }
    }

    /// What a bubble's words add to its count, when the source said it.
    public func detail(of cluster: ClusterID) -> String? { details[cluster.rawValue] }

    /// The zoom to fly to for a bubble (SPEC §5.2): where it splits when the source knows it,
    /// else two zooms deeper than the view (a server cell holds a 4 × 4 block of the cells two
    /// zooms down, so it shows them split).
    public func flightZoom(for cluster: ClusterID) -> Int {
        expansionZooms[cluster.rawValue] ?? zoom + 2
    }

    /// Whether the view came with the columns of place `index` (its card); else they are read
    /// when its card opens.
    public func hasColumns(place index: Int) -> Bool { index >= 0 && index < columnsRead.count && columnsRead[index] }

    /// The place index of a row id in this view, if it shows that place on its own.
    public func placeIndex(ofRow id: Int64) -> Int? { rowIDs.firstIndex(of: id) }
}

extension RemoteView {
    /// Places' cards made from columns read after the view (one-place point sets by place
    /// index), shared by the copies of a view; set on the GTK thread, read by any.
    final class LaterCards: @unchecked Sendable {
        private let lock = NSLock()
        private var sets: [Int: PointSet] = [:]
        /// Whether no card was read later (the common case: nothing to look up per pin).
        var isEmpty: Bool { lock.withLock { sets.isEmpty } }
        subscript(place place: Int) -> PointSet? {
            get { lock.withLock { sets[place] } }
            set { lock.withLock { sets[place] = newValue } }
        }
    }
}
