import CGtk
import ClusterCore
import MapModel

/// Clicks and keys that are about what is on the map (not just the camera).
extension MapViewController {
    /// A click (not a drag) at a point in the drawing area.
    func handleClick(at p: ScreenPoint) {
        eventLog.emit("click", [("x", .number(p.x)), ("y", .number(p.y))])
    }

    /// A key press on the window; returns whether it was handled.
    func handleKey(_ keyval: UInt32) -> Bool {
        guard let key = KeyboardShortcuts.navigationKey(keyval) else { return false }
        let ctx = beginInput()
        apply(KeyboardNavigationHandler().press(key, dataBounds: dataBounds, in: ctx))
        gestureDidEnd()
        return true
    }

    /// Bounds of the loaded data (for "show all"); the whole world until data is loaded.
    var dataBounds: GeoBounds? { GeoBounds(west: -180, south: -60, east: 180, north: 75) }
}
