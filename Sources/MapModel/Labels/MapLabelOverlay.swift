/// Names brought by another source (a street map's vector tiles), placed before the built-in
/// names, and the area where they replace them.
///
/// Where a vector street map is drawn it names its own places, waters and streets; the built-in
/// names anchored there give way, so a town is never named twice (once by each source) and the
/// street map's finer names win. Elsewhere (outside the file's area or zooms) the built-in names
/// stay.
public struct MapLabelOverlay: Sendable {
    /// Candidates in priority order (most important first). Their ids are negative and stable
    /// across overlays for the same name at the same place, so a placed name keeps its place
    /// when more tiles arrive.
    public let candidates: [MapLabelCandidate]
    /// Unit-square boxes (x and y in 0…1, within one world copy) where these names replace the
    /// built-in ones.
    public let covered: [UnitBox]
    /// Changes whenever the candidates or the covered area change (cheap comparison per frame).
    public let revision: Int
    private let byID: [(id: Int, index: Int)]
    /// Per candidate, the key the placer's repeated-name test uses for its text (`LineNameAnchors.key`;
    /// 0 for names that don't repeat along lines): made once per overlay, not per placement.
    let textKeys: [Int]

    public init(candidates: [MapLabelCandidate], covered: [UnitBox], revision: Int) {
        precondition(candidates.allSatisfy { $0.id < 0 }, "overlay label ids are negative")
        self.candidates = candidates
        self.covered = covered
        self.revision = revision
        // Ids and places sorted by id (a binary search finds one; a dictionary of two thousand
        // ids cost a fifth of an overlay's making, for a few lookups a frame).
        var byID = candidates.indices.map { (id: candidates[$0].id, index: $0) }
        byID.sort { $0.id != $1.id ? $0.id < $1.id : $0.index > $1.index }  // the last of equal ids first
        self.byID = byID
        textKeys = candidates.map { $0.kind.repeatsAlongLines ? LineNameAnchors.key($0.text) : 0 }
    }

    /// The candidate with `id` (a negative id), if this overlay has it.
    public func candidate(id: Int) -> MapLabelCandidate? {
        var lo = 0, hi = byID.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if byID[mid].id < id { lo = mid + 1 } else { hi = mid }
        }
        return lo < byID.count && byID[lo].id == id ? candidates[byID[lo].index] : nil
    }

    /// Whether a unit-square point (x wrapped into 0…1) lies where the overlay's names rule.
    public func covers(x: Double, y: Double) -> Bool {
        let wx = x - x.rounded(.down)
        return covered.contains { wx >= $0.minX && wx < $0.maxX && y >= $0.minY && y < $0.maxY }
    }
}

/// An axis-aligned box in the unit square (Web Mercator, x east, y south).
public struct UnitBox: Sendable, Equatable {
    public var minX: Double, minY: Double, maxX: Double, maxY: Double
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
    }
}
