import CSoup
import Foundation

/// One-off GETs over libsoup 3 with the same honest User-Agent as the tile sources, for data
/// feeds (a GeoJSON URL that refreshes). Like `XYZTileSource`, it runs on the GLib main context
/// that is the thread default when `get` is called, and completions come back there.
/// No cache: a feed is fetched to see what changed.
///
/// Bounded (see `BoundedGet`): a feed is read as a stream of at most `maxBytes`
/// (`defaultMaxBytes`, 256 MB, counted after decompression), within `deadlineSeconds` from request
/// to last byte, through at most 5 redirects. Past a limit the completion says so in words
/// ("the answer is larger than 256 MB"), so a caller that schedules its next refresh from the
/// completion always gets to schedule it.
public final class HTTPDownload: @unchecked Sendable {
    /// The documented feed limit: 256 MB (binary), decompressed.
    public static let defaultMaxBytes = 256 << 20

    /// The deadline for a feed refreshed every `refreshSeconds`: a stuck fetch gives up about when
    /// the next one is due, so the refresh after it is scheduled on time (at least 30 s for a big
    /// feed on a slow line, at most 120 s).
    public static func feedDeadline(refreshSeconds: Double) -> Double {
        refreshSeconds.isFinite ? min(120, max(30, refreshSeconds)) : 120
    }

    /// Body bytes accepted at most, decompressed.
    public var maxBytes = HTTPDownload.defaultMaxBytes
    /// Seconds a GET may take from request to last byte.
    public var deadlineSeconds: Double

    private let session: UnsafeMutablePointer<SoupSession>
    private var running: [ObjectIdentifier: BoundedGet] = [:]

    /// Creates a session with this User-Agent, a time-out for silence (`timeoutSeconds`) and an
    /// overall deadline per GET (`deadlineSeconds`).
    public init(userAgent: String, timeoutSeconds: UInt32 = 30, deadlineSeconds: Double = 120) {
        session = soup_session_new()
        soup_session_set_user_agent(session, userAgent)
        soup_session_set_timeout(session, timeoutSeconds)
        self.deadlineSeconds = deadlineSeconds
    }

    deinit {
        for get in running.values { get.cancel() }
        g_object_unref(UnsafeMutableRawPointer(session))
    }

    /// Fetches `url`; `completion` runs later on the current main context with the body of a
    /// 2xx answer, or why there is none (`.http(status)`, `.network(message)`: no connection, or
    /// a limit the answer broke, in words).
    public func get(_ url: String, completion: @escaping (Result<Data, XYZTileSource.FetchError>) -> Void) {
        let limits = BoundedGet.Limits(maxBytes: maxBytes, deadlineSeconds: deadlineSeconds)
        var key: ObjectIdentifier?
        let get = BoundedGet.start(session: session, url: url, limits: limits) { [weak self] result in
            if let key { self?.running[key] = nil }
            switch result {
            case .success(let data): completion(.success(data))
            case .failure(.http(let status)): completion(.failure(.http(status)))
            case .failure(.cancelled): completion(.failure(.cancelled))
            case .failure(let failure): completion(.failure(.network(failure.message)))
            }
        }
        guard !get.isFinished else { return }  // a bad address fails at once
        key = ObjectIdentifier(get)
        running[ObjectIdentifier(get)] = get
    }
}
