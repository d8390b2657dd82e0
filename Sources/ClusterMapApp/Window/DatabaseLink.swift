import AppSupport
import Foundation
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
    var planner = PostGISViewPlanner()
    /// The view asked for and not answered yet (the chip says "querying…" meanwhile).
    var waiting: PostGISViewQueue.View?
    /// The fault last shown (shown again only when it changes; cleared by the next answer).
    var fault: String?
    /// Whether the server went away and the window is trying to reach it again.
    var isReconnecting = false
    /// Answers shown so far.
    var answers = 0
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

    /// Places read with their columns per view (their cards); a view with more places shows the
    /// rest by position only.
    static let placeCards = 2000

    init(source: PostGISSource, generation: Int, queue: PostGISViewQueue) {
        self.source = source
        self.generation = generation
        self.queue = queue
    }

    /// The items of an answer as the presentation takes them (the JSON columns of the places).
    /// Pure: called on the query thread.
    nonisolated static func items(of result: PostGISViewResult) -> [RemoteView.Item] {
        result.items.map { item in
            RemoteView.Item(coordinate: item.coordinate, count: item.count, isCluster: item.isCluster, key: item.id,
                            expansionZoom: item.expansionZoom,
                            properties: item.isCluster ? nil : item.id.flatMap { result.placeProperties[$0] })
        }
    }
}
