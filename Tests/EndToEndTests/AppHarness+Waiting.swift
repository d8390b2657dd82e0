import Foundation
import XCTest

/// How the end-to-end tests wait: on a condition (an event in the app's log, a window, a
/// screenshot that shows something), with a generous time-out, never for a guessed time. The
/// few pauses that stay are real time rules of the input (the double-click time, a drag's pace)
/// and say so where they are.
extension AppHarness {
    /// How often a condition is looked at again (the only sleep of a wait: it ends as soon as the
    /// condition holds).
    static let pollMicroseconds: useconds_t = 20_000

    /// Looks at `done` until it holds (true) or `timeout` passes (false).
    @discardableResult
    static func poll(timeout: TimeInterval, until done: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if try done() { return true }
            if Date() >= deadline { return false }
            usleep(pollMicroseconds)
        }
    }

    /// GTK's double-click time (`gtk-double-click-time`, 400 ms by default) and a margin.
    static let doubleClickSeconds = 0.5

    /// Lets the double-click time pass since the last click, so the next click is a new one.
    /// Kept as a pause on purpose: GTK decides "double" by time alone, and no event says the
    /// interval is over. Only the part not yet elapsed is waited.
    func waitPastDoubleClickTime() {
        guard let last = lastClick else { return }
        let left = AppHarness.doubleClickSeconds - Date().timeIntervalSince(last)
        if left > 0 { usleep(useconds_t(left * 1_000_000)) }
    }

    /// Presses Return in a file chooser after a path was typed into its location field.
    /// Kept as a pause on purpose: GTK's chooser completes a typed path asynchronously (it reads
    /// the folder) and tells nobody when it is done; Return during that can act on a half-
    /// completed name. This is GTK's widget, not our code, so there is no event of ours to wait on.
    func acceptTypedPath() throws {
        usleep(300_000)
        try pressKey("Return")
    }

    /// The events after `index` whose name is `name`.
    func events(named name: String, after index: Int) -> [[String: Any]] {
        let all = events()
        guard all.count > index + 1 else { return [] }
        return all[(index + 1)...].filter { $0["event"] as? String == name }
    }

    /// Waits until the app has drawn a frame after event `index`: what was asked for before it
    /// (a panel shown, a layout changed) has been laid out and painted.
    @discardableResult
    func waitForFrame(after index: Int, timeout: TimeInterval = 10) throws -> (event: [String: Any], index: Int) {
        try waitForEvent("frame", after: index + 1, timeout: timeout)
    }
}
