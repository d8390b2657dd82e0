import Foundation
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
        /// The identity keys of `set` (handed to the session the plan makes), and the id property.
        let keys: [String?]
        let idProperty: String?
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
    /// given, else the GeoJSON `id`, else the feature or row number; MultiPoint members get a
    /// suffix. An id names one place: when several features (lines) carry it, the last one with
    /// coordinates is that place and the earlier ones are superseded (nil) — a position stream
    /// appends a line per move. A feature without coordinates supersedes nothing.
    public static func keys(of set: PointSet, idProperty: String?) -> [String?] {
        var base: [String?] = []
        base.reserveCapacity(set.count)
        var owner: [String: Int32] = [:]  // id → the feature that places it (the last with coordinates)
        for i in 0..<set.count {
            var key: String?
            if let name = idProperty, let v = set.properties(at: i).first(where: { $0.key == name })?.value {
                key = "p:" + (v.text ?? "\(v)")
            } else if let id = set.idJSON(at: i) {
                key = "id:" + id
            }
            if let key, set.coordinates[i].isValid { owner[key] = set.sourcePositions[i] }
            base.append(key)
        }
        var keys: [String?] = []
        keys.reserveCapacity(set.count)
        var member = 0
        for i in 0..<set.count {
            let feature = set.sourcePositions[i]
            member = i > 0 && set.sourcePositions[i - 1] == feature ? member + 1 : 0
            let suffix = member == 0 ? "" : "~\(member)"
            if let key = base[i] {
                keys.append(owner[key] == feature ? key + suffix : nil)
            } else {
                keys.append("#\(feature)" + suffix)
            }
        }
        return keys
    }

    /// The identity keys of the shown points (one source), read while its bytes are readable.
    /// A file of 16 MiB or more is mapped rather than copied, and once it changes on disk its old
    /// bytes are no longer read (`PointSet.isSourceUnchanged`): keys read then would all differ
    /// and every place would look new (issue 34 item 3). So the keys are captured once — at the
    /// latest when watching starts (`captureIdentity`), or handed over by the update that made
    /// the session — and every later comparison uses them. Nil when they could not be read (the
    /// file changed before they were): the update then replaces the session.
    public func identityKeys(idProperty: String?) -> [String?]? {
        identity.lock.lock()
        defer { identity.lock.unlock() }
        if let captured = identity.keys, identity.idProperty == idProperty { return captured }
        guard sources.count == 1, !identity.unreadable else { return nil }
        let set = sources[0].points
        guard set.isSourceUnchanged else { identity.unreadable = true; return nil }
        let keys = Self.keys(of: set, idProperty: idProperty)
        // Checked after reading too: a change during the reading may have blanked some of them.
        guard set.isSourceUnchanged else { identity.unreadable = true; return nil }
        identity.keys = keys
        identity.idProperty = idProperty
        return keys
    }

    /// Captures the identity keys now (call off the GTK thread as soon as the data is watched)
    /// and returns a plan removing the places superseded by a later line of their id (nil when
    /// there are none, or the keys could not be read).
    public func captureIdentity(idProperty: String?) -> UpdatePlan? {
        guard let keys = identityKeys(idProperty: idProperty), sources.count == 1 else { return nil }
        let superseded = (0..<pointCount).filter { id in
            guard clusterer.contains(id) else { return false }
            let local = places.localIndex.map { Int($0[id]) } ?? id
            return local >= 0 && local < keys.count && keys[local] == nil
        }
        guard !superseded.isEmpty else { return nil }
        var kept: [(id: Int, local: Int)] = []
        let gone = Set(superseded)
        for id in 0..<pointCount where clusterer.contains(id) && !gone.contains(id) {
            kept.append((id, places.localIndex.map { Int($0[id]) } ?? id))
        }
        return UpdatePlan(old: self, set: sources[0].points, dataset: sources[0].dataset, changes: PointChanges(removals: superseded),
                          keys: keys, idProperty: idProperty, keptLocal: kept, addedLocal: [], replacement: nil, idMap: [:], renamed: [],
                          change: Change(removed: superseded.count))
    }

    /// Compares the shown points with a newly read set (call off the GTK thread: it reads only
    /// what doesn't change). Returns nil when nothing changed.
    public func planUpdate(to set: PointSet, dataset: Dataset?, idProperty: String?) -> UpdatePlan? {
        guard let oldSource = sources.first else { return nil }
        let newKeys = Self.keys(of: set, idProperty: idProperty)
        guard let oldKeys = identityKeys(idProperty: idProperty) else {
            // Who was who can't be known: show the new data as new (the selection closes).
            let fresh = Self.fresh(set, dataset: dataset, keys: newKeys, idProperty: idProperty)
            let change = Change(added: fresh.clusterer.count, removed: clusterer.count)
            return UpdatePlan(old: self, set: set, dataset: dataset, changes: PointChanges(), keys: newKeys, idProperty: idProperty,
                              keptLocal: [], addedLocal: [], replacement: fresh, idMap: [:], renamed: [], change: change)
        }
        var slotOf: [String: Int] = [:]
        slotOf.reserveCapacity(oldKeys.count)
        var alive: [Int] = []
        for id in 0..<pointCount where clusterer.contains(id) {
            alive.append(id)
            let local = places.localIndex.map { Int($0[id]) } ?? id
            if local >= 0 && local < oldKeys.count, let key = oldKeys[local] { slotOf[key] = id }
        }
        var changes = PointChanges()
        var kept: [(id: Int, local: Int)] = [], added: [Int] = [], renamed: [Int] = []
        var matched = Set<Int>()
        let namesReadable = oldSource.points.isSourceUnchanged
        for (j, key) in newKeys.enumerated() {
            guard let key else { continue }  // superseded by a later line of its id
            let c = set.coordinates[j]
            if let id = slotOf[key], c.isValid {
                matched.insert(id)
                kept.append((id, j))
                let oldLocal = places.localIndex.map { Int($0[id]) } ?? id
                if !namesReadable || oldSource.points.name(at: oldLocal) != set.name(at: j) { renamed.append(id) }
                if places.coordinates[id] != c { changes.moves.append((id, c)) }
            } else if c.isValid {
                added.append(j)
                changes.additions.append(c)
            }
        }
        changes.removals = alive.filter { !matched.contains($0) }
        let change = Change(added: changes.additions.count, removed: changes.removals.count, moved: changes.moves.count)
        let total = change.added + change.removed + change.moved
        // Nothing moved, came, went or was renamed: still an update when a place's other values
        // changed (a filter or the card reads them), told by its record's bytes.
        if total == 0 && renamed.isEmpty && set.count == oldSource.points.count
            && !kept.contains(where: { id, j in
                oldSource.points.recordDigest(at: places.localIndex.map { Int($0[id]) } ?? id) != set.recordDigest(at: j)
            }) { return nil }
        var replacement: MapDataSession?
        var idMap: [Int: Int] = [:]
        if sources.count != 1 || total > Self.maxInPlaceChanges {
            replacement = Self.fresh(set, dataset: dataset, keys: newKeys, idProperty: idProperty)
            for (id, local) in kept { idMap[id] = local }
        }
        return UpdatePlan(old: self, set: set, dataset: dataset, changes: changes, keys: newKeys, idProperty: idProperty,
                          keptLocal: kept, addedLocal: added, replacement: replacement, idMap: idMap, renamed: renamed, change: change)
    }

    /// A new session showing `set` without its superseded lines (they keep their local index but
    /// are not places), with its identity keys known.
    static func fresh(_ set: PointSet, dataset: Dataset?, keys: [String?], idProperty: String?) -> MapDataSession {
        var session = MapDataSession(pointSets: [set], datasets: [dataset])
        let superseded = keys.indices.filter { keys[$0] == nil }
        if !superseded.isEmpty {
            session.clusterer.remove(contentsOf: superseded)
            let local = keys.indices.map { keys[$0] == nil ? Int32(-1) : Int32($0) }
            session = MapDataSession(sources: session.sources, clusterer: session.clusterer,
                                     places: Places(sources: session.sources, coordinates: session.places.coordinates, localIndex: local),
                                     keepPlacesApart: session.keepsPlacesApart)
        }
        session.identity.keys = keys
        session.identity.idProperty = idProperty
        return session
    }

    /// The identity keys a session captured (see `identityKeys`), behind a lock: the reload thread
    /// and the capture at watch start may ask at once.
    public final class IdentityCache: @unchecked Sendable {
        let lock = NSLock()
        var keys: [String?]?
        var idProperty: String?
        /// The source changed on disk before its keys were read.
        var unreadable = false
        init() {}
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
        session.identity.keys = keys
        session.identity.idProperty = idProperty
        session.preparedPoints.follow(old.preparedPoints, oldPoints: old.places.coordinates)  // hook: updated, not remade
        let names = MapDataSession.NameChanges(removed: changes.removals, named: result.addedIDs + renamed)
        return (session, { id in id >= 0 && id < local.count && local[id] >= 0 ? id : nil }, names)
    }
}
