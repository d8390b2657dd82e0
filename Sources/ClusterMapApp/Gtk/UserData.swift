import CGtk

/// How a C callback finds its Swift object: through its user data (ARCHITECTURE §1: never through a
/// global). The data is a retained box holding the object weakly, released by the connection's or
/// source's destroy notify, so a callback that comes after its object is gone finds nil.
enum UserData {
    private final class WeakBox { weak var object: AnyObject?; init(_ o: AnyObject) { object = o } }

    /// A new box for `object`, to pass as user data together with `release` (or `releaseClosure`).
    static func retain(_ object: AnyObject) -> gpointer { Unmanaged.passRetained(WeakBox(object)).toOpaque() }

    /// The object in a box made by `retain`, if it is still alive and of type `T`.
    static func object<T: AnyObject>(_ data: gpointer?, as type: T.Type = T.self) -> T? {
        guard let data else { return nil }
        return Unmanaged<WeakBox>.fromOpaque(data).takeUnretainedValue().object as? T
    }

    /// The map controller in a box made by `retain`, unless its window has closed.
    static func controller(_ data: gpointer?) -> MapViewController? {
        guard let c = object(data, as: MapViewController.self), !c.isClosed else { return nil }
        return c
    }

    /// The destroy notify of a GLib source or a callback registration.
    static let release: GDestroyNotify = { data in
        if let data { Unmanaged<AnyObject>.fromOpaque(data).release() }
    }

    /// The destroy notify of a signal connection.
    static let releaseClosure: GClosureNotify = { data, _ in
        if let data { Unmanaged<AnyObject>.fromOpaque(data).release() }
    }
}

/// Connects a C callback to a signal with `owner` as its user data (see `UserData`).
@discardableResult
func connectSignal<T>(_ instance: UnsafeMutablePointer<T>, _ signal: String, _ callback: GCallback, owner: AnyObject) -> gulong {
    g_signal_connect_data(instance, signal, callback, UserData.retain(owner), UserData.releaseClosure, GConnectFlags(rawValue: 0))
}

/// Same as `connectSignal(_:_:_:owner:)` for opaque instances (controllers, gestures, actions).
@discardableResult
func connectSignal(_ instance: OpaquePointer, _ signal: String, _ callback: GCallback, owner: AnyObject) -> gulong {
    g_signal_connect_data(UnsafeMutableRawPointer(instance), signal, callback, UserData.retain(owner), UserData.releaseClosure,
                          GConnectFlags(rawValue: 0))
}
