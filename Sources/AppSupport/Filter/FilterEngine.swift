import Foundation
import ClusterCore
import GeoData

/// Works filters out over one session, off the GTK thread: decodes the places' properties once
/// (the first filter pays for it), keeps the typed columns, and builds the exact clusters of
/// the passing places for each `FilterSettings` asked.
///
/// Callers use it from one thread at a time (the window's `LatestRequestWorker` queue, or
/// `render` and tests on their own thread); a lock makes overlapping use wait rather than race.
public final class FilterEngine: @unchecked Sendable {
    /// The session whose places are filtered.
    public let session: MapDataSession
    private let lock = NSLock()
    private var evaluator: FilterEvaluator?
    private var inferred: [String: PropertyType] = [:]
    /// The session's points prepared for subset builds (`PreparedPoints`): made once, in the
    /// background, from the first filter on (it overlaps the properties' decoding), so every later
    /// build of a big selection skips projecting and sorting its first band.
    private var prepared: PreparedPoints?
    private var preparing = false
    /// Whether `warmUp` was asked (under `preparedLock`).
    private var warming = false
    /// `propertiesNoPlaceHolds` (under `preparedLock`: the GTK thread reads it while a filter works).
    private var unheld: Set<String> = []
    private let preparedLock = NSLock()
    private let preparedReady = DispatchGroup()
    /// What a live update's engine patches instead of decoding every place (`FilterEngine+Live`):
    /// the decoded table and the records' digests, once this engine has them; the earlier engine
    /// it follows, until then.
    let live = LiveTable()

    /// An engine for `session`. After a live update, pass the engine of the session shown
    /// before (`following`): when both show the same live index (ids stay), only the places
    /// added, changed or removed since are decoded again.
    public init(session: MapDataSession, following previous: FilterEngine? = nil) {
        self.session = session
        if let previous { live.follow(previous, from: session) }
    }

    /// The evaluator over the session's properties (built on first use), with the types the
    /// person chose in `types` and the inferred ones elsewhere.
    func evaluator(types: [String: PropertyType]) -> FilterEvaluator {
        // The points are prepared from the first filter on, overlapping the decoding when it
        // has not happened yet (a warm-up decodes only: it never asks for them).
        startPreparing()
        let e = builtEvaluator()
        // A type chosen before and now taken back returns to the inferred one.
        for (name, guess) in inferred {
            let wanted = types[name] ?? guess
            if e.table.type(of: name) != wanted { e.setType(wanted, of: name) }
        }
        return e
    }

    /// The evaluator with the inferred types, decoding the properties the first time (under `lock`).
    private func builtEvaluator() -> FilterEvaluator {
        if let built = evaluator { return built }
        let e = FilterEvaluator(table: decodedTable())
        for name in e.table.names { inferred[name] = e.table.type(of: name) }
        evaluator = e
        let gone = Set(e.table.names.filter { e.table.profile(of: $0)?.present == 0 })
        preparedLock.withLock { unheld = gone }
        return e
    }

    /// Places past which the window does not warm up (`warmUp`) behind the person's back: the
    /// decoded table costs about 240 MB per million places of three properties (measured at 1M),
    /// so a 10M file would take gigabytes for a filter that may never be asked; it waits for
    /// the first filter as before.
    public static let warmUpLimit = 2_000_000

    /// Decodes the properties now, on a background thread, so the first filter of the session
    /// does not wait for them (the panel, a key or the time bar then answer as fast as later
    /// filters). Once: a second call, or one after a filter has decoded them, does nothing.
    /// `done` gets how long the decoding took (ms; 0 when it was already done) and runs on the
    /// background thread. A filter asked meanwhile waits for this decoding instead of starting
    /// its own.
    /// - Parameter done: called once the table is ready, on the background thread.
    public func warmUp(done: (@Sendable (_ milliseconds: Double) -> Void)? = nil) {
        guard preparedLock.withLock({ () -> Bool in
            defer { warming = true }
            return !warming
        }) else { return }
        // Utility, not user-initiated: it must not take a core from the first frame or a live
        // update's build. (Not niced: the first filter may wait on this thread's lock, and an
        // unprivileged process could not raise a niced thread back.)
        DispatchQueue.global(qos: .utility).async { [self] in
            let started = DispatchTime.now().uptimeNanoseconds
            let decodedHere = lock.withLock { () -> Bool in
                let fresh = evaluator == nil
                _ = builtEvaluator()
                startPreparing()  // the subset builds' prepared points too (in their own background)
                return fresh
            }
            done?(decodedHere ? Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6 : 0)
        }
    }

    /// Runs `body` with the evaluator (types as in `evaluator(types:)`), one caller at a time.
    func withEvaluator<T>(types: [String: PropertyType], _ body: (FilterEvaluator) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(evaluator(types: types))
    }

    /// What `settings` choose and the places passing them: the evaluation, with the places live
    /// updates removed or superseded left out (nil: every place). What the exact build
    /// (`run`) and the interim (`FilterInterim.answer`) both start from.
    /// - Throws: `FilterSettingsError` naming the option and, for expressions, the column.
    func evaluate(_ settings: FilterSettings) throws -> (result: FilterResult, selection: PointSelection?) {
        lock.lock()
        defer { lock.unlock() }
        return try passing(settings)
    }

    /// `evaluate` (called under `lock`).
    private func passing(_ settings: FilterSettings) throws -> (result: FilterResult, selection: PointSelection?) {
        let result = try FilterResult.apply(settings, evaluator: evaluator(types: settings.types))
        var selection = result.selection
        if let live = session.livePlaces() {
            if selection == nil { selection = live } else { selection!.formIntersection(live) }
        }
        return (result, selection)
    }

    /// Starts preparing the session's points in the background, once (called under `lock`).
    private func startPreparing() {
        guard !preparing else { return }
        preparing = true
        let points = session.places.coordinates
        preparedReady.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let made = session.preparedPoints.prepared(points: points, options: MapDataSession.clusterOptions)
            preparedLock.withLock { prepared = made }
            preparedReady.leave()
        }
    }

    /// The prepared points for a build of `chosen` places. A big selection waits for them (the
    /// subset build uses them only when a group holds ≥ 1/16 of the points); a small one takes them
    /// if ready and never waits. Results are the same either way: only the speed differs.
    func preparedPoints(forChosen chosen: Int) -> PreparedPoints? {
        startPreparing()
        if chosen >= session.pointCount / 16 { preparedReady.wait() }
        return preparedLock.withLock { prepared }
    }

    /// The properties of the decoded table that no place holds any more (a live update removed
    /// or emptied every place that had one); empty before the table is decoded. The panel leaves
    /// them out and a condition on one says it matches nothing. Cheap: never waits for a filter.
    public var propertiesNoPlaceHolds: Set<String> { preparedLock.withLock { unheld } }

    /// The type inference gave a property (before the person chose another).
    func inferredType(of name: String) -> PropertyType? { inferred[name] }

    /// The exact clusters of the places passing `settings`; nil when nothing is asked (the live
    /// index of every place shows).
    /// - Throws: `FilterSettingsError` naming the option and, for expressions, the column.
    public func run(_ settings: FilterSettings) throws -> FilteredClusters? {
        guard !settings.isEmpty else {
            preparedLock.withLock { self.prepared }?.scratchPool.release()  // no filter shown: its builds' scratch goes back
            return nil
        }
        let started = DispatchTime.now().uptimeNanoseconds
        // Only the evaluation holds the lock: the build reads the session's places, which never
        // change, so an interim for a newer value (another thread) evaluates while this builds.
        let (result, selection) = try evaluate(settings)
        // The shown index aggregates the file's own categories and values (the bubble colours
        // and rings read them); a total gets an index of its own over the total's inputs.
        let (categories, values) = session.aggregateInputs()
        let prepared = preparedPoints(forChosen: selection?.chosenCount ?? session.pointCount)
        func build(categories: [Int32], values: [Double]) -> SubsetClusterer {
            SubsetClusterer(points: session.places.coordinates, selection: selection, groups: result.groups,
                            categories: categories, values: values,
                            method: .hierarchical(MapDataSession.clusterOptions), prepared: prepared)
        }
        let index = build(categories: categories, values: values)
        var totalIndex: SubsetClusterer?
        if !result.totalValues.isEmpty || !result.totalCategories.isEmpty {
            totalIndex = build(categories: result.totalCategories.isEmpty ? categories : result.totalCategories,
                               values: result.totalValues.isEmpty ? values : result.totalValues)
        }
        let ms = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
        return FilteredClusters(settings: settings, result: result, index: index, totalIndex: totalIndex, passing: index.indexedCount,
                                total: session.placeCount(),
                                expression: FilteredClusters.expression(of: settings, timeProperty: result.timeProperty),
                                milliseconds: ms)
    }
}
