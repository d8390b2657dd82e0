import Foundation
import GeoData

/// Live data with a filter on (issue 29): each live update makes a new session, hence a new
/// engine. Decoding every place's properties again took seconds at a million places; instead
/// the new engine takes the table the engine before it decoded and decodes only the places
/// added, changed or removed since (`PropertyTable.updating`). Which kept places changed is told
/// by a digest of each record's bytes, kept by id: a re-read file has new bytes for every record,
/// but equal digests mean equal properties.
extension FilterEngine {
    /// The decoded table an engine hands to the engine after it, and what that one starts from.
    final class LiveTable: @unchecked Sendable {
        private let lock = NSLock()
        private var decoded: Decoded?
        private var previous: FilterEngine?
        /// How many records the last table this engine made decoded (all, or the changed ones).
        var recordsDecoded: Int { lock.withLock { read } }
        private var read = 0

        struct Decoded {
            let session: MapDataSession
            /// Every property by global id, with the inferred types (the person's choices are
            /// applied on top, in the evaluator).
            let table: PropertyTable
            /// Each id's record digest (0: unknown, or no place).
            let digests: [UInt64]
        }

        /// Starts from `engine`'s table (or the one it started from, when it has none yet: the
        /// chain never grows past one engine) when it shows the same live index.
        func follow(_ engine: FilterEngine, from session: MapDataSession) {
            guard engine.session.clusterer === session.clusterer, engine.session.pointCount <= session.pointCount else { return }
            let start = engine.live.lock.withLock { engine.live.decoded != nil ? engine : engine.live.previous }
            lock.withLock { previous = start }
        }

        /// How long making that table took (ms).
        var tableMilliseconds: Double { lock.withLock { ms } }
        private var ms = 0.0

        fileprivate func table(for session: MapDataSession) -> PropertyTable {
            let started = DispatchTime.now().uptimeNanoseconds
            let base = lock.withLock { previous }.flatMap { engine in engine.live.lock.withLock { engine.live.decoded } }
            let made = base.map { Self.patched($0, to: session) } ?? Self.decodedAfresh(session)
            let took = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
            lock.withLock {
                decoded = made.decoded
                previous = nil
                read = made.read
                ms = took
            }
            return made.decoded.table
        }

        /// Every place decoded (the first filter on a session).
        private static func decodedAfresh(_ session: MapDataSession) -> (decoded: Decoded, read: Int) {
            let n = session.pointCount
            var digests = [UInt64](repeating: 0, count: n)
            var read = 0
            let table = PropertyTable(count: n) { id in
                if session.places.isRemoved(id) { return [] }
                let (src, local) = session.source(of: id)
                digests[id] = src.points.recordDigest(at: local) ?? 0
                read += 1
                return src.points.properties(at: local)
            }
            return (Decoded(session: session, table: table, digests: digests), read)
        }

        /// `base`'s table with the rows of the places added, changed or removed since decoded again.
        private static func patched(_ base: Decoded, to session: MapDataSession) -> (decoded: Decoded, read: Int) {
            let old = base.session, oldCount = old.pointCount, n = session.pointCount
            var digests = base.digests
            digests.append(contentsOf: repeatElement(0, count: n - oldCount))
            var rows: [(id: Int, properties: [(key: String, value: PropertyValue)])] = []
            var read = 0
            // A live update shows one file (several files are replaced, never updated in place):
            // its set and each id's record are looked up directly, not through `source(of:)`,
            // whose copies of the set cost more than the digests at a million places.
            guard session.sources.count == 1, old.sources.count == 1 else { return decodedAfresh(session) }
            let set = session.sources[0].points, oldSet = old.sources[0].points
            let sameRecords = set.hasSameRecords(as: oldSet)
            let local = session.places.localIndex, oldLocal = old.places.localIndex
            for id in 0..<n {
                let wasPlace = id < oldCount && !old.places.isRemoved(id)
                if session.places.isRemoved(id) {
                    if wasPlace { rows.append((id, [])) }
                    digests[id] = 0
                    continue
                }
                let j = local.map { Int($0[id]) } ?? id
                if wasPlace {
                    if sameRecords && (oldLocal.map { Int($0[id]) } ?? id) == j { continue }
                    let digest = set.recordDigest(at: j) ?? 0
                    if digest != 0 && digest == digests[id] { continue }
                    digests[id] = digest
                } else {
                    digests[id] = set.recordDigest(at: j) ?? 0
                }
                rows.append((id, set.properties(at: j)))
                read += 1
            }
            let table = base.table.updating(count: n, rows: rows)
            return (Decoded(session: session, table: table, digests: digests), read)
        }
    }

    /// The session's properties by global id: patched from the engine this one follows, or
    /// decoded afresh (called once, under the engine's lock).
    func decodedTable() -> PropertyTable { live.table(for: session) }

    /// How many places' records this engine decoded for its table (every place, or after a live
    /// update only those added or changed): 0 before its first filter.
    public var recordsDecoded: Int { live.recordsDecoded }

    /// How long this engine's table took (ms): decoding every place, or patching after a live update.
    public var tableMilliseconds: Double { live.tableMilliseconds }
}
