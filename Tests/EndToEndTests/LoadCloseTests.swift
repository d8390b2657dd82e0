import XCTest
import Foundation

/// Ending a big load early (issue 15 items 3 and 8): Ctrl+Q during the load quits cleanly with
/// nothing delivered to destroyed widgets (the harness runs the app with
/// G_DEBUG=fatal-criticals and fails on any GTK warning), and Escape cancels like Cancel.
final class LoadCloseTests: XCTestCase {
    private func launchLoadingBigFile(_ h: AppHarness) throws -> (event: [String: Any], index: Int) {
        let path = h.workDir + "/big.geojson"
        try ChromeTests.writeRandomPoints(count: 600_000, to: path)
        try h.launch([path], timeout: 60)
        return try h.waitForEvent("load-progress", timeout: 30) { ($0["fraction"] as? Double ?? 0) >= 0.15 }
    }

    func testQuitDuringALoadIsClean() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        let progress = try launchLoadingBigFile(h)
        XCTAssertLessThan(progress.event["fraction"] as? Double ?? 1, 0.9, "still loading")
        try h.key("ctrl+q")
        XCTAssertTrue(h.waitForExit(timeout: 20), "Ctrl+Q quits during a load")
        XCTAssertEqual(h.appExitStatus, 0, "exit status (an abort means a Gtk-CRITICAL)")
        XCTAssertEqual(h.gtkWarnings, [], "no GTK warnings or criticals")
        XCTAssertFalse(h.events()[progress.index...].contains { $0["event"] as? String == "load-done" })
    }

    func testQuitWithoutALoadPrintsNoWarnings() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "madrid"])
        _ = try h.waitForEvent("load-done", timeout: 30)
        try h.key("ctrl+q")
        XCTAssertTrue(h.waitForExit(timeout: 20))
        XCTAssertEqual(h.appExitStatus, 0)
        XCTAssertEqual(h.gtkWarnings, [], "e.g. 'Finalizing GtkSearchEntry … still has children left'")
    }

    func testEscapeCancelsALoad() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        let progress = try launchLoadingBigFile(h)
        try h.key("Escape")
        let cancelled = try h.waitForEvent("load-cancelled", after: progress.index, timeout: 10)
        // The cancelled load's thread has ended and what it made was dropped: nothing of it can
        // arrive later.
        let dropped = try h.waitForEvent("load-dropped", after: cancelled.index, timeout: 30)
        XCTAssertFalse(h.events()[cancelled.index...].contains { $0["event"] as? String == "load-done" })
        XCTAssertFalse(h.events()[dropped.index...].contains { $0["event"] as? String == "load-done" })
    }
}
