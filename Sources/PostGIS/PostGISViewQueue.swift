import ClusterCore
import Foundation

/// Asks a source for views off the caller's (GTK) thread: at most one query in flight plus the
/// latest view asked for; a newer view supersedes the waiting one and cancels the one in flight
/// (PQcancel), so a pan never waits behind views nobody looks at any more. Revisited views come from
/// a small cache. Results arrive through `deliver` on the worker thread (hand them to the GTK
/// thread the GLib way) — never for a superseded view.
public final class PostGISViewQueue: @unchecked Sendable {
    /// One view: box and whole zoom (views within one zoom level share their clusters' zoom).
    public struct View: Hashable, Sendable {
        public var bounds: GeoBounds
        public var zoom: Int
        /// What the view is asked under when the options change while the queue runs (the
        /// window's filter and total as written: `PostGISViewQueue+LiveOptions`): the same box
        /// under another filter is another view, with its own cache entry, so a time window
        /// played back and forth is answered from the cache. Empty for fixed options.
        public var variant = ""
        public init(bounds: GeoBounds, zoom: Double) {
            self.bounds = bounds
            self.zoom = zoom.isFinite ? Int(zoom.rounded(.down)) : 0
        }
    }

    private let run: @Sendable (View) throws -> PostGISViewResult
    private let cancelRunning: @Sendable () -> Void
    private let forget: @Sendable () -> Void
    private let deliver: @Sendable (View, Result<PostGISViewResult, Error>) -> Void
    private let lock = NSLock()
    private var running: View?
    private var pending: View?
    /// The running view may have read rows from before an `invalidate()`: it runs again.
    private var runningIsStale = false
    /// `stop()` was called: nothing more runs or is delivered.
    private var stopped = false
    /// Most times a view nobody superseded runs again after a stray cancel (see `work`).
    static let strayCancelRetries = 2
    private var cache: [View: PostGISViewResult] = [:]
    private var cacheOrder: [View] = []
    private let cacheSize: Int
    /// Queries started, cancelled as superseded, and views answered from the cache (for tests and logs).
    public private(set) var started = 0, superseded = 0, cacheHits = 0

    /// A queue over a source with fixed options; with `placeCards` > 0 each view also reads the
    /// columns of up to that many of its places (their cards), in the same turn on the connection.
    public convenience init(source: PostGISSource, options: PostGISViewOptions, cacheSize: Int = 32, placeCards: Int = 0,
                            deliver: @escaping @Sendable (View, Result<PostGISViewResult, Error>) -> Void) {
        self.init(cacheSize: cacheSize, run: { view in
            var result = try source.clusters(in: view.bounds, zoom: Double(view.zoom), options: options)
            if placeCards > 0 {
                let places = result.items.lazy.filter { !$0.isCluster && $0.id != nil }.prefix(placeCards)
                result.placeProperties = try source.rowProperties(of: Array(places))
            }
            return result
        }, cancel: { source.cancel() }, forget: { source.forgetAggregates() }, deliver: deliver)
    }

    /// A queue over any query function (tests inject slow ones).
    init(cacheSize: Int, run: @escaping @Sendable (View) throws -> PostGISViewResult, cancel: @escaping @Sendable () -> Void,
         forget: @escaping @Sendable () -> Void = {}, deliver: @escaping @Sendable (View, Result<PostGISViewResult, Error>) -> Void) {
        self.cacheSize = max(1, cacheSize)
        self.run = run
        self.cancelRunning = cancel
        self.forget = forget
        self.deliver = deliver
    }

    /// Asks for a view; returns at once (a cached view is delivered before returning).
    public func request(_ view: View) {
        lock.lock()
        if stopped { lock.unlock(); return }
        if var hit = cache[view] {
            hit.fromCache = true
            cacheHits += 1
            pending = nil
            let wasRunning = running != nil && running != view
            if wasRunning { superseded += 1 }
            lock.unlock()
            if wasRunning { cancelRunning() }
            deliver(view, .success(hit))
            return
        }
        if let r = running {
            if r == view { pending = runningIsStale ? view : nil; lock.unlock(); return }
            pending = view
            superseded += 1
            lock.unlock()
            cancelRunning()
            return
        }
        running = view
        started += 1
        lock.unlock()
        Thread.detachNewThread { [self] in work(view) }
    }

    /// Forgets cached views and the source's kept cells (the data changed, or options did); a view
    /// running now runs again when it ends (unless a newer view waits), and its first answer is
    /// neither cached nor delivered.
    public func invalidate() {
        forget()
        lock.lock()
        cache.removeAll()
        cacheOrder.removeAll()
        if let r = running {
            runningIsStale = true
            if pending == nil { pending = r }
        }
        lock.unlock()
    }

    /// Stops the queue for good (its source is closed): the query in flight is cancelled and
    /// nothing more runs or is delivered.
    public func stop() {
        lock.lock()
        stopped = true
        pending = nil
        let wasRunning = running != nil
        lock.unlock()
        if wasRunning { cancelRunning() }
    }

    private func work(_ first: View) {
        var view = first
        var strayCancels = 0
        while true {
            let outcome = Result { try run(view) }
            lock.lock()
            if stopped { running = nil; lock.unlock(); return }
            let next = pending
            pending = nil
            // A cancel sent for a superseded view reaches the server when it gets there: if that
            // view had ended, it stops whatever runs then — this view, which nobody superseded.
            // Delivered, the "cancelled" answer was dropped as superseded and the latest view was
            // never answered (a test waited for it forever under load). It runs again instead.
            if next == nil, case .failure(let error) = outcome, case PostGISError.cancelled? = error as? PostGISError,
               strayCancels < Self.strayCancelRetries {
                strayCancels += 1
                started += 1
                lock.unlock()
                continue
            }
            if case .success(let r) = outcome, !runningIsStale {
                cache[view] = r
                cacheOrder.removeAll { $0 == view }
                cacheOrder.append(view)
                if cacheOrder.count > cacheSize { cache[cacheOrder.removeFirst()] = nil }
            }
            runningIsStale = false
            if let next {
                running = next
                started += 1
                lock.unlock()
                // The finished view was superseded: a result for it is stale (a cancel error too).
                view = next
                strayCancels = 0
                continue
            }
            running = nil
            lock.unlock()
            deliver(view, outcome)
            return
        }
    }
}
