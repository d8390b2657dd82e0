import ClusterCore
import GeoData

/// Live data (SPEC §3.4, §4): a file that grows or is rewritten, or a feed that refreshes, is read
/// again and compared with what is shown by each place's stable key; the differences go into
/// the live index as additions, removals and moves, so ids (and with them the selection) stay.
extension MapDataSession {
    /// What an update did, for the event log's `data-changed`.
    public struct Change: Sendable, Equatable {
        public var added = 0, removed = 0, moved = 0
        public init(added: Int = 0, removed: Int = 0, moved: Int = 0) {
            self.added = added; self.removed = removed; self.moved = moved
        }
        public var isEmpty: Bool { added == 0 && removed == 0 && moved == 0 }
    }

    /// An update worked out off the GTK thread; `applied()` finishes it on the GTK thread.
    public struct UpdatePlan: @unchecked Sendable {
        let old: MapDataSession
        let set: PointSet
        let dataset: Dataset?
        let changes: PointChanges
        /// Local index (in `set`) of each point the plan keeps, by id; and of each addition, in order.
        let keptLocal: [(id: Int, local: Int)]
        let addedLocal: [Int]
        /// A fresh session instead, when the change is too big for in-place updates (or there
        /// are several files); `idMap` takes old ids to new ones for the selection.
        let replacement: MapDataSession?
        let idMap: [Int: Int]
        /// Kept ids whose name changed.
        let renamed: [Int]
        /// The counts.
        public let change: Change
    }

    /// More changes than this are a rebuild (in the background) rather than an in-place update.
    static let maxInPlaceChanges = 20_000

    /// Stable keys of a point set's points: the `idProperty` (a property or CSV column) when
    /// given, else the GeoJSON `id`, else the feature or row number; MultiPoint members and
    /// repeated keys get a suffix so every key is unique.
    public static func keys(of set: PointSet, idProperty: String?) -> [String] {
        var keys: [String] = []
        keys.reserveCapacity(set.count)
        var seen: [String: Int] = [:]
        for i in 0..<set.count {
            var key: String
            if let name = idProperty, let v = set.properties(at: i).first(where: { $0.key == name })?.value {
                key = "p:" + (v.text ?? "\(v)")
            } else if let id = set.idJSON(at: i) {
                key = "id:" + id
            } else {
                key = "#\(set.sourcePositions[i])"
            }
            if let n = seen[key] {
                seen[key] = n + 1
                key += "~\(n + 1)"
            } else {
                seen[key] = 0
            }
            keys.append(key)
        }
        return keys
    }

    /// Compares the shown points with a newly read set (call off the GTK thread: it reads only
    /// what doesn't change). Returns nil when nothing changed.
    public func planUpdate(to set: PointSet, dataset: Dataset?, idProperty: String?) -> UpdatePlan? {
        guard let oldSource = sources.first else { return nil }
        let oldKeys = Self.keys(of: oldSource.points, idProperty: idProperty)
        var slotOf: [String: Int] = [:]
        slotOf.reserveCapacity(oldKeys.count)
        for id in 0..<pointCount where clusterer.contains(id) {
            let local = places.localIndex.map { Int($0[id]) } ?? id
            if local >= 0 && local < oldKeys.count { slotOf[oldKeys[local]] = id }
        }
        let newKeys = Self.keys(of: set, idProperty: idProperty)
        var changes = PointChanges()
        var kept: [(id: Int, local: Int)] = [], added: [Int] = [], renamed: [Int] = []
        var matched = Set<Int>()
        for (j, key) in newKeys.enumerated() {
            let c = set.coordinates[j]
            if let id = slotOf[key], c.isValid {
                matched.insert(id)
                kept.append((id, j))
                let oldLocal = places.localIndex.map { Int($0[id]) } ?? id
                if oldSource.points.name(at: oldLocal) != set.name(at: j) { renamed.append(id) }
                if places.coordinates[id] != c { changes.moves.append((id, c)) }
            } else if c.isValid {
                added.append(j)
                changes.additions.append(c)
            }
        }
        changes.removals = slotOf.values.filter { !matched.contains($0) }.sorted()
        let change = Change(added: changes.additions.count, removed: changes.removals.count, moved: changes.moves.count)
        let total = change.added + change.removed + change.moved
        if total == 0 && renamed.isEmpty && set.count == oldSource.points.count { return nil }
        var replacement: MapDataSession?
        var idMap: [Int: Int] = [:]
        if sources.count != 1 || total > Self.maxInPlaceChanges {
            replacement = MapDataSession(pointSets: [set], datasets: [dataset])
            for (id, local) in kept { idMap[id] = local }
        }
        return UpdatePlan(old: self, set: set, dataset: dataset, changes: changes, keptLocal: kept, addedLocal: added,
                          replacement: replacement, idMap: idMap, renamed: renamed, change: change)
    }
}

extension MapDataSession.UpdatePlan {
    /// Applies the plan (on the GTK thread: it changes the shown session's index in place) and
    /// returns the session to show from now on. `idMap` of the result says where old ids went
    /// (identity for in-place updates, except removed ids, which are absent); `names` what the
    /// search index must change (nil: a new session, build it afresh).
    public func applied() -> (session: MapDataSession, newID: (Int) -> Int?, names: MapDataSession.NameChanges?) {
        if let replacement { return (replacement, { idMap[$0] }, nil) }
        let index = old.clusterer
        let added = addedLocal
        let categories = set.categoryIndices.isEmpty ? [] : added.map { set.categoryIndices[$0] }
        let values = set.numericValues.isEmpty ? [] : added.map { set.numericValues[$0] }
        let result = index.apply(changes, categories: categories, values: values)
        var local = [Int32](repeating: -1, count: index.inputCount)
        var coordinates = [GeoCoordinate](repeating: GeoCoordinate(latitude: .nan, longitude: .nan), count: index.inputCount)
        for (id, j) in keptLocal { local[id] = Int32(j); coordinates[id] = set.coordinates[j] }
        for (k, id) in result.addedIDs.enumerated() { local[id] = Int32(added[k]); coordinates[id] = set.coordinates[added[k]] }
        let source = MapDataSession.Source(points: set, dataset: dataset, firstIndex: 0)
        let session = MapDataSession(sources: [source], clusterer: index,
                                     places: MapDataSession.Places(sources: [source], coordinates: coordinates, localIndex: local))
        let names = MapDataSession.NameChanges(removed: changes.removals, named: result.addedIDs + renamed)
        return (session, { id in id >= 0 && id < local.count && local[id] >= 0 ? id : nil }, names)
    }
}
