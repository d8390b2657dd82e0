import Foundation
import ClusterCore
import GeoData

/// The recounted first frame for a filter change the repair can't take (issue 29 item 3): the
/// session's unfiltered build of every place, recounted over the places that pass now
/// (`HierarchyRecount`) — any change, in one pass over the cluster table — shown while the
/// exact build is made, then replaced by it (SPEC §10 "exact once it settles").
///
/// Taken where the exact build is expected to miss the frame budget (many passing places) and
/// the build to recount is the session's own, unchanged since it was made (after a live update
/// there is none until a compaction: the exact build is then the first frame, as before).
/// `--by` keeps categories apart, which the unfiltered build doesn't: no recount for it.
/// `--total` is recounted too (the total's inputs aggregated over the same clusters).
///
/// Its own lock, never held through a build: a recount never waits behind the exact build or
/// the repair's adoption.
public final class FilterRecount: @unchecked Sendable {
    private let lock = NSLock()
    /// The recountable build last readied, and the places it holds.
    private var base: HierarchyRecount?
    private var placeCount = 0

    /// Fewer passing places build exactly within the budget (`FilterInterim.buildMicroseconds`
    /// each); tests lower it.
    private var minimumPassing = FilterInterim.minimumPassing

    /// Recounts from `minimumPassing` passing places on (tests: their data is small).
    func tune(minimumPassing: Int) { lock.withLock { self.minimumPassing = minimumPassing } }

    init() {}

    /// Whether recounting `places` beats building `passing` places exactly, where the build would
    /// miss the budget (from `minimumPassing` places on). Measured (`clustermap-bench filter
    /// --recount-only`, release, 1M places, load ~10): the recount with its evaluation and first
    /// query takes 25–28 ms CPU whatever passes, `recountMicroseconds` a place; the build
    /// `FilterInterim.buildMicroseconds` a passing place. So at 10M places a filter passing 200k
    /// builds (~50 ms) faster than it recounts (~250 ms): no recount there.
    ///
    /// A step of a playing time bar (`playing`) recounts wherever that is cheaper, however few
    /// pass: nothing settles while the bar plays (the newest step is built exactly when it stops),
    /// so only the step's cost counts, and in the window a step's build costs about
    /// `playBuildMicroseconds` a passing place. Measured in the window (release, 1M places, a
    /// cumulative bar, load ~5): steps built exactly ran at 35 fps at 66k passing, 23 at 98k and
    /// 18 at 132k; recounted steps at 30–32 fps whatever passed. So at 1M a step recounts from 60k.
    static func pays(passing: Int, places: Int, minimumPassing: Int, playing: Bool = false) -> Bool {
        let build = playing ? playBuildMicroseconds : FilterInterim.buildMicroseconds
        return (playing || passing >= minimumPassing) && Double(passing) * build >= Double(places) * recountMicroseconds
    }
    static let recountMicroseconds = 0.03
    static let playBuildMicroseconds = 0.5

    /// The recounter for `unfiltered` (made once per build: projecting every place, O(*n*)), and
    /// how many places there are.
    func ready(_ unfiltered: LiveClusterIndex.UnchangedBuild, session: MapDataSession) -> (HierarchyRecount, Int)? {
        guard unfiltered.coordinates.count == session.pointCount else { return nil }
        if let made = lock.withLock({ base.flatMap { $0.build === unfiltered.build ? ($0, placeCount) : nil } }) { return made }
        let made = HierarchyRecount(build: unfiltered.build)
        let places = session.placeCount()
        lock.withLock {
            base = made
            placeCount = places
        }
        return (made, places)
    }

    /// The recounted answer to `settings`, nil when there is none to give (nothing asked, `--by`,
    /// no unchanged build, few passing places, an error: the exact path answers).
    /// A step of a playing time bar (`playing`) takes the play rule (`pays`).
    func answer(_ settings: FilterSettings, engine: FilterEngine, unfiltered: LiveClusterIndex.UnchangedBuild?,
                requested: UInt64, playing: Bool = false) -> FilteredClusters? {
        guard !settings.isEmpty, settings.groupProperty == nil, let unfiltered else { return nil }
        guard let (result, chosen) = try? engine.evaluate(settings) else { return nil }
        let session = engine.session
        let passingGuess = chosen?.chosenCount ?? session.pointCount
        let builds = settings.total == nil ? 1 : 2
        guard Self.pays(passing: passingGuess * builds, places: session.pointCount, minimumPassing: lock.withLock({ minimumPassing }),
                             playing: playing),
              let (recounter, places) = ready(unfiltered, session: session) else { return nil }
        let (categories, values) = session.aggregateInputs()
        let index = recounter.recount(passing: chosen, categories: categories, values: values)
        var totalIndex: RecountedClusters?
        if !result.totalValues.isEmpty || !result.totalCategories.isEmpty {
            totalIndex = recounter.sameRecount(as: index, categories: result.totalCategories.isEmpty ? categories : result.totalCategories,
                                               values: result.totalValues.isEmpty ? values : result.totalValues)
        }
        let ms = Double(DispatchTime.now().uptimeNanoseconds - requested) / 1e6
        return FilteredClusters(settings: settings, result: result, index: index, totalIndex: totalIndex,
                                passing: index.passingCount, total: places,
                                expression: FilteredClusters.expression(of: settings, timeProperty: result.timeProperty),
                                milliseconds: ms, interimKind: .recount)
    }
}
