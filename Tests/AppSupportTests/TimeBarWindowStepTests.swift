import XCTest
import GeoData
@testable import AppSupport

/// In window mode the bar's step and speed fit the window (review-s16 finding 11, kepler.gl's
/// behaviour): a step shows the next window, and playing starts at about a window a second;
/// cumulative keeps a round step and the whole extent in 30 s. The chip says whole-day windows
/// in days.
final class TimeBarWindowStepTests: XCTestCase {
    static let day = 86400.0
    /// Fifty years, as the bundled earthquakes.
    private func bar() -> TimeBar {
        let start = -157_766_400.0, end = start + 51 * 365 * Self.day
        return TimeBar(window: TimeWindow(property: "date", extent: start...end, mode: .cumulative),
                       histogram: TimeHistogram(counts: Array(repeating: 3, count: 120), extent: start...end))
    }

    func testAStepInWindowModeIsTheWindow() {
        var b = bar()
        XCTAssertEqual(b.stepSeconds, 30 * Self.day, "cumulative: a round step")
        XCTAssertEqual(b.speed, 51 * 365 * Self.day / 30, accuracy: 1, "cumulative: the extent in 30 s")
        b.toggleMode()
        XCTAssertEqual(b.window.mode, .window(seconds: 7 * Self.day))
        XCTAssertEqual(b.stepSeconds, 7 * Self.day, "a step shows the next window")
        XCTAssertEqual(b.speed, 7 * Self.day, "a window a second")
        b.move(to: b.window.extent.lowerBound + 100 * Self.day)
        let before = b.shown
        b.step(1)
        XCTAssertEqual(b.shown.lowerBound, before.upperBound, "the next window starts where this one ended")
        b.step(-1)
        XCTAssertEqual(b.shown, before)
        // Played for a second at the default speed: the window moved on by its own length.
        b.play(at: 0)
        b.tick(at: 1)
        XCTAssertEqual(b.shown.lowerBound, before.upperBound, accuracy: 1)
        b.pause()
        b.toggleMode()
        XCTAssertEqual(b.stepSeconds, 30 * Self.day, "back to cumulative: its own step")
        XCTAssertEqual(b.speed, 51 * 365 * Self.day / 30, accuracy: 1, "and its own speed")
        // A bar made in window mode starts at a window a second too.
        let w = TimeBar(window: TimeWindow(property: "date", extent: b.window.extent, mode: .window(seconds: 3 * Self.day)),
                        histogram: b.histogram)
        XCTAssertEqual(w.speed, 3 * Self.day)
        XCTAssertEqual(w.stepSeconds, 3 * Self.day)
    }

    func testTheChipSaysAWholeDayWindowInDays() {
        var b = bar()
        b.toggleMode()
        b.move(to: b.window.extent.lowerBound + 100.6037 * Self.day)  // 14:29:19.7 on a day
        var s = b.applied(to: FilterSettings())
        XCTAssertTrue(s.since?.hasSuffix("Z") == true, "the filter keeps the instant: \(s.since ?? "nil")")
        let chip = FilterPanelModel.chips(s).last?.text ?? ""
        XCTAssertEqual(chip, "date \(b.rangeText)", "days only, as the bar says it")
        XCTAssertFalse(chip.contains(":"))
        // A short window that is not whole days keeps the minutes; typed dates stay as typed.
        s.until = "1960-04-01T02:00:00Z"
        s.since = "1960-03-31T12:00:00Z"
        XCTAssertEqual(FilterPanelModel.chips(s).last?.text, "date 1960-03-31 12:00 – 1960-04-01 02:00")
        s.since = "1960-03-01"
        s.until = "1960-03-07"
        XCTAssertEqual(FilterPanelModel.chips(s).last?.text, "date 1960-03-01 – 1960-03-07")
    }
}
