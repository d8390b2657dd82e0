import XCTest
import Foundation

/// The set-up the accessibility tests share: the Madrid demo at world view (its nine places one
/// bubble) in a window on the accessibility bus, with the In View list shown and filled.
extension AccessibilityTests {
    /// The window ready: the list panel's origin in the window (tree coordinates + it = click
    /// coordinates), its event's index, and the first `list` event.
    struct MadridList {
        let origin: (Double, Double)
        let panelIndex: Int
        let list: (event: [String: Any], index: Int)
    }

    /// Launches Madrid at world view on `bus`, presses F9 and waits for the list's rows.
    static func launchMadridWithList(_ h: AppHarness, bus: AccessibilityBus) throws -> MadridList {
        try h.launch(["--dataset", "madrid"] + AppHarness.worldView, accessibilityBus: bus)
        let scene = try h.waitForEvent("scene") { !(($0["bubbles"] as? [Any]) ?? []).isEmpty }
        try h.key("F9")
        let panel = try h.waitForEvent("list-panel", after: scene.index) { $0["shown"] as? Bool == true }
        let origin = (panel.event["origin_x"] as? Double ?? 0, panel.event["origin_y"] as? Double ?? 0)
        let list = try h.waitForEvent("list", after: panel.index)
        return MadridList(origin: origin, panelIndex: panel.index, list: list)
    }

    /// The map and the list rows as the accessibility tree has them (`probe`).
    static func readTree(_ bus: AccessibilityBus, _ h: AppHarness) throws -> Tree {
        try JSONDecoder().decode(Tree.self, from: Data(try bus.python(probe, display: h.display).utf8))
    }

    /// A harness for a window on a private accessibility bus (the tools checked first); the
    /// caller stops both.
    static func harnessOnBus() throws -> (AppHarness, AccessibilityBus) {
        try AppHarness.requireTools()
        try AccessibilityBus.requireTools()
        let bus = try AccessibilityBus()
        do {
            return (try AppHarness(), bus)
        } catch {
            bus.stop()
            throw error
        }
    }

    /// The start of every probe script: the modules, the app's node on the desktop (`app()`),
    /// and `find` (the first node below one that `pred` accepts).
    static let probePrelude = """
    import json, sys, time, pyatspi
    def app():
        desk = pyatspi.Registry.getDesktop(0)
        return next((a for a in desk if a is not None and (a.name or '').lower() == 'clustermap'), None)
    def find(node, pred, depth=0):
        if node is None or depth > 40: return None
        try:
            if pred(node): return node
            for c in node:
                r = find(c, pred, depth + 1)
                if r is not None: return r
        except Exception: return None
        return None

    """
}
