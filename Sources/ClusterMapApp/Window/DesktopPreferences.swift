import CGtk
import MapModel

/// The desktop's dark-style and reduced-motion preferences, read from GtkSettings and followed live.
///
/// `gtk-interface-reduced-motion` exists only on GTK 4.22+, so it is looked up by name at run
/// time (the app still builds and runs on 4.8).
enum DesktopPreferences {
    private static var settings: OpaquePointer?

    /// Whether the desktop prefers a dark style.
    static var prefersDark: Bool {
        guard let s = object else { return false }
        if boolProperty(s, "gtk-application-prefer-dark-theme") { return true }
        return stringProperty(s, "gtk-theme-name")?.lowercased().hasSuffix("dark") ?? false
    }

    /// Whether the desktop allows animations (`gtk-enable-animations`).
    static var enablesAnimations: Bool {
        guard let s = object else { return true }
        return boolProperty(s, "gtk-enable-animations")
    }

    /// `gtk-interface-reduced-motion` on GTK 4.22+ (an enum: 0 no preference, 1 reduce), else nil.
    static var interfaceReducedMotion: Bool? {
        guard let s = object, hasProperty(s, "gtk-interface-reduced-motion") else { return nil }
        return enumProperty(s, "gtk-interface-reduced-motion") != 0
    }

    /// The GtkSettings object as a plain pointer for the property helpers.
    private static var object: gpointer? {
        (settings ?? gtk_settings_get_default()).map { UnsafeMutableRawPointer($0) }
    }

    /// Calls `changed` on the GTK thread whenever one of these settings changes.
    static func observe(owner: AnyObject, _ changed: @escaping @MainActor @convention(c) (gpointer?, gpointer?, gpointer?) -> Void) {
        guard let raw = gtk_settings_get_default() else { return }
        settings = raw
        let s = UnsafeMutableRawPointer(raw)
        var names = ["notify::gtk-application-prefer-dark-theme", "notify::gtk-theme-name", "notify::gtk-enable-animations"]
        if hasProperty(s, "gtk-interface-reduced-motion") { names.append("notify::gtk-interface-reduced-motion") }
        for n in names { connectSignal(raw, n, unsafeBitCast(changed, to: GCallback.self), owner: owner) }
    }
}
