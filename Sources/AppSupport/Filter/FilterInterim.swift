import Foundation
import ClusterCore
import GeoData

/// The fast path for a small filter change (issue 29 item 3, SPEC §10 "exact once it
/// settles"): the passing places of the filter last worked out are held by a live index
/// (`LiveSubsetIndex`, adopted from that filter's exact build, no second build), so a change
/// that adds or removes few places is applied to it as one repaired batch and shown at once —
/// an *interim* frame — while the exact build of the new set is made and then replaces it.
/// With no filter shown, the places held are every place: the session's own full build, adopted
/// while its live index had no change since (`settle(_:session:unfiltered:)`), so the first
/// filter after "no filter" takes the fast path too.
///
/// Only plain filters take the repair. A change it can't take (too big, `--total`, the held set
/// busy) is recounted instead where that pays (`FilterRecount`, `firstFrame`); with `--by` the
/// exact build is the first frame, as before. The interim never stays: the job that shows it always goes on to the exact
/// build (`FilterJob.run(showingInterim:)`).
///
/// Used by one filter job at a time (the window's worker, or `applyFilter` on its own thread);
/// a lock makes overlapping use wait. The GTK thread never takes it (new data is noticed by
/// session identity, not reset from there), and an index once shown is never changed again: the
/// next change works on a new adoption.
public final class FilterInterim: @unchecked Sendable {
    private let lock = NSLock()
    /// The live index of the passing places last worked out, and what it was made for.
    private var held: LiveSubsetIndex?
    private weak var heldSession: MapDataSession?
    /// The aggregate inputs the held index was adopted with (by global id; additions need them).
    private var categories: [Int32] = []
    private var values: [Double] = []
    /// The place count shown with the held set ("of 1,000,000 places").
    private var placeCount = 0
    /// The held set is every place ("no filter" was shown): changes cost more each.
    private var heldEverything = false
    /// What to adopt next (`prepare`).
    private var pending: Pending?
    /// The recount for changes the repair can't take (its own lock).
    let recount = FilterRecount()
    /// The unfiltered build to ready the recount for (`prepare`).
    private var pendingRecount: (LiveClusterIndex.UnchangedBuild, MapDataSession)?
    private enum Pending {
        /// A filter's exact build, its session and place count.
        case subset(SubsetClusterer, MapDataSession, Int)
        /// "No filter": the session's own full build of every place, while it had no change.
        case everything(LiveClusterIndex.UnchangedBuild, MapDataSession)
    }

    /// The most places a change may add or remove to be shown as an interim first.
    ///
    /// Measured (`clustermap-bench filter --interim-only`, release, 1M places, about half
    /// passing, a 2-core machine at load 7–15): evaluating, repairing and querying cost about
    /// `repairMicroseconds` of CPU per changed place (3.1k changes: 54–74 ms, 10k: 140–230 ms),
    /// where the exact build costs about `buildMicroseconds` per passing place (500k: ~125 ms).
    /// The interim is taken while it fits the frame budget and costs well under the build; never
    /// past 1 % of the places (the SPEC's small change).
    ///
    /// From every place held (`fromEverything`, the first filter after "no filter") a change
    /// costs more per place: `repairFromEverythingMicroseconds`.
    static func changeLimit(places: Int, passing: Int, fromEverything: Bool = false) -> Int {
        let perChange = fromEverything ? repairFromEverythingMicroseconds : repairMicroseconds
        let frameBudget = Int(budgetMilliseconds * 1000 / perChange)
        let cheaperThanBuild = Int(Double(passing) * buildMicroseconds / perChange / 2)
        return min(places / 100, frameBudget, cheaperThanBuild)
    }
    static let budgetMilliseconds = 40.0
    static let repairMicroseconds = 16.0
    static let buildMicroseconds = 0.25
    /// Measured from "no filter" (`clustermap-bench filter --interim-only`, release, 1M places,
    /// load 6–7): 1,483 changed places took 36.4 and 35.6 ms CPU (two runs' medians), 24.5 µs
    /// each, against 13–16 µs for the 0.2 % subset change in the same runs. So 25 µs: at the
    /// limit it gives (1.6k places at 1M) the repair takes ~39 ms, within the frame budget,
    /// where the subset limit (2.5k) would take ~61 ms.
    static let repairFromEverythingMicroseconds = 25.0
    /// Fewer passing places build exactly within the frame budget: no live index is held for them
    /// (its state would cost every time-bar frame, for nothing).
    static var minimumPassing: Int { Int(budgetMilliseconds * 1000 / buildMicroseconds) }

    /// The limits in use (tests of small data lower them: `tune`).
    private var minimumPassing = FilterInterim.minimumPassing
    private var maximumChanges: Int?

    /// Takes the fast path from `minimumPassing` passing places on, for changes of at most
    /// `maximumChanges` places (tests: their data is far smaller than where it pays).
    func tune(minimumPassing: Int, maximumChanges: Int) {
        lock.withLock {
            self.minimumPassing = minimumPassing
            self.maximumChanges = maximumChanges
        }
    }

    public init() {}

    /// Whether a live index is held or waits to be adopted (tests: a live update drops it).
    var holdsPlaces: Bool { lock.withLock { held != nil || pending != nil } }

    /// The interim answer to `settings` on `engine`'s session: the held live index changed to
    /// the places that pass now, when the change is small; nil when there is no fast path (no
    /// held set, `--by` or `--total`, a big change, nothing to change, or an error: the exact
    /// path then answers, errors included).
    func answer(_ settings: FilterSettings, engine: FilterEngine, started: UInt64) -> FilteredClusters? {
        // Busy (an adoption after the previous exact build, or another repair): no repair now —
        // the recount answers instead of waiting.
        guard lock.try() else { return nil }
        defer { lock.unlock() }
        let session = engine.session
        adoptPending()
        guard let held, heldSession === session, !settings.isEmpty,
              settings.groupProperty == nil, settings.total == nil else { return nil }
        guard let (result, chosen) = try? engine.evaluate(settings) else { return nil }
        let selection = chosen ?? PointSelection(count: session.pointCount, all: true)
        guard selection.count == held.inputCount else { return nil }
        let passing = held.inputCount - held.skippedCount
        let limit = maximumChanges ?? Self.changeLimit(places: placeCount, passing: passing, fromEverything: heldEverything)
        guard let changed = held.changeCount(to: selection, limit: limit),
              changed > 0 else { return nil }
        held.apply(to: selection, points: session.places.coordinates, categories: categories, values: values)
        // Shown from now on, so never changed again: a newer value before the settle recounts.
        self.held = nil
        let ms = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
        return FilteredClusters(settings: settings, result: result, index: held, totalIndex: nil,
                                passing: held.inputCount - held.skippedCount, total: placeCount,
                                expression: FilteredClusters.expression(of: settings, timeProperty: result.timeProperty),
                                milliseconds: ms, changedPlaces: changed, interimKind: .repair)
    }

    /// The first frame for `settings`: the repair for a small change (near exact), else the
    /// recount of the unfiltered build where the exact build would miss the budget; nil: the
    /// exact build is the first frame. Times count from `requested` (when the value was asked).
    func firstFrame(_ settings: FilterSettings, engine: FilterEngine, unfiltered: LiveClusterIndex.UnchangedBuild?,
                    requested: UInt64, playing: Bool = false) -> FilteredClusters? {
        answer(settings, engine: engine, started: requested)
            ?? recount.answer(settings, engine: engine, unfiltered: unfiltered, requested: requested, playing: playing)
    }

    /// After an exact build on `session`: remembers it, to hold its passing places for the next
    /// change (`prepare`). Grouped or totalled results hold nothing. With no filter (`filtered`
    /// nil) the session's own build of every place is held instead, when `unfiltered` gives it
    /// (taken on the GTK thread while the live index had no change since its build): the first
    /// filter after "no filter" is then a small change too. Whatever was held before is dropped
    /// either way — after a live update it would be another session's. The recount is readied
    /// for `recountable` (or `unfiltered`): the session's unchanged build of every place.
    func settle(_ filtered: FilteredClusters?, session: MapDataSession, unfiltered: LiveClusterIndex.UnchangedBuild? = nil,
                recountable: LiveClusterIndex.UnchangedBuild? = nil) {
        lock.withLock {
            held = nil
            pending = nil
            pendingRecount = (recountable ?? unfiltered).map { ($0, session) }
            guard let filtered else {
                if let unfiltered, unfiltered.coordinates.count - unfiltered.build.skippedCount >= minimumPassing {
                    pending = .everything(unfiltered, session)
                }
                return
            }
            guard filtered.settings.groupProperty == nil, filtered.settings.total == nil,
                  let subset = filtered.index as? SubsetClusterer else { return }
            guard filtered.passing >= minimumPassing else { return }
            pending = .subset(subset, session, filtered.total)
        }
    }

    /// Adopts the exact build `settle` remembered as the live index of its passing places, and
    /// makes its repair state now, so the next change pays only for its repair.
    /// - Complexity: O(*n*) plus the live index's state for the passing places.
    func prepare() {
        let readyRecount = lock.withLock {
            adoptPending()
            defer { pendingRecount = nil }
            return pendingRecount
        }
        if let (build, session) = readyRecount { _ = recount.ready(build, session: session) }
    }

    /// `prepare` (called under `lock`).
    private func adoptPending() {
        guard let next = pending else { return }
        pending = nil
        let session: MapDataSession
        switch next {
        case .subset(_, let s, _), .everything(_, let s): session = s
        }
        if heldSession !== session {
            (categories, values) = session.aggregateInputs()
        }
        let adopted: LiveSubsetIndex?
        let places: Int
        let everything: Bool
        switch next {
        case .subset(let subset, _, let count):
            adopted = LiveSubsetIndex(adopting: subset, points: session.places.coordinates, categories: categories, values: values)
            places = count
            everything = false
        case .everything(let build, _):
            // Held: what the exact path starts from with no filter (every place live updates left).
            guard build.coordinates.count == session.pointCount else { return }
            adopted = LiveSubsetIndex(adopting: build, holding: session.livePlaces(), categories: categories, values: values)
            places = session.placeCount()
            everything = true
        }
        guard let adopted else { return }
        adopted.prepareForChanges()
        held = adopted
        heldSession = session
        placeCount = places
        heldEverything = everything
    }
}
