import CSoup
import Foundation

/// One-off GETs over libsoup 3 with the same honest User-Agent as the tile sources, for data
/// feeds (a GeoJSON URL that refreshes). Like `XYZTileSource`, it runs on the GLib main context
/// that is the thread default when `get` is called, and completions come back there.
/// No cache: a feed is fetched to see what changed.
public final class HTTPDownload: @unchecked Sendable {
    private let session: UnsafeMutablePointer<SoupSession>
    private var running: [ObjectIdentifier: Box] = [:]

    /// Creates a session with this User-Agent and a time-out per request.
    public init(userAgent: String, timeoutSeconds: UInt32 = 30) {
        session = soup_session_new()
        soup_session_set_user_agent(session, userAgent)
        soup_session_set_timeout(session, timeoutSeconds)
    }

    deinit {
        for box in running.values { g_cancellable_cancel(box.cancellable) }
        g_object_unref(UnsafeMutableRawPointer(session))
    }

    /// Fetches `url`; `completion` runs later on the current main context with the body of a
    /// 2xx answer, or why there is none (`.http(status)`, `.network(message)`).
    public func get(_ url: String, completion: @escaping (Result<Data, XYZTileSource.FetchError>) -> Void) {
        guard let message = soup_message_new("GET", url) else {
            completion(.failure(.network("not a URL: \(url)")))
            return
        }
        let box = Box(owner: self, message: message, completion: completion)
        running[ObjectIdentifier(box)] = box
        soup_session_send_and_read_async(session, message, G_PRIORITY_DEFAULT, box.cancellable, { _, result, data in
            guard let data else { return }
            let box = Unmanaged<Box>.fromOpaque(data).takeRetainedValue()
            box.owner?.finish(box, result)
        }, Unmanaged.passRetained(box).toOpaque())
    }

    private func finish(_ box: Box, _ result: OpaquePointer?) {
        running[ObjectIdentifier(box)] = nil
        var error: UnsafeMutablePointer<GError>?
        let bytes = soup_session_send_and_read_finish(session, result, &error)
        defer { if let bytes { g_bytes_unref(bytes) } }
        if let error {
            let text = String(cString: error.pointee.message)
            g_error_free(error)
            box.completion(.failure(.network(text)))
            return
        }
        let status = Int(soup_message_get_status(box.message).rawValue)
        guard (200..<300).contains(status) else {
            box.completion(.failure(.http(status)))
            return
        }
        var size: gsize = 0
        let data = bytes.flatMap { g_bytes_get_data($0, &size) }.map { Data(bytes: $0, count: Int(size)) } ?? Data()
        box.completion(.success(data))
    }

    private final class Box {
        weak var owner: HTTPDownload?
        let message: OpaquePointer
        let cancellable: UnsafeMutablePointer<GCancellable>
        let completion: (Result<Data, XYZTileSource.FetchError>) -> Void
        init(owner: HTTPDownload, message: OpaquePointer, completion: @escaping (Result<Data, XYZTileSource.FetchError>) -> Void) {
            self.owner = owner
            self.message = message
            self.completion = completion
            cancellable = g_cancellable_new()
        }
        deinit {
            g_object_unref(UnsafeMutableRawPointer(message))
            g_object_unref(UnsafeMutableRawPointer(cancellable))
        }
    }
}
