import ClusterCore
import XCTest
@testable import GeoData

/// The time bar's window as a value: moving, stepping, playing, and the places it shows
/// against brute force.
final class TimeWindowTests: XCTestCase {
    private let day = 86_400.0

    private func column(_ times: [Double]) -> PropertyColumn {
        PropertyTable(count: times.count, values: [("time", times.map { .string(DateText.text($0)) })]).column("time")!
    }

    func testWindowAndCumulativeShowTheRightPlaces() {
        var r = SeededRandom(seed: 4)
        let start = DateText.seconds("2011-01-01")!
        let times = (0..<5_000).map { _ in (start + r.uniform(0, 365 * day)).rounded() }
        let c = column(times)
        XCTAssertEqual(c.type, .date)
        var week = TimeWindow(column: c, mode: .window(seconds: 7 * day))!
        XCTAssertEqual(week.extent, times.min()!...times.max()!)
        week.rewind()
        var cumulative = TimeWindow(column: c, mode: .cumulative)!
        cumulative.rewind()
        XCTAssertEqual(cumulative.selection(c).chosenCount, 0)
        for _ in 0..<60 {
            week = week.played(for: 0.5, speed: 3 * day)
            cumulative = cumulative.played(for: 0.5, speed: 3 * day)
            let w = week.shown, k = cumulative.shown
            XCTAssertEqual(w.upperBound - w.lowerBound, 7 * day)
            XCTAssertEqual(week.selection(c), PointSelection(count: times.count) { w.contains(times[$0]) })
            XCTAssertEqual(cumulative.selection(c), PointSelection(count: times.count) { k.contains(times[$0]) })
        }
        // Played to the end: the last place shows, cumulative shows everything.
        cumulative = cumulative.played(for: 1e9, speed: day)
        XCTAssertTrue(cumulative.isAtEnd)
        XCTAssertEqual(cumulative.selection(c).chosenCount, times.count)
        week.step(-3, of: day)
        XCTAssertFalse(week.isAtEnd)
        week.move(to: -1e12)
        XCTAssertEqual(week.playhead, week.extent.lowerBound)
        week.move(to: .nan)
        XCTAssertEqual(week.playhead, week.extent.lowerBound)
    }

    func testHistogramCountsEveryDatedPlaceOnce() {
        let times = [0.0, 10, 10, 50, 99, 100] + [Double.nan]
        let c = PropertyTable(count: 7, values: [("t", times.map { $0.isNaN ? .null : .number($0) })]).column("t", as: .number)!
        XCTAssertEqual(c.histogram(bins: 4, over: 0...100), [3, 0, 1, 2])
        XCTAssertNil(TimeWindow(column: c, mode: .cumulative), "a number column drives no time bar")
    }
}
