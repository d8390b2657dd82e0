import ClusterCore
import GeoData
import MapModel

/// What an open bubble card was read from: the bubble, its count, the clusters its id belongs to,
/// and some of its places — which is how the same bubble is found again after a filter result
/// or a time-bar step renumbered the clusters (an id means nothing across builds; the places
/// a bubble holds do).
struct BubbleCardShown {
    var id: SceneItemID
    var count: Int
    /// `MapPresentation.clustersStamp` of the clusters read.
    var session: ObjectIdentifier
    /// The data's live index: places keep their ids while it stays (another file: other places).
    var clusterer: ObjectIdentifier
    /// Up to `sampleSize` of its places (global ids), spread over its members.
    var places: [Int]
    var times: PropertyColumn?
    var maxZoom: Double
    /// Where its bubble was last drawn (nil: not yet): the nearest new bubbles are searched first.
    var centre: ScreenPoint?

    /// How many places identify a bubble.
    static let sampleSize = 64

    /// Some places of bubble `id`: all of a small one, else eight runs spread over its members.
    static func places(of id: SceneItemID, in session: MapDataSession) -> [Int] {
        guard case .cluster(let raw) = id, session.remote == nil else { return [] }
        let index = session.shownIndex, cluster = ClusterID(rawValue: raw)
        guard let count = index.item(for: cluster)?.count else { return [] }
        if count <= sampleSize { return index.leaves(of: cluster, limit: sampleSize, offset: 0) }
        let runs = 8
        return (0..<runs).flatMap { k in index.leaves(of: cluster, limit: sampleSize / runs, offset: k * count / runs) }
    }
}

extension MapPresentation {
    /// How many of the new bubbles nearest the card's are searched for its places.
    static let followSearched = 6
    /// Places read per searched bubble at most (a bigger one is searched in its first ones).
    static let followLeafLimit = 200_000

    /// Why a card could not follow its bubble.
    enum BubbleCardLoss: String, Error {
        /// None of its places shows any more (filtered out).
        case gone
        /// Its places now lie in several bubbles, none holding a third of them.
        case split
        /// Other data is shown (a live update, another file).
        case data
    }

    /// A bubble of the new clusters, where it is on screen.
    struct FollowCandidate {
        var id: SceneItemID
        var center: ScreenPoint
    }

    /// The clusters of `index` in `view` (not the scene's bubbles: those still fading out after
    /// a change carry the old clusters' ids, which mean other bubbles in the new index).
    static func followCandidates(in index: any PointClusterer, view: Camera) -> [FollowCandidate] {
        index.clusters(in: view.visibleBounds, zoom: view.zoom).compactMap { item in
            guard case .cluster(let c) = item.kind else { return nil }
            return FollowCandidate(id: .cluster(c.rawValue), center: view.screenPoint(for: item.coordinate))
        }
    }

    /// The new bubble that is `shown`'s: of the `candidates` nearest where it was, the nearest
    /// one holding at least a third of the places found in them. (Hierarchical clusters reshuffle
    /// when places come or go: a bubble's places often end up shared by the bubble left where it
    /// was and a neighbour; the one still there is what the eye takes for the same bubble.)
    /// Fails with `gone` when none of its places shows, `split` when they are spread thinner.
    static func sameBubble(as shown: BubbleCardShown, among candidates: [FollowCandidate],
                           index: any PointClusterer) -> Result<SceneItemID, BubbleCardLoss> {
        let wanted = Set(shown.places)
        guard !wanted.isEmpty else { return .failure(.gone) }
        var candidates = candidates
        if let c = shown.centre {
            candidates.sort { ($0.center.x - c.x) * ($0.center.x - c.x) + ($0.center.y - c.y) * ($0.center.y - c.y)
                < ($1.center.x - c.x) * ($1.center.x - c.x) + ($1.center.y - c.y) * ($1.center.y - c.y) }
        }
        var hits: [(id: SceneItemID, hits: Int)] = [], found = 0
        for b in candidates.prefix(followSearched) where found < wanted.count {
            guard case .cluster(let raw) = b.id else { continue }
            let leaves = index.leaves(of: ClusterID(rawValue: raw), limit: followLeafLimit, offset: 0)
            let n = leaves.reduce(0) { $0 + (wanted.contains($1) ? 1 : 0) }
            found += n
            hits.append((b.id, n))
        }
        guard found > 0 else { return .failure(.gone) }
        guard let same = hits.first(where: { $0.hits > 0 && $0.hits * 3 >= found }) else { return .failure(.split) }
        return .success(same.id)
    }

    /// The clusters under an open card changed: it follows its bubble with the new numbers
    /// (`bubble-card` with `followed`: the id it had), or closes saying why (`bubble-card-close`
    /// with `reason: data` and `why`).
    func followBubbleCard(_ shown: BubbleCardShown, view: Camera, session: MapDataSession) -> [MapEvent] {
        func close(_ why: BubbleCardLoss) -> [MapEvent] {
            closeBubbleCard(reason: "data").map { e in MapEvent(e.name, e.fields + [("why", .string(why.rawValue))]) }
        }
        guard shown.clusterer == ObjectIdentifier(session.clusterer),
              shown.times.map({ $0.count == session.pointCount }) ?? true else { return close(.data) }
        let index = session.shownIndex
        switch Self.sameBubble(as: shown, among: Self.followCandidates(in: index, view: view), index: index) {
        case .failure(let why):
            return close(why)
        case .success(let id):
            guard case .cluster(let raw) = id,
                  let content = session.bubbleCard(of: ClusterID(rawValue: raw), times: shown.times, maxZoom: shown.maxZoom) else {
                return close(.gone)
            }
            showBubbleCard(id, content, in: session, times: shown.times, maxZoom: shown.maxZoom)
            let e = MapPresentation.bubbleCardEvent(id, content)
            return [MapEvent(e.name, e.fields + [("followed", .int(shown.id.logID))])]
        }
    }
}
