import Foundation

/// Finds places by name for the search field (SPEC §6): case- and accent-insensitive, matching
/// the start of the name or of any word in it, best matches first.
///
/// Built once per loaded data set (off the GTK thread for big sets: ~170k names), then queried on
/// every keystroke. Names are folded to lowercase ASCII-like UTF-8 ("Évora" → "evora") and kept in
/// one contiguous buffer, so a query is a single linear scan without allocations per name.
public struct PlaceSearch: Sendable {
    /// One match: the global point index, its name and how well it matched.
    public struct Match: Equatable, Sendable {
        public let index: Int
        public let name: String
        public let rank: Rank
    }

    /// How a name matched, best first.
    public enum Rank: Int, Comparable, Sendable {
        /// The whole name equals the query.
        case exact = 0
        /// The name starts with the query.
        case prefix = 1
        /// A later word in the name starts with the query.
        case wordPrefix = 2

        public static func < (a: Rank, b: Rank) -> Bool { a.rawValue < b.rawValue }
    }

    // Entries: a name folded into one buffer each, with the point id it names. Live data
    // changes the index in place: a removed point's entry is marked dead, a renamed or added
    // one gets a new entry at the end (`update`).
    private var folded: [UInt8]
    private var starts: [Int32]
    private var names: [String]
    private var weights: [Double]
    /// Entry → point id (empty: the entry's index is the id).
    private var ids: [Int32] = []
    /// Entry is a removed (or replaced) point's.
    private var dead: [Bool] = []
    /// Point id → its entry, when entries were changed (empty: the id is the entry).
    private var entryOfID: [Int32] = []
    private var deadCount = 0

    /// Indexes names by point index; `weights` (e.g. population) order equally good matches,
    /// larger first (then shorter names, then lower indices). A nil name is no place (a
    /// removed point's id): it never matches.
    public init(names: [String?], weights: [Double] = []) {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(names.count * 12)
        var starts: [Int32] = []
        starts.reserveCapacity(names.count + 1)
        var folder = Folder()
        for n in names {
            starts.append(Int32(buffer.count))
            if let n { folder.fold(n, into: &buffer) }
        }
        starts.append(Int32(buffer.count))
        self.folded = buffer
        self.starts = starts
        self.names = names.map { $0 ?? "" }
        self.weights = weights.count == names.count ? weights : []
        if names.contains(where: { $0 == nil }) {
            dead = names.map { $0 == nil }
            deadCount = dead.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
    }

    /// Indexes only some points' names: `names[i]` is the name of point `pointIndices[i]`
    /// (increasing), and `weights[i]` its weight. Millions of unnamed points then cost nothing.
    public init(names: [String], pointIndices: [Int32], weights: [Double] = []) {
        precondition(pointIndices.isEmpty || pointIndices.count == names.count, "one point index per name")
        self.init(names: names, weights: weights)
        ids = pointIndices
    }

    /// Number of indexed names (removed places not counted).
    public var count: Int { names.count - deadCount }

    /// The entry of a point id, nil when it has none (or a dead one).
    private func entry(of id: Int) -> Int? {
        let e: Int
        if !entryOfID.isEmpty {
            e = id < entryOfID.count ? Int(entryOfID[id]) : -1
        } else if !ids.isEmpty {
            e = entryBySearch(of: id)
        } else {
            e = id
        }
        guard e >= 0, e < names.count, dead.isEmpty || !dead[e] else { return nil }
        return e
    }

    /// The entry of `id` while `ids` is still the increasing list given at creation (-1: none).
    private func entryBySearch(of id: Int) -> Int {
        var lo = 0, hi = ids.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if Int(ids[mid]) < id { lo = mid + 1 } else { hi = mid }
        }
        return lo < ids.count && Int(ids[lo]) == id ? lo : -1
    }

    private mutating func kill(_ e: Int) {
        if dead.isEmpty { dead = [Bool](repeating: false, count: names.count) }
        if !dead[e] { dead[e] = true; deadCount += 1 }
    }

    /// A live change: the place `id` is gone (its name no longer matches).
    public mutating func remove(_ id: Int) {
        if let e = entry(of: id) { kill(e) }
    }

    /// A live change: the place `id` is new or renamed (nil: it has no name any more).
    public mutating func update(_ id: Int, name: String?, weight: Double = 0) {
        if let e = entry(of: id) {
            if names[e] == (name ?? "") { return }
            kill(e)
        }
        guard let name else { return }
        if entryOfID.isEmpty {
            if ids.isEmpty {
                entryOfID = (0..<names.count).map { Int32($0) }
            } else {
                // Only some points were named: map every id once (live data only comes here).
                entryOfID = [Int32](repeating: -1, count: Int(ids.last ?? -1) + 1)
                for (e, pid) in ids.enumerated() { entryOfID[Int(pid)] = Int32(e) }
            }
        }
        if ids.isEmpty { ids = (0..<names.count).map { Int32($0) } }
        while entryOfID.count <= id { entryOfID.append(-1) }
        entryOfID[id] = Int32(names.count)
        ids.append(Int32(id))
        if !dead.isEmpty { dead.append(false) }
        if !weights.isEmpty { weights.append(weight) }
        var folder = Folder()
        folder.fold(name, into: &folded)
        starts.append(Int32(folded.count))
        names.append(name)
    }

    /// The best `limit` matches for a query (empty for a blank query).
    public func search(_ query: String, limit: Int = 8) -> [Match] {
        var folder = Folder()
        var q: [UInt8] = []
        folder.fold(query, into: &q)
        // Trim and collapse spaces so "  lis " finds Lisbon.
        while q.first == 0x20 { q.removeFirst() }
        while q.last == 0x20 { q.removeLast() }
        guard !q.isEmpty, limit > 0 else { return [] }

        var found: [(index: Int, rank: Rank)] = []
        folded.withUnsafeBufferPointer { text in
            q.withUnsafeBufferPointer { query in
                let qn = query.count
                let q0 = query[0]
                for i in 0..<(starts.count - 1) {
                    if !dead.isEmpty && dead[i] { continue }
                    let s = Int(starts[i]), e = Int(starts[i + 1])
                    let len = e - s
                    guard len >= qn else { continue }
                    var p = s
                    var atWordStart = true
                    while p + qn <= e {
                        if atWordStart && text[p] == q0 {
                            var k = 1
                            while k < qn && text[p + k] == query[k] { k += 1 }
                            if k == qn {
                                let rank: Rank = p == s ? (len == qn ? .exact : .prefix) : .wordPrefix
                                found.append((i, rank))
                                break
                            }
                        }
                        atWordStart = Folder.isSeparator(text[p])
                        p += 1
                    }
                }
            }
        }
        func better(_ a: (index: Int, rank: Rank), _ b: (index: Int, rank: Rank)) -> Bool {
            if a.rank != b.rank { return a.rank < b.rank }
            if !weights.isEmpty {
                let wa = weights[a.index].isFinite ? weights[a.index] : -.infinity
                let wb = weights[b.index].isFinite ? weights[b.index] : -.infinity
                if wa != wb { return wa > wb }
            }
            let la = starts[a.index + 1] - starts[a.index], lb = starts[b.index + 1] - starts[b.index]
            if la != lb { return la < lb }
            return id(a.index) < id(b.index)
        }
        // Partial selection: keep the best `limit` without sorting every hit.
        var best: [(index: Int, rank: Rank)] = []
        for f in found {
            if best.count < limit {
                best.append(f)
                best.sort(by: better)
            } else if better(f, best[best.count - 1]) {
                best[best.count - 1] = f
                best.sort(by: better)
            }
        }
        return best.map { Match(index: id($0.index), name: names[$0.index], rank: $0.rank) }
    }

    private func id(_ entry: Int) -> Int { ids.isEmpty ? entry : Int(ids[entry]) }

    /// Folds text for matching: lowercase, accents removed, punctuation kept as word separators.
    public static func fold(_ s: String) -> String {
        var folder = Folder()
        var out: [UInt8] = []
        folder.fold(s, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Folds Unicode scalars to UTF-8 bytes, caching non-ASCII scalars' foldings.
    private struct Folder {
        private var cache: [UInt32: [UInt8]] = [:]

        static func isSeparator(_ b: UInt8) -> Bool {
            switch b {
            case 0x20, 0x2D, 0x27, 0x28, 0x29, 0x2C, 0x2E, 0x2F, 0x26, 0x22, 0x5F: return true // space - ' ( ) , . / & " _
            default: return false
            }
        }

        mutating func fold(_ s: String, into out: inout [UInt8]) {
            for u in s.unicodeScalars {
                let v = u.value
                if v < 0x80 {
                    var b = UInt8(v)
                    if b >= 0x41 && b <= 0x5A { b += 0x20 }
                    if b == 0x09 || b == 0x0A || b == 0x0D { b = 0x20 }
                    out.append(b)
                    continue
                }
                if let cached = cache[v] { out += cached; continue }
                let folded = Folder.foldScalar(u)
                cache[v] = folded
                out += folded
            }
        }

        /// Decomposes a scalar (canonical), drops combining marks and lowercases the rest.
        private static func foldScalar(_ u: Unicode.Scalar) -> [UInt8] {
            switch u {
            case "ß": return Array("ss".utf8)
            case "æ", "Æ": return Array("ae".utf8)
            case "œ", "Œ": return Array("oe".utf8)
            case "ø", "Ø": return [0x6F]
            case "ł", "Ł": return [0x6C]
            case "đ", "Đ": return [0x64]
            case "ı": return [0x69]
            case "\u{2019}", "\u{2018}", "\u{02BC}": return [0x27] // typographic apostrophes
            case "\u{2010}", "\u{2011}", "\u{2013}", "\u{2014}": return [0x2D]
            case "\u{00A0}": return [0x20]
            default: break
            }
            var out: [UInt8] = []
            for d in String(u).decomposedStringWithCanonicalMapping.unicodeScalars {
                if (0x300...0x36F).contains(d.value) { continue } // combining diacritical marks
                for l in d.properties.lowercaseMapping.unicodeScalars {
                    out += Array(String(l).utf8)
                }
            }
            return out
        }
    }
}
