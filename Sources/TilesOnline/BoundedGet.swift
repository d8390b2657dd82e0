import CSoup
import Foundation

/// One GET over libsoup 3 whose answer is read as a stream, with limits no server can get past.
///
/// `soup_session_send_and_read_async` keeps a whole answer in memory however large it is (one
/// 2 GiB tile took the app to 4.35 GB; an endless answer aborted it in `g_malloc`). Here the body
/// is read 64 KiB at a time after the content decoder, so `maxBytes` counts *decompressed* bytes
/// (a 1 MB gzip bomb stops at the limit); a `Content-Length` above the limit stops before any body
/// byte is read; an overall deadline ends a body that trickles in (libsoup's own time-out only
/// notices silence, and one byte a second is never silent); and redirects are followed by hand,
/// at most `maxRedirects` hops (libsoup allows 20, so a loop cost 21 requests per attempt).
///
/// Runs on the GLib main context that is the thread default when `start` is called; the
/// completion runs there exactly once.
final class BoundedGet {
    /// The limits of one GET.
    struct Limits {
        /// Body bytes accepted at most (after decompression).
        var maxBytes: Int
        /// Seconds from the first request to the last body byte, redirects included.
        var deadlineSeconds: Double
        /// Redirects followed at most.
        var maxRedirects = 5
    }

    /// Why there is no body.
    enum Failure: Error, Equatable {
        /// A non-2xx status (after redirects).
        case http(Int)
        /// No connection, a broken answer, an I/O time-out.
        case network(String)
        /// `cancel` was called.
        case cancelled
        /// The body (decompressed) or its declared length is over `maxBytes`.
        case tooLarge(limit: Int)
        /// The deadline passed before the body was complete.
        case deadline(seconds: Double)
        /// More redirects than `maxRedirects`.
        case tooManyRedirects(Int)
        /// The address (or a redirect's) is not a URL libsoup can request.
        case badAddress(String)

        /// Whether trying again later may help (a server error or a dropped connection, not a
        /// limit the answer broke).
        var isWorthRetrying: Bool {
            switch self {
            case .network: return true
            case .http(let s): return (500..<600).contains(s) || s == 408 || s == 429
            default: return false
            }
        }

        /// In words, for a banner or the event log ("larger than 8 MB").
        var message: String {
            switch self {
            case .http(let status): return "HTTP \(status)"
            case .network(let text): return text
            case .cancelled: return "cancelled"
            case .tooLarge(let limit): return "the answer is larger than \(BoundedGet.megabytes(limit))"
            case .deadline(let s): return "the answer took longer than \(Int(s.rounded())) s"
            case .tooManyRedirects(let n): return "more than \(n) redirects"
            case .badAddress(let url): return "not a URL: \(url)"
            }
        }
    }

    private let session: UnsafeMutablePointer<SoupSession>
    private let limits: Limits
    private let completion: (Result<Data, Failure>) -> Void
    /// One per hop: a redirect drops the old connection without cancelling the next request.
    private var cancellable: UnsafeMutablePointer<GCancellable>
    private var message: OpaquePointer?
    private var stream: UnsafeMutablePointer<GInputStream>?
    private var url: String
    private var body = Data()
    /// Where a pending read writes: raw memory, as it must stay put while the read is in flight
    /// (an array's storage is only pinned inside `withUnsafe…`).
    private let buffer = UnsafeMutableRawPointer.allocate(byteCount: BoundedGet.chunkBytes, alignment: 16)
    private var hops = 0
    private var deadlineTimer: guint = 0
    private var timedOut = false
    private var isDone = false

    /// Bytes asked of the stream per read.
    static let chunkBytes = 64 << 10

    /// Starts a GET of `url`; `completion` runs later on this thread's main context.
    @discardableResult
    static func start(session: UnsafeMutablePointer<SoupSession>, url: String, limits: Limits,
                      completion: @escaping (Result<Data, Failure>) -> Void) -> BoundedGet {
        let get = BoundedGet(session: session, url: url, limits: limits, completion: completion)
        get.armDeadline()
        get.send()
        return get
    }

    private init(session: UnsafeMutablePointer<SoupSession>, url: String, limits: Limits,
                 completion: @escaping (Result<Data, Failure>) -> Void) {
        self.session = session
        self.url = url
        self.limits = limits
        self.completion = completion
        cancellable = g_cancellable_new()
        g_object_ref(UnsafeMutableRawPointer(session))
    }

    deinit {
        if deadlineTimer != 0 { g_source_remove(deadlineTimer) }
        if let stream { g_object_unref(UnsafeMutableRawPointer(stream)) }
        if let message { g_object_unref(UnsafeMutableRawPointer(message)) }
        g_object_unref(UnsafeMutableRawPointer(cancellable))
        g_object_unref(UnsafeMutableRawPointer(session))
        buffer.deallocate()
    }

    /// Whether the completion has run.
    var isFinished: Bool { isDone }

    /// Aborts the GET; the completion reports `.cancelled` (unless it already ran).
    func cancel() {
        guard !isDone else { return }
        g_cancellable_cancel(cancellable)
    }

    // MARK: - Steps

    private func send() {
        guard let m = soup_message_new("GET", url) else { return finish(.failure(.badAddress(url))) }
        if let message { g_object_unref(UnsafeMutableRawPointer(message)) }
        message = m
        if hops > 0 {
            g_object_unref(UnsafeMutableRawPointer(cancellable))
            cancellable = g_cancellable_new()
        }
        soup_message_add_flags(m, SOUP_MESSAGE_NO_REDIRECT)
        soup_session_send_async(session, m, G_PRIORITY_DEFAULT, cancellable, { _, result, data in
            guard let data else { return }
            Unmanaged<BoundedGet>.fromOpaque(data).takeRetainedValue().didSend(result)
        }, Unmanaged.passRetained(self).toOpaque())
    }

    private func didSend(_ result: OpaquePointer?) {
        var error: UnsafeMutablePointer<GError>?
        let s = soup_session_send_finish(session, result, &error)
        if let error { return finish(.failure(failure(from: error))) }
        guard let s, let message else { return finish(.failure(.network("no answer"))) }
        stream = s
        let status = Int(soup_message_get_status(message).rawValue)
        let headers = soup_message_get_response_headers(message)
        if (300..<400).contains(status), status != 304, let location = headers.flatMap({ soup_message_headers_get_one($0, "Location") }) {
            return redirect(to: String(cString: location))
        }
        // 204 has no body: for a tile, "no tile here".
        guard (200..<300).contains(status), status != 204 else { return finish(.failure(.http(status))) }
        if let headers, soup_message_headers_get_encoding(headers) == SOUP_ENCODING_CONTENT_LENGTH,
           soup_message_headers_get_content_length(headers) > limits.maxBytes {
            return finish(.failure(.tooLarge(limit: limits.maxBytes)))
        }
        read()
    }

    private func redirect(to location: String) {
        hops += 1
        guard hops <= limits.maxRedirects else { return finish(.failure(.tooManyRedirects(limits.maxRedirects))) }
        var error: UnsafeMutablePointer<GError>?
        guard let resolved = g_uri_resolve_relative(url, location, G_URI_FLAGS_NONE, &error) else {
            if let error { g_error_free(error) }
            return finish(.failure(.badAddress(location)))
        }
        url = String(cString: resolved)
        g_free(resolved)
        dropStream(abort: true)
        send()
    }

    private func read() {
        guard let stream else { return }
        // The pending read holds a reference to self, and so to the buffer.
        g_input_stream_read_async(stream, buffer, gsize(BoundedGet.chunkBytes), G_PRIORITY_DEFAULT, cancellable, { _, result, data in
            guard let data else { return }
            Unmanaged<BoundedGet>.fromOpaque(data).takeRetainedValue().didRead(result)
        }, Unmanaged.passRetained(self).toOpaque())
    }

    private func didRead(_ result: OpaquePointer?) {
        guard let stream else { return }
        var error: UnsafeMutablePointer<GError>?
        let n = g_input_stream_read_finish(stream, result, &error)
        if let error { return finish(.failure(failure(from: error))) }
        if n <= 0 { return finish(.success(body)) }
        guard body.count + n <= limits.maxBytes else { return finish(.failure(.tooLarge(limit: limits.maxBytes))) }
        body.append(buffer.assumingMemoryBound(to: UInt8.self), count: n)
        read()
    }

    // MARK: - Ending

    private func failure(from error: UnsafeMutablePointer<GError>) -> Failure {
        defer { g_error_free(error) }
        if g_error_matches(error, g_io_error_quark(), Int32(G_IO_ERROR_CANCELLED.rawValue)) != 0 {
            return timedOut ? .deadline(seconds: limits.deadlineSeconds) : .cancelled
        }
        return .network(String(cString: error.pointee.message))
    }

    private func finish(_ result: Result<Data, Failure>) {
        guard !isDone else { return }
        isDone = true
        if deadlineTimer != 0 { g_source_remove(deadlineTimer); deadlineTimer = 0 }
        body = Data()
        if case .failure = result { dropStream(abort: true) } else { dropStream(abort: false) }
        completion(result)
    }

    /// Lets go of the body stream. One not read to its end is aborted first (`abort`), so that
    /// libsoup drops the connection instead of reading the rest (an endless answer never ends).
    private func dropStream(abort: Bool) {
        guard let s = stream else { return }
        stream = nil
        if abort { g_cancellable_cancel(cancellable) }
        g_object_unref(UnsafeMutableRawPointer(s))
    }

    private func armDeadline() {
        let weakBox = Unmanaged.passRetained(WeakBox(self)).toOpaque()
        deadlineTimer = g_timeout_add_full(G_PRIORITY_DEFAULT, guint(max(1, limits.deadlineSeconds * 1000)), { data in
            guard let data, let get = Unmanaged<WeakBox>.fromOpaque(data).takeUnretainedValue().get else { return 0 }
            get.deadlineTimer = 0
            get.timedOut = true
            g_cancellable_cancel(get.cancellable)
            return 0  // G_SOURCE_REMOVE
        }, weakBox, { data in
            guard let data else { return }
            Unmanaged<WeakBox>.fromOpaque(data).release()
        })
    }

    private final class WeakBox {
        weak var get: BoundedGet?
        init(_ get: BoundedGet) { self.get = get }
    }

    /// "8 MB", "256 MB" (binary megabytes, as the limits are set).
    static func megabytes(_ bytes: Int) -> String { "\(bytes >> 20) MB" }
}
