import Foundation
import MapModel
import Tiles

/// Turns the names of the vector tiles on screen into the label placer's overlay: map-wide
/// coordinates, the built-in label kinds (so they look like the built-in map's names), and ids
/// that stay the same for the same name at the same place, so a name keeps its place while
/// tiles arrive or the view moves.
struct TileLabelOverlayBuilder {
    /// Identity of a name: its text, kind and place rounded to 2⁻²⁰ of the world (≈ 1 px at
    /// zoom 12), so that a town named by its tile at one zoom and by its child tile at the next
    /// (anchors differ by the tiles' rounding) is the same label.
    private struct Identity: Hashable {
        var text: String
        var kind: MapLabelKind
        var x: Int64, y: Int64
    }
    private var ids: [Identity: Int] = [:]
    private var nextID = -1
    private var revision = 0
    private var lastInput: [TileID] = []
    private var last: MapLabelOverlay?
    /// A tile's names as the overlay takes them, made once per tile: map-wide place, kind, text
    /// and identity, and the id once the identity has one (`ids` never changes an identity's id
    /// until it is emptied, and then this is emptied too).
    private struct Entry {
        var identity: Identity
        var priority: Double
        /// The text's bytes for sorting (see `orderKey`).
        var orderKey: [UInt8]?
        var candidate: MapLabelCandidate
        var id: Int?
    }
    private var entries: [TileID: [Entry]] = [:]
    /// Names in the last overlay (room reserved for the next).
    private var lastCount = 0

    /// −1, 0 or 1 as `a` sorts before, with or after `b` (bytes, then length).
    static func compareBytes(_ a: [UInt8], _ b: [UInt8]) -> Int {
        a.withUnsafeBufferPointer { x in
            b.withUnsafeBufferPointer { y in
                let n = min(x.count, y.count)
                let c = n == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, n)
                if c != 0 { return c < 0 ? -1 : 1 }
                return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
            }
        }
    }

    /// A text's UTF-8 bytes if it is in NFC form (ASCII always is), else nil.
    static func orderKey(_ text: String) -> [UInt8]? {
        let bytes = Array(text.utf8)
        if bytes.allSatisfy({ $0 < 0x80 }) { return bytes }
        return text.precomposedStringWithCanonicalMapping.utf8.elementsEqual(bytes) ? bytes : nil
    }

    /// Forgets what was made of a tile's names (call when they are replaced).
    mutating func forget(_ tile: TileID) {
        entries[tile] = nil
        namesReplaced = true
    }
    /// Whether a tile's names were replaced since the last overlay (then a rebuild is due even if
    /// the tiles and boxes are the same).
    private var namesReplaced = false

    /// The overlay for tiles drawn at `covered` (unit-square boxes), whose names come from
    /// `tiles` (source tiles, each with its candidates in 0…1 tile units; a tile whose names were
    /// replaced must have been `forget`-ed).
    ///
    /// A new overlay (a new revision, and so a new placement of the names) only when the names
    /// or the boxes changed (looked at only when the tiles or the boxes changed, or a tile's names
    /// were replaced). Each tile's names are converted once (`Entry`): a rebuild tests, numbers and
    /// sorts them, where it used to convert and hash every name again (a dense street view has
    /// two thousand).
    mutating func overlay(tiles: [(tile: TileID, labels: [TileLabelCandidate])], covered: [UnitBox]) -> MapLabelOverlay {
        let input = tiles.map(\.tile)
        // The same tiles and boxes, and no tile's names replaced: the same overlay (whatever else
        // was delivered meanwhile: a tile elsewhere, or an over-zoomed tile sharing an ancestor's
        // names). Why: rebuilding sorts two thousand names (1.4–3 ms on a dense street map).
        if let last, !namesReplaced, input == lastInput, covered == last.covered { return last }
        namesReplaced = false
        if ids.count > 200_000 {
            ids.removeAll()
            entries.removeAll()
            nextID = -1
        }
        if entries.count > 512 { entries = entries.filter { input.contains($0.key) } }
        var seen = Set<Int>(minimumCapacity: lastCount)
        var list: [(priority: Double, orderKey: [UInt8]?, candidate: MapLabelCandidate)] = []
        list.reserveCapacity(lastCount)
        let probe = MapLabelOverlay(candidates: [], covered: covered, revision: 0)
        for (tile, labels) in tiles {
            // (Taken out while it changes, so that the array isn't copied.)
            var made = entries.removeValue(forKey: tile) ?? Self.entries(tile, labels)
            for i in made.indices {
                let c = made[i].candidate
                guard probe.covers(x: c.x, y: c.y) else { continue }
                let id: Int
                if let known = made[i].id {
                    id = known
                } else if let known = ids[made[i].identity] {
                    id = known
                    made[i].id = known
                } else {
                    id = nextID
                    nextID -= 1
                    ids[made[i].identity] = id
                    made[i].id = id
                }
                // The same name twice at one place (neighbouring tiles' buffers): keep the first.
                guard seen.insert(id).inserted else { continue }
                var candidate = c
                candidate.id = id
                list.append((made[i].priority, made[i].orderKey, candidate))
            }
            entries[tile] = made
        }
        // Priority, then text, then id. Texts compare by their bytes when both are in Unicode's
        // NFC form (then byte order is `String`'s order; `String` compares non-ASCII texts through
        // normalisation, a third of a rebuild), else as strings.
        list.sort { a, b in
            if a.priority != b.priority { return a.priority > b.priority }
            if let ka = a.orderKey, let kb = b.orderKey {
                let order = Self.compareBytes(ka, kb)
                if order != 0 { return order < 0 }
            } else if a.candidate.text != b.candidate.text {
                return a.candidate.text < b.candidate.text
            }
            return a.candidate.id > b.candidate.id
        }
        // One name per water: a lake or a river crossing several tiles is named by each of them
        // (the Arno three times across central Florence); the first in the order above stands for it.
        var waters = Set<String>()
        list.removeAll { e in
            switch e.candidate.kind {
            case .lake, .river, .sea, .ocean: return !waters.insert(e.candidate.text).inserted
            default: return false
            }
        }
        lastCount = list.count
        let candidates = list.map(\.candidate)
        // The same names over the same area: the same overlay (and revision). Why: tiles keep
        // arriving while the view changes, and past the file's deepest zoom a dozen display tiles share
        // one ancestor's names; a new revision each time placed every name again (2–4 ms on a
        // dense street map) a few times a second in a zoom animation, for nothing.
        if let last, covered == last.covered, candidates == last.candidates {
            lastInput = input
            return last
        }
        revision += 1
        let overlay = MapLabelOverlay(candidates: candidates, covered: covered, revision: revision)
        (last, lastInput) = (overlay, input)
        return overlay
    }

    /// A tile's names in map-wide coordinates, with the built-in kinds and their identities.
    private static func entries(_ tile: TileID, _ labels: [TileLabelCandidate]) -> [Entry] {
        let n = Double(tile.tilesPerSide)
        return labels.map { c in
            let x = (Double(tile.x) + c.x) / n, y = (Double(tile.y) + c.y) / n
            let kind = TileLabelOverlayBuilder.kind(of: c)
            let text = kind == .district ? c.text.uppercased() : c.text
            let identity = Identity(text: text, kind: kind, x: Int64((x * 1_048_576).rounded()), y: Int64((y * 1_048_576).rounded()))
            return Entry(identity: identity, priority: c.priority, orderKey: orderKey(text),
                         candidate: MapLabelCandidate(id: 0, text: text, x: x, y: y, kind: kind, minZoom: 0, angle: c.angle))
        }
    }

    /// The built-in label kind that looks right for a tile's name.
    static func kind(of c: TileLabelCandidate) -> MapLabelKind {
        switch c.kind {
        case .road:
            return .road
        case .landmark:
            return .landmark
        case .water:
            switch c.featureClass {
            case "ocean": return .ocean
            case "sea", "bay", "strait": return .sea
            default: return c.angle != 0 ? .river : .lake
            }
        case .place:
            switch c.featureClass {
            case "country": return .country
            case "city": return .majorCity  // names sized by rank: a city above its towns and villages
            case "town": return .town
            case "village", "hamlet", "locality", "isolated_dwelling": return .village
            default: return .district  // state, region, suburb, quarter, neighbourhood
            }
        }
    }
}
