import Foundation

/// Whether GLib may start a D-Bus session bus for the app.
///
/// GtkApplication connects to the session bus as it starts. A desktop session has one
/// (`DBUS_SESSION_BUS_ADDRESS`, or the socket `$XDG_RUNTIME_DIR/bus`). Where there is none — an X
/// server without a desktop session (Xvfb, X11 over ssh, a bare window manager) — GLib
/// "autolaunches" one: it runs `dbus-launch` and blocks the GTK thread until that answers, 50–300 ms
/// before the window can appear (strace of a launch under Xvfb), and leaves a daemon behind.
/// ClusterMap needs no bus: it runs non-unique, and GApplication carries on without one (as it
/// does when a bus fails). So there the app tells GLib that there is no bus to find, and GTK's
/// accessibility (which looks for the AT-SPI bus through the session bus, and would warn on
/// stderr) is told the same: with no session bus no screen reader can reach the app anyway.
public enum SessionBusChoice {
    /// The `DBUS_SESSION_BUS_ADDRESS` to set before GTK starts, or nil to leave GLib's search
    /// alone. `runtimeBusExists`: whether `$XDG_RUNTIME_DIR/bus` is there.
    public static func addressOverride(environment: [String: String], runtimeBusExists: Bool) -> String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return nil }
        if runtimeBusExists { return nil }
        // An address of an unknown transport: connecting fails at once, nothing is started.
        return "disabled:"
    }

    /// Whether the per-user bus socket exists (`$XDG_RUNTIME_DIR/bus`, which GLib also looks for).
    public static func runtimeBusExists(environment: [String: String]) -> Bool {
        guard let dir = environment["XDG_RUNTIME_DIR"], !dir.isEmpty else { return false }
        return FileManager.default.fileExists(atPath: dir + "/bus")
    }

    /// The environment to set before GTK starts: the address, `GTK_A11Y=none` and
    /// `GSETTINGS_BACKEND=memory`, each unless the person chose otherwise.
    ///
    /// GSettings' usual backend, dconf, writes through the session bus: without one, every write
    /// (the file chooser saves its size, sort column, last folder…) printed a `dconf-WARNING`
    /// about the bus, some twenty per use of the chooser. In memory, settings last for the run.
    public static func environmentChanges(environment: [String: String], runtimeBusExists: Bool) -> [(String, String)] {
        guard let address = addressOverride(environment: environment, runtimeBusExists: runtimeBusExists) else { return [] }
        var changes = [("DBUS_SESSION_BUS_ADDRESS", address)]
        if (environment["GTK_A11Y"] ?? "").isEmpty { changes.append(("GTK_A11Y", "none")) }
        if (environment["GSETTINGS_BACKEND"] ?? "").isEmpty { changes.append(("GSETTINGS_BACKEND", "memory")) }
        return changes
    }

    /// Sets this process's environment as `environmentChanges` says; returns whether it did.
    @discardableResult
    public static func apply() -> Bool {
        let environment = ProcessInfo.processInfo.environment
        let changes = environmentChanges(environment: environment, runtimeBusExists: runtimeBusExists(environment: environment))
        for (name, value) in changes { setenv(name, value, 1) }
        return !changes.isEmpty
    }
}
