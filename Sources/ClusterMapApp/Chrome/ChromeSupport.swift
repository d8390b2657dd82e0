import CGtk
import Foundation
import AppSupport

// Small helpers the chrome widgets share (on top of Gtk/GtkHelpers.swift).

/// An opaque GTK object (final types: GtkLabel, GtkRevealer, …) as a typed pointer.
@inline(__always)
func typed<T>(_ p: OpaquePointer, as: T.Type = T.self) -> UnsafeMutablePointer<T> {
    UnsafeMutablePointer<T>(p)
}

/// Sets a string GObject property (variadic g_object_set is unavailable in Swift).
func setStringProperty(_ object: gpointer, _ name: String, _ value: String) {
    var v = GValue()
    g_value_init(&v, GType(16 << G_TYPE_FUNDAMENTAL_SHIFT)) // G_TYPE_STRING
    defer { g_value_unset(&v) }
    g_value_set_string(&v, value)
    g_object_set_property(object.assumingMemoryBound(to: GObject.self), name, &v)
}

/// Sets a boolean GObject property.
func setBoolProperty(_ object: gpointer, _ name: String, _ value: Bool) {
    var v = GValue()
    g_value_init(&v, GType(5 << G_TYPE_FUNDAMENTAL_SHIFT)) // G_TYPE_BOOLEAN
    defer { g_value_unset(&v) }
    g_value_set_boolean(&v, value ? 1 : 0)
    g_object_set_property(object.assumingMemoryBound(to: GObject.self), name, &v)
}

/// Calls `body` with a NULL-terminated C string array (accels, credits).
func withCStringArray<R>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    var array: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) } + [nil]
    return array.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
}

/// The centre of a widget in window surface coordinates (what `xdotool mousemove --window` and
/// the event log use; ARCHITECTURE §4), or nil while it is not laid out.
func surfaceCenter(of widget: UnsafeMutablePointer<GtkWidget>) -> (x: Double, y: Double)? {
    guard gtk_widget_get_mapped(widget) != 0, let native = gtk_widget_get_native(widget) else { return nil }
    let w = Double(gtk_widget_get_width(widget)), h = Double(gtk_widget_get_height(widget))
    guard w > 0, h > 0 else { return nil }
    var x = 0.0, y = 0.0
    guard gtk_widget_translate_coordinates(widget, asWidget(native), w / 2, h / 2, &x, &y) != 0 else { return nil }
    var sx = 0.0, sy = 0.0
    gtk_native_get_surface_transform(native, &sx, &sy)
    return (x + sx, y + sy)
}

/// Runs `work` once after `milliseconds` on the GTK main loop.
func runAfter(milliseconds: UInt32, _ work: @escaping @MainActor () -> Void) {
    let box = Unmanaged.passRetained(GtkWork(work)).toOpaque()
    g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, { data in
        let b = Unmanaged<GtkWork>.fromOpaque(data!).takeUnretainedValue()
        MainActor.assumeIsolated { b.work() }  // a GLib timeout of the main loop: the main thread
        return 0 // G_SOURCE_REMOVE
    }, box, { data in
        Unmanaged<AnyObject>.fromOpaque(data!).release()
    })
}

/// A label with plain text (never markup: names come from people's files, SPEC §4).
func plainLabel(_ text: String, xalign: Float = 0) -> UnsafeMutablePointer<GtkWidget> {
    let l = gtk_label_new(nil)!
    gtk_label_set_text(opaque(l), text)
    gtk_label_set_xalign(opaque(l), xalign)
    return l
}

/// Drops a reference to an opaque GObject.
func unref(_ p: OpaquePointer) { g_object_unref(UnsafeMutableRawPointer(p)) }

/// A GMenu (opaque in Swift) as the GMenuModel it is.
func menuModel(_ menu: OpaquePointer) -> UnsafeMutablePointer<GMenuModel> { UnsafeMutablePointer(menu) }

/// Logs `widget {name, x, y}` with the widget's centre once it is laid out and two readings a
/// frame apart agree (tests click it there; right after showing, an old allocation can be read).
/// The widget is kept alive while it is polled (the window may close meanwhile).
func reportPosition(of widget: UnsafeMutablePointer<GtkWidget>, name: String, eventLog: EventLog) {
    g_object_ref(gpointer(widget))
    pollPosition(of: widget, name: name, eventLog: eventLog, attempt: 0, previous: nil)
}

private func pollPosition(of widget: UnsafeMutablePointer<GtkWidget>, name: String, eventLog: EventLog,
                          attempt: Int, previous: (x: Double, y: Double)?) {
    let now = surfaceCenter(of: widget)
    if let c = now, let p = previous, abs(c.x - p.x) < 0.5, abs(c.y - p.y) < 0.5 {
        eventLog.emit("widget", [("name", .string(name)), ("x", .number(c.x.rounded())), ("y", .number(c.y.rounded()))])
        g_object_unref(gpointer(widget))
        return
    }
    guard attempt < 100, previous == nil || gtk_widget_get_root(widget) != nil else { g_object_unref(gpointer(widget)); return }
    runAfter(milliseconds: 40) { pollPosition(of: widget, name: name, eventLog: eventLog, attempt: attempt + 1, previous: now) }
}
