import AppSupport
import GeoData
import XCTest

/// A table's bar read again after its rows changed (`TimeBar.keeping`): the new range and
/// counts, with the person's window, speed and playing kept; a window outside the new range is
/// brought inside; a bar at the end follows the new end.
final class TimeBarRereadTests: XCTestCase {
    private let day = 86_400.0

    private func bar(_ lo: Double, _ hi: Double, counts: [Int] = [1, 2, 3, 4]) -> TimeBar {
        TimeBar(window: TimeWindow(property: "at", extent: lo...hi, mode: .cumulative),
                histogram: TimeHistogram(counts: counts, extent: lo...hi))
    }

    func testTheWindowStaysWhereThePersonPutItWithTheNewCountsAndRange() {
        var old = bar(0, 100 * day)
        old.setMode(.window(seconds: 7 * day))
        old.move(to: 40 * day)
        old.setSpeed(3 * day)
        let new = bar(0, 150 * day, counts: [5, 6, 7, 8, 9]).keeping(old, now: 10)
        XCTAssertEqual(new.window.extent, 0...(150 * day), "the new range")
        XCTAssertEqual(new.histogram.counts, [5, 6, 7, 8, 9], "the new counts")
        XCTAssertEqual(new.shown, (33 * day)..<(40 * day), "the window where it was")
        XCTAssertEqual(new.window.mode, .window(seconds: 7 * day))
        XCTAssertEqual(new.speed, 3 * day)
        XCTAssertFalse(new.isPlaying)
    }

    func testAPlayingBarPlaysOnAndABarAtTheEndFollowsTheNewEnd() {
        var playing = bar(0, 100 * day)
        playing.rewind()
        playing.play(at: 0)
        XCTAssertTrue(bar(0, 120 * day).keeping(playing, now: 5).isPlaying)
        let atEnd = bar(0, 100 * day)   // cumulative, everything shown
        let grown = bar(0, 130 * day).keeping(atEnd, now: 0)
        XCTAssertTrue(grown.showsEverything, "rows past the old end show")
        var lastWeek = bar(0, 100 * day)
        lastWeek.setMode(.window(seconds: 7 * day))
        lastWeek.moveToEnd()
        XCTAssertEqual(bar(0, 130 * day).keeping(lastWeek, now: 0).shown.upperBound, (130 * day).nextUp, "the last week of the new range")
    }

    func testAWindowOutsideTheNewRangeIsBroughtInside() {
        var old = bar(0, 100 * day)
        old.setMode(.window(seconds: 7 * day))
        old.move(to: 20 * day)
        // The rows before day 50 were deleted: the playhead comes to the new start.
        let shrunk = bar(50 * day, 100 * day).keeping(old, now: 0)
        XCTAssertEqual(shrunk.window.playhead, 50 * day)
        // Another column: the new bar as read.
        let other = TimeBar(window: TimeWindow(property: "logged", extent: 0...day, mode: .cumulative),
                            histogram: TimeHistogram(counts: [1], extent: 0...day))
        XCTAssertEqual(other.keeping(old, now: 0).window.property, "logged")
        XCTAssertTrue(other.keeping(old, now: 0).showsEverything)
    }
}
