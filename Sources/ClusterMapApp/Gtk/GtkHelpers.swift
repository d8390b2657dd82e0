import CGtk

// Thin typed helpers over the GTK C API: the cast macros (GTK_WIDGET(), …) and g_signal_connect are
// not imported into Swift (ARCHITECTURE §4), so every cast and connection goes through here.

/// Reinterprets a GObject pointer as another GObject type (what the C cast macros do, unchecked).
@inline(__always)
func gcast<T, U>(_ p: UnsafeMutablePointer<T>, to: U.Type = U.self) -> UnsafeMutablePointer<U> {
    UnsafeMutableRawPointer(p).assumingMemoryBound(to: U.self)
}

/// A GObject pointer of any kind as a `GtkWidget*`.
@inline(__always)
func asWidget<T>(_ p: UnsafeMutablePointer<T>) -> UnsafeMutablePointer<GtkWidget> { gcast(p) }

/// An opaque GTK object (gestures and controllers are opaque in Swift) as a `GtkWidget*`.
@inline(__always)
func asWidget(_ p: OpaquePointer) -> UnsafeMutablePointer<GtkWidget> {
    UnsafeMutablePointer<GtkWidget>(p)
}

/// Connects a C callback to a signal. The callback must be a `@MainActor @convention(c)` function whose
/// parameters match the signal; it is passed through `unsafeBitCast` to `GCallback`.
@discardableResult
func connectSignal<T>(_ instance: UnsafeMutablePointer<T>, _ signal: String, _ callback: GCallback,
                      data: gpointer? = nil) -> gulong {
    g_signal_connect_data(instance, signal, callback, data, nil, GConnectFlags(rawValue: 0))
}

/// Same as `connectSignal` for opaque instances (controllers, gestures).
@discardableResult
func connectSignal(_ instance: OpaquePointer, _ signal: String, _ callback: GCallback,
                   data: gpointer? = nil) -> gulong {
    g_signal_connect_data(UnsafeMutableRawPointer(instance), signal, callback, data, nil,
                          GConnectFlags(rawValue: 0))
}

/// Adds an event controller (gesture or controller, both opaque in Swift) to a widget.
func addController(_ controller: OpaquePointer, to widget: UnsafeMutablePointer<GtkWidget>) {
    gtk_widget_add_controller(widget, controller)
}

/// Reads a boolean GObject property (variadic g_object_get is unavailable in Swift).
func boolProperty(_ object: gpointer, _ name: String) -> Bool {
    var value = GValue()
    g_value_init(&value, GType(5 << G_TYPE_FUNDAMENTAL_SHIFT)) // G_TYPE_BOOLEAN
    defer { g_value_unset(&value) }
    g_object_get_property(gcast(object.assumingMemoryBound(to: GObject.self)), name, &value)
    return g_value_get_boolean(&value) != 0
}

/// Reads a string GObject property.
func stringProperty(_ object: gpointer, _ name: String) -> String? {
    var value = GValue()
    g_value_init(&value, GType(16 << G_TYPE_FUNDAMENTAL_SHIFT)) // G_TYPE_STRING
    defer { g_value_unset(&value) }
    g_object_get_property(object.assumingMemoryBound(to: GObject.self), name, &value)
    guard let s = g_value_get_string(&value) else { return nil }
    return String(cString: s)
}

/// Whether a GObject class has a property of this name (to look up settings that newer GTKs add).
func hasProperty(_ object: gpointer, _ name: String) -> Bool {
    let instance = object.assumingMemoryBound(to: GTypeInstance.self)
    guard let klass = instance.pointee.g_class else { return false }
    return g_object_class_find_property(UnsafeMutableRawPointer(klass).assumingMemoryBound(to: GObjectClass.self), name) != nil
}

/// Runs a closure on the GTK main loop (the Swift main actor does not run inside it; ARCHITECTURE §4).
/// At idle priority by default: after pending input, layout and frames. `G_PRIORITY_DEFAULT` puts
/// it ahead of them (a finished load: the window may be busy drawing for a while).
/// Callable from any thread; `work` runs on the GTK thread, which is the main actor's.
nonisolated func runOnGtkThread(priority: Int32 = G_PRIORITY_DEFAULT_IDLE, _ work: sending @escaping @MainActor () -> Void) {
    let box = Unmanaged.passRetained(GtkWork(work)).toOpaque()
    g_idle_add_full(priority, { data in
        let b = Unmanaged<GtkWork>.fromOpaque(data!).takeUnretainedValue()
        // GLib's default main loop runs on the main thread (checked at run time).
        MainActor.assumeIsolated { b.work() }
        return 0 // G_SOURCE_REMOVE
    }, box, { data in
        Unmanaged<AnyObject>.fromOpaque(data!).release()
    })
}

/// A GObject pointer as an opaque pointer (for final GTK types and interfaces, which Swift
/// imports as `OpaquePointer`: GtkOverlay, GtkActionable, GActionMap, …).
@inline(__always)
func opaque<T>(_ p: UnsafeMutablePointer<T>) -> OpaquePointer { OpaquePointer(p) }

/// Reads an enum GObject property as its integer value (type looked up from the property spec).
func enumProperty(_ object: gpointer, _ name: String) -> Int32 {
    let instance = object.assumingMemoryBound(to: GTypeInstance.self)
    guard let klass = instance.pointee.g_class,
          let spec = g_object_class_find_property(UnsafeMutableRawPointer(klass).assumingMemoryBound(to: GObjectClass.self), name)
    else { return 0 }
    var value = GValue()
    g_value_init(&value, spec.pointee.value_type)
    defer { g_value_unset(&value) }
    g_object_get_property(object.assumingMemoryBound(to: GObject.self), name, &value)
    return g_value_get_enum(&value)
}

/// A closure for the GTK thread, boxed as GLib user data (`runOnGtkThread`, `runAfter`). Handed
/// across threads once and only called on the main actor.
nonisolated final class GtkWork: @unchecked Sendable {
    let work: @MainActor () -> Void
    init(_ work: @escaping @MainActor () -> Void) { self.work = work }
}
