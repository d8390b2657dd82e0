import AppSupport
import ClusterCore
import Foundation
import GeoData
import PostGIS

/// A PostGIS table open in the window (issue 31): its source, the view queue that asks it for
/// views off the GTK thread, which view the camera needs, and the fault the window shows.
/// Touched only on the GTK thread (the queue's answers are handed back there).
final class DatabaseLink {
    let source: PostGISSource
    let queue: PostGISViewQueue
    /// Which load generation opened it: answers for another are dropped.
    let generation: Int
    /// Which view to ask for as the camera moves.
    private var planner = PostGISViewPlanner()
    /// The view asked for and not answered yet (the chip says "querying…" meanwhile).
    private(set) var waiting: PostGISViewQueue.View?
    /// The fault last shown (shown again only when it changes; cleared by the next answer).
    private(set) var fault: String?
    /// Whether the server went away and the window is trying to reach it again.
    private(set) var isReconnecting = false
    /// Whether a view request is queued for the loop's next turn.
    private(set) var requestPending = false

    /// Queues a view request for the loop's next turn; false when one is queued already.
    func queueRequest() -> Bool {
        guard !requestPending else { return false }
        requestPending = true
        return true
    }

    /// The queued request runs now.
    func requestStarted() { requestPending = false }
    /// Answers shown so far.
    private(set) var answers = 0
    /// Tells the table's change watch (`--refresh`, on its own thread) to end.
    let watchStop = StopFlag()

    /// A flag set once, read from any thread.
    nonisolated final class StopFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var stopped = false
        /// Whether `stop()` was called.
        var isStopped: Bool { lock.withLock { stopped } }
        /// Sets the flag.
        func stop() { lock.withLock { stopped = true } }
    }

    /// Places read with their columns per view (their cards); the columns of a place beyond them
    /// are read when its card opens (`MapViewController+RemoteCards.swift`).
    /// (`CLUSTERMAP_PLACE_CARDS` sets it: a test reaches a place beyond them with a small table.)
    static var placeCards: Int {
        ProcessInfo.processInfo.environment["CLUSTERMAP_PLACE_CARDS"].flatMap(Int.init).map { max(0, $0) } ?? 2000
    }
    /// Reads those places' columns on a connection of its own (opened on the first such card).
    private(set) lazy var rowReader = source.rowReader()
    /// Columns read for cards, by row (a later view showing the place again needs no read).
    private(set) var cardColumns: [Int64: String] = [:]
    /// Rows whose columns are being read.
    private(set) var cardReads: Set<Int64> = []

    /// Starts reading `row`'s columns for its card: false when they are being read already.
    func startCardRead(_ row: Int64) -> Bool { cardReads.insert(row).inserted }

    /// `row`'s columns arrived (nil: none, or the read failed); kept for the next views.
    func cardRead(_ row: Int64, columns: String?) {
        cardReads.remove(row)
        if cardColumns.count >= 1000 { cardColumns.removeAll() }
        if let columns { cardColumns[row] = columns }
    }

    init(source: PostGISSource, generation: Int, queue: PostGISViewQueue) {
        self.source = source
        self.generation = generation
        self.queue = queue
    }

    /// The camera shows `visible` at `zoom`: the view to ask for (now waited for), or nil when the
    /// last one asked for covers it.
    /// `variant`: the filter and total it is asked under (its own cache entry).
    func ask(visible: GeoBounds, zoom: Double, variant: String = "") -> PostGISViewQueue.View? {
        guard var view = planner.viewToRequest(visible: visible, zoom: zoom) else { return nil }
        view.variant = variant
        waiting = view
        return view
    }

    /// `view` was answered (or failed): no longer waited for unless a newer one was asked since.
    func viewAnswered(_ view: PostGISViewQueue.View) {
        if waiting == view { waiting = nil }
    }

    /// The variant (filter and total) of the answer on the map (nil before the first).
    private(set) var shownVariant: String?

    /// Whether the map shows an answer under `variant` and waits for no other view (the time bar
    /// plays on only then: at most as fast as the server answers).
    func shows(_ variant: String) -> Bool { waiting == nil && shownVariant == variant }

    /// An answer for `view` is shown: counted, and the fault shown before it cleared. Returns
    /// whether there was one (the window then says the database answers again).
    func answerShown(_ view: PostGISViewQueue.View) -> Bool {
        answers += 1
        shownVariant = view.variant
        guard fault != nil else { return false }
        fault = nil
        return true
    }

    /// A view failed with `message`: the next camera change asks again. Returns whether the
    /// message is new (shown once per distinct fault).
    func failed(message: String) -> Bool {
        planner.reset()
        waiting = nil
        guard message != fault else { return false }
        fault = message
        return true
    }

    /// The server went away: returns whether this starts the reconnecting (not already in it).
    func startReconnecting() -> Bool {
        guard !isReconnecting else { return false }
        isReconnecting = true
        return true
    }

    /// The server answers again: cached views are stale, the shown one is asked for again.
    func reconnected() {
        isReconnecting = false
        tableChanged()
    }

    /// The filter or total changed: the shown view is asked for again under its new variant (the
    /// cached views of other variants stay: the same filter again is answered from the cache).
    func filterChanged() { planner.reset() }

    /// The table's rows changed: cached views are stale, the shown one is asked for again.
    func tableChanged() {
        queue.invalidate()
        planner.reset()
    }

    /// The items of an answer as the presentation takes them (the JSON columns of the places).
    /// Pure: called on the query thread.
    /// `total`: what the view was asked to total (its column names the cards' lines).
    /// The card of a place of a table without a key column (no primary key, no unique NOT NULL
    /// column): its row can't be found again (a ctid changes on update), so the card says so.
    nonisolated static let keylessCard = #"{"details":"not available: the table has no primary key or unique column"}"#

    nonisolated static func items(of result: PostGISViewResult, total: FilterSettings.TotalSetting? = nil) -> [RemoteView.Item] {
        result.items.map { item in
            RemoteView.Item(coordinate: item.coordinate, count: item.count, isCluster: item.isCluster, key: item.id,
                            expansionZoom: item.expansionZoom,
                            properties: item.isCluster ? nil : item.id.map { result.placeProperties[$0] } ?? DatabaseLink.keylessCard,
                            detail: DatabaseLink.detail(of: item, total: total))
                .with(facts: DatabaseLink.facts(of: item, total: total))
        }
    }
}
