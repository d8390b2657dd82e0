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

    private let folded: [UInt8]
    private let starts: [Int32]
    private let names: [String]
    private let weights: [Double]
    /// The point index of each name; empty when name `i` is point `i`.
    private let pointIndices: [Int32]

    /// Indexes names by point index; `weights` (e.g. population) order equally good matches,
    /// larger first (then shorter names, then lower indices).
    public init(names: [String], weights: [Double] = []) {
        self.init(names: names, pointIndices: [], weights: weights)
    }

    /// Indexes only some points' names: `names[i]` is the name of point `pointIndices[i]`
    /// (increasing), and `weights[i]` its weight. Millions of unnamed points then cost nothing.
    public init(names: [String], pointIndices: [Int32], weights: [Double] = []) {
        precondition(pointIndices.isEmpty || pointIndices.count == names.count, "one point index per name")
        self.pointIndices = pointIndices
        var buffer: [UInt8] = []
        buffer.reserveCapacity(names.count * 12)
        var starts: [Int32] = []
        starts.reserveCapacity(names.count + 1)
        var folder = Folder()
        for n in names {
            starts.append(Int32(buffer.count))
            folder.fold(n, into: &buffer)
        }
        starts.append(Int32(buffer.count))
        self.folded = buffer
        self.starts = starts
        self.names = names
        self.weights = weights.count == names.count ? weights : []
    }

    /// Number of indexed names.
    public var count: Int { names.count }

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
            return a.index < b.index
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
        return best.map { Match(index: pointIndices.isEmpty ? $0.index : Int(pointIndices[$0.index]),
                                name: names[$0.index], rank: $0.rank) }
    }

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
