import CSoup
import Foundation
import Tiles

/// Tiles from an online XYZ server over libsoup 3, with libsoup's HTTP cache on disk.
///
/// Everything runs on the GLib main context that is the thread default when a request is made (the
/// GTK main loop in the app, a context the caller iterates in `render` and tests): completions come
/// back there, and the class must only be used from that thread. Decoding the bytes is the
/// caller's business (off that thread). Nothing is requested until `fetch` is called, so an app
/// that never chooses an online source never contacts a server.
///
/// Politeness: an honest User-Agent, at most `maxRequestsPerHost` requests in flight per host
/// (the rest wait in a queue, newest first, and can be cancelled before they start), retries with
/// exponential backoff only for 5xx answers and network failures, and the server's cache headers
/// followed by `SoupCache` (nothing is re-requested while fresh, even across launches).
///
/// Bounded: a tile is read as a stream of at most `maxTileBytes` (decompressed), within
/// `tileDeadlineSeconds`, through at most `maxRedirects` redirects (see `BoundedGet`); an answer
/// past a limit fails for good (not retried). No server can make the app hold more than that.
public final class XYZTileSource: @unchecked Sendable {
    /// Why a tile could not be fetched.
    public enum FetchError: Error, Equatable {
        /// 404/410: the server has no such tile (not retried).
        case notFound
        /// Another HTTP status after the retries.
        case http(Int)
        /// No connection, time-out, …, after the retries; also an answer past a limit (too large,
        /// too slow, too many redirects), in words.
        case network(String)
        /// `cancel` was called.
        case cancelled
    }

    /// Counts for the event log's `tiles` line.
    public struct Statistics: Sendable, Equatable {
        /// Tiles asked for, arrived, failed for good, cancelled; retries made.
        public var requested = 0, loaded = 0, failed = 0, cancelled = 0, retried = 0

        /// Creates counts (zero by default).
        public init(requested: Int = 0, loaded: Int = 0, failed: Int = 0, cancelled: Int = 0, retried: Int = 0) {
            self.requested = requested; self.loaded = loaded; self.failed = failed
            self.cancelled = cancelled; self.retried = retried
        }
    }

    /// One tile request; keep it to cancel it.
    public final class Request {
        /// The tile asked for.
        public let tile: TileID
        /// Its URL.
        public let url: String
        let host: String
        let completion: (Result<Data, FetchError>) -> Void
        var get: BoundedGet?
        var attempt = 0
        var isDone = false
        var isRunning = false
        var timer: guint = 0

        init(tile: TileID, url: String, completion: @escaping (Result<Data, FetchError>) -> Void) {
            self.tile = tile
            self.url = url
            host = TileURLTemplate.host(of: url)
            self.completion = completion
        }
    }

    /// The URL template.
    public let template: TileURLTemplate
    /// The User-Agent sent.
    public let userAgent: String
    /// Requests in flight per host at most (OSM's tile usage policy asks for a small number).
    public var maxRequestsPerHost = 4
    /// Attempts per tile for 5xx and network failures.
    public var maxAttempts = 3
    /// First retry delay in seconds; doubled each time.
    public var backoffSeconds = 0.5
    /// Bytes of one tile at most, decompressed (a 512-px @2x PNG is well under 1 MB).
    public var maxTileBytes = 8 << 20
    /// Seconds one attempt may take from request to last byte (a trickling body ends here).
    public var tileDeadlineSeconds = 30.0
    /// Redirects followed per attempt.
    public var maxRedirects = 5
    /// What happened so far.
    public private(set) var statistics = Statistics()

    private let session: UnsafeMutablePointer<SoupSession>
    /// The main context current when the source was made: requests run and complete there
    /// (`tileData(for:scale:)` hands them over from loader threads).
    let context: OpaquePointer
    private let cache: UnsafeMutablePointer<SoupCache>?
    private let cacheDirectory: String?
    private var inFlight: [String: Int] = [:]
    private var waiting: [String: [Request]] = [:]

    /// Creates a source. `cacheDirectory` (e.g. `$XDG_CACHE_HOME/clustermap/http`) holds the HTTP
    /// cache, capped at `cacheBytes`; nil disables caching.
    public init(template: TileURLTemplate, userAgent: String, cacheDirectory: String?,
                cacheBytes: Int = 256 << 20, timeoutSeconds: UInt32 = 15) {
        self.template = template
        self.userAgent = userAgent
        self.cacheDirectory = cacheDirectory
        context = g_main_context_ref_thread_default()
        session = soup_session_new()
        soup_session_set_user_agent(session, userAgent)
        soup_session_set_timeout(session, timeoutSeconds)
        if let dir = cacheDirectory {
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            CachePrivacy.restrict(folder: dir)
            let c = soup_cache_new(dir, SOUP_CACHE_SINGLE_USER)
            if let c {
                soup_cache_set_max_size(c, guint(clamping: cacheBytes))
                soup_session_add_feature(session, OpaquePointer(c))
                soup_cache_load(c)
            }
            cache = c
        } else {
            cache = nil
        }
    }

    deinit {
        saveCache()
        if let cache { g_object_unref(UnsafeMutableRawPointer(cache)) }
        g_object_unref(UnsafeMutableRawPointer(session))
        g_main_context_unref(context)
    }

    /// Writes the HTTP cache index to disk (without it the next launch forgets the cache).
    public func saveCache() {
        guard let cache else { return }
        soup_cache_flush(cache)
        soup_cache_dump(cache)
        if let dir = cacheDirectory { CachePrivacy.restrict(folder: dir) }
    }

    /// Requests a tile; `completion` runs later on the current thread's main context, exactly once
    /// (also after `cancel`, with `.cancelled`).
    @discardableResult
    public func fetch(_ tile: TileID, scale: Double = 1, completion: @escaping (Result<Data, FetchError>) -> Void) -> Request {
        let request = Request(tile: tile, url: template.url(for: tile, scale: scale), completion: completion)
        statistics.requested += 1
        enqueue(request)
        return request
    }

    /// Cancels a request: a waiting one never goes out, a running one is aborted.
    public func cancel(_ request: Request) {
        guard !request.isDone else { return }
        if request.isRunning, let get = request.get {
            get.cancel()  // the completion callback reports .cancelled
            return
        }
        if request.timer != 0 { g_source_remove(request.timer); request.timer = 0 }
        waiting[request.host]?.removeAll { $0 === request }
        finish(request, .failure(.cancelled))
    }

    // MARK: - Queue

    private func enqueue(_ request: Request) {
        waiting[request.host, default: []].append(request)
        pump(request.host)
    }

    private func pump(_ host: String) {
        while inFlight[host, default: 0] < maxRequestsPerHost, var list = waiting[host], !list.isEmpty {
            // Newest first: the tiles asked for last are the ones in view now.
            let next = list.removeLast()
            waiting[host] = list
            start(next)
        }
    }

    private func start(_ request: Request) {
        request.isRunning = true
        request.attempt += 1
        inFlight[request.host, default: 0] += 1
        let limits = BoundedGet.Limits(maxBytes: maxTileBytes, deadlineSeconds: tileDeadlineSeconds, maxRedirects: maxRedirects)
        request.get = BoundedGet.start(session: session, url: request.url, limits: limits) { [weak self] result in
            self?.completed(request, result)
        }
    }

    private func completed(_ request: Request, _ result: Result<Data, BoundedGet.Failure>) {
        request.isRunning = false
        request.get = nil
        inFlight[request.host, default: 1] -= 1
        defer { pump(request.host) }
        switch result {
        case .success(let data):
            finish(request, .success(data))
        case .failure(.cancelled):
            finish(request, .failure(.cancelled))
        case .failure(.http(let status)) where [404, 410, 204].contains(status):
            finish(request, .failure(.notFound))
        case .failure(let failure):
            let error: FetchError
            if case .http(let status) = failure { error = .http(status) } else { error = .network(failure.message) }
            if failure.isWorthRetrying { retryOrFail(request, error) } else { finish(request, .failure(error)) }
        }
    }

    private func retryOrFail(_ request: Request, _ error: FetchError) {
        guard request.attempt < maxAttempts else { finish(request, .failure(error)); return }
        statistics.retried += 1
        let delay = backoffSeconds * pow(2, Double(request.attempt - 1))
        let box = Unmanaged.passRetained(RetryBox(source: self, request: request)).toOpaque()
        request.timer = g_timeout_add_full(G_PRIORITY_DEFAULT, guint(max(1, delay * 1000)), { data in
            guard let data else { return 0 }
            let box = Unmanaged<RetryBox>.fromOpaque(data).takeUnretainedValue()
            box.request.timer = 0
            box.source?.enqueue(box.request)
            return 0  // G_SOURCE_REMOVE
        }, box, { data in
            guard let data else { return }
            Unmanaged<RetryBox>.fromOpaque(data).release()
        })
    }

    private final class RetryBox {
        weak var source: XYZTileSource?
        let request: Request
        init(source: XYZTileSource, request: Request) { self.source = source; self.request = request }
    }

    private func finish(_ request: Request, _ result: Result<Data, FetchError>) {
        guard !request.isDone else { return }
        request.isDone = true
        switch result {
        case .success: statistics.loaded += 1
        case .failure(.cancelled): statistics.cancelled += 1
        case .failure: statistics.failed += 1
        }
        request.completion(result)
    }
}
