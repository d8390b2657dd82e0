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
}
