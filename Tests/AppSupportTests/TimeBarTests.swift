import XCTest
import ClusterCore
import GeoData
@testable import AppSupport

/// The time bar's model (issue 29 item 4): histogram, window and cumulative modes, the play
/// clock with the wall time as an input, steps and speed, and the range handed to the filter —
/// checked against the points themselves (the filter's oracle), not against its own arithmetic.
final class TimeBarTests: XCTestCase {
    static let day = 86400.0
    /// 2011-01-01T00:00:00Z
    static let start = 1_293_840_000.0

    /// Random times over a year (some missing), as a date column.
    func column(count: Int = 5000, seed: UInt64 = 7) -> PropertyColumn {
        var rng = TimeBarRandom(seed: seed)
        let values: [PropertyValue] = (0..<count).map { i in
            if i % 97 == 0 { return .null }
            let t = TimeBarTests.start + Double(rng.next() % UInt64(365 * 86400))
            return .string(TimeBar.instant(t))
        }
        let table = PropertyTable(count: count, values: [("when", values)])
        return table.column("when", as: nil)!
    }

    func testTheHistogramCountsEveryDatedPlaceOnceAndMapsTimesBothWays() throws {
        let c = column()
        let bar = try XCTUnwrap(TimeBar(column: c, mode: .cumulative, bins: 50))
        let dated = c.numbers.filter { !$0.isNaN }
        XCTAssertEqual(bar.histogram.counts.count, 50)
        XCTAssertEqual(bar.histogram.counts.reduce(0, +), dated.count)
        // Oracle: each bin's count by direct comparison with its bounds.
        let h = bar.histogram
        for i in [0, 17, 49] {
            let lo = h.time(at: Double(i) / 50), hi = h.time(at: Double(i + 1) / 50)
            let n = dated.filter { $0 >= lo && ($0 < hi || (i == 49 && $0 <= hi)) }.count
            XCTAssertEqual(h.counts[i], n, "bin \(i)")
        }
        for f in [0.0, 0.25, 0.5, 1.0] { XCTAssertEqual(h.fraction(of: h.time(at: f)), f, accuracy: 1e-12) }
        XCTAssertEqual(h.fraction(of: h.extent.lowerBound - 1e6), 0)
        XCTAssertEqual(h.fraction(of: h.extent.upperBound + 1e6), 1)
        let heights = h.heights()
        XCTAssertEqual(heights.max(), 1)
        XCTAssertTrue(zip(heights, h.counts).allSatisfy { $1 == 0 ? $0 == 0 : $0 >= 0.06 })
        XCTAssertEqual(TimeHistogram(times: dated, bins: 50, extent: h.extent), h)
    }

    func testPlayingIsAFunctionOfTheClockAndStopsAtTheEnd() throws {
        let c = column()
        var bar = try XCTUnwrap(TimeBar(column: c, mode: .window(seconds: 7 * TimeBarTests.day)))
        XCTAssertTrue(bar.window.isAtEnd, "a new bar shows the last week")
        bar.setSpeed(TimeBarTests.day)   // a day per second
        bar.play(at: 100)
        XCTAssertTrue(bar.isPlaying)
        let first = bar.window.playhead
        XCTAssertEqual(first, bar.window.extent.lowerBound + 7 * TimeBarTests.day, "playing from the end starts over, one window in")
        XCTAssertFalse(bar.tick(at: 100), "no time passed")
        XCTAssertTrue(bar.tick(at: 102.5))
        XCTAssertEqual(bar.window.playhead, first + 2.5 * TimeBarTests.day, accuracy: 1e-6)
        // The same as jumping: ticks add up whatever the frame rate.
        var other = bar
        for k in 1...30 { other.tick(at: 102.5 + Double(k) / 30) }
        bar.tick(at: 103.5)
        XCTAssertEqual(other.window.playhead, bar.window.playhead, accuracy: 1e-3)
        bar.pause()
        XCTAssertFalse(bar.tick(at: 500), "paused: the clock doesn't move it")
        bar.play(at: 1000)
        bar.tick(at: 1000 + 400)   // 400 days: past the end of a year
        XCTAssertTrue(bar.window.isAtEnd)
        XCTAssertFalse(bar.isPlaying, "stops at the end")
        bar.togglePlaying(at: 2000)
        XCTAssertTrue(bar.isPlaying)
        XCTAssertEqual(bar.window.playhead, first, "played again from the start")
    }

    func testStepsSpeedAndModes() throws {
        var bar = try XCTUnwrap(TimeBar(column: column(), mode: .cumulative))
        XCTAssertEqual(bar.stepSeconds, TimeBarTests.day, "a year steps by days")
        XCTAssertEqual(TimeBar.niceStep(forSpan: 3600), 60)
        XCTAssertEqual(TimeBar.niceStep(forSpan: 51 * 365 * TimeBarTests.day), 30 * TimeBarTests.day)
        XCTAssertEqual(TimeBar.niceStep(forSpan: 200 * 365 * TimeBarTests.day), 365 * TimeBarTests.day)
        bar.rewind()
        XCTAssertEqual(bar.window.playhead, bar.window.extent.lowerBound)
        bar.step(3)
        XCTAssertEqual(bar.window.playhead, bar.window.extent.lowerBound + 3 * TimeBarTests.day)
        bar.step(-10)
        XCTAssertEqual(bar.window.playhead, bar.window.extent.lowerBound, "kept within the extent")
        bar.moveToEnd()
        XCTAssertTrue(bar.window.isAtEnd)
        let s = bar.speed
        bar.changeSpeed(by: 2)
        XCTAssertEqual(bar.speed, 2 * s)
        for _ in 0..<100 { bar.changeSpeed(by: 2) }
        XCTAssertEqual(bar.speed, bar.histogram.span * TimeBar.fastestShare, accuracy: 1, "a fastest speed")
        for _ in 0..<200 { bar.changeSpeed(by: 0.5) }
        XCTAssertEqual(bar.speed, bar.histogram.span * TimeBar.slowestShare, accuracy: 1, "a slowest speed")
        XCTAssertEqual(TimeBar.speedText(120 * TimeBarTests.day), "120 days/s")
        XCTAssertEqual(TimeBar.speedText(2.5 * 3600), "2.5 hours/s")
        XCTAssertEqual(TimeBar.speedText(1800), "30 min/s")
        bar.setMode(.window(seconds: 7 * TimeBarTests.day))
        XCTAssertEqual(bar.shown.upperBound - bar.shown.lowerBound, 7 * TimeBarTests.day)
    }

    /// The range handed to the filter selects exactly the places the window shows, for windows
    /// that start and end anywhere (also mid-second), in both modes.
    func testTheFilterRangeSelectsWhatTheWindowShows() throws {
        let c = column()
        let table = PropertyTable(count: c.numbers.count, values: [("when", c.numbers.map { $0.isNaN ? .null : .string(TimeBar.instant($0)) })])
        let evaluator = FilterEvaluator(table: table)
        var rng = TimeBarRandom(seed: 3)
        for mode in [TimeWindow.Mode.window(seconds: 7 * TimeBarTests.day), .window(seconds: 3.5 * 3600), .cumulative] {
            var bar = try XCTUnwrap(TimeBar(column: c, mode: mode))
            for _ in 0..<25 {
                bar.move(to: bar.histogram.time(at: Double(rng.next() % 10_000) / 10_000))
                let settings = bar.applied(to: FilterSettings())
                XCTAssertEqual(settings.timeProperty, "when")
                XCTAssertTrue(settings.until!.hasSuffix("Z"), "a date-time, never a bare date (that would mean the whole day)")
                let filtered = try FilterResult.apply(settings, evaluator: evaluator).selection!
                let oracle = bar.window.selection(c)
                XCTAssertEqual(filtered.chosenIndices, oracle.chosenIndices, "\(mode) \(settings.since!)…\(settings.until!)")
            }
        }
        // Everything shows (cumulative at the end): no time window at all, the other questions kept.
        var all = try XCTUnwrap(TimeBar(column: c, mode: .cumulative))
        XCTAssertTrue(all.showsEverything)
        var asked = FilterSettings()
        asked.groupProperty = "kind"
        asked.since = "2000-01-01"
        let everything = all.applied(to: asked)
        XCTAssertNil(everything.since)
        XCTAssertNil(everything.until)
        XCTAssertEqual(everything.groupProperty, "kind")
        all.toggleMode()
        XCTAssertEqual(all.window.mode, .window(seconds: 7 * TimeBarTests.day))
        XCTAssertFalse(all.showsEverything)
        all.toggleMode()
        XCTAssertEqual(all.window.mode, .cumulative)
        var bar = try XCTUnwrap(TimeBar(column: c, mode: .window(seconds: 7 * TimeBarTests.day)))
        bar.move(to: TimeBarTests.start + 40 * TimeBarTests.day)
        XCTAssertEqual(bar.playheadText, "2011-02-10")
        XCTAssertEqual(bar.rangeText, "2011-02-03 – 2011-02-10")
    }
}

/// A small deterministic generator (tests must not depend on the run).
struct TimeBarRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The bar follows the filter's window (the panel's date row dragged while the bar shows).
extension TimeBarTests {
    func testTheBarFollowsTheFiltersWindowAndItsOwnRangeRoundTrips() throws {
        let c = column()
        var bar = try XCTUnwrap(TimeBar(column: c, mode: .cumulative))
        bar.move(to: TimeBarTests.start + 100 * TimeBarTests.day)
        // The panel moved the lower end: a window from March 3rd through the bar's own end.
        let until = bar.filterRange.until
        let moved = try XCTUnwrap(bar.following(since: "2011-03-03", until: until))
        XCTAssertFalse(moved.isPlaying)
        XCTAssertEqual(moved.shown.lowerBound, TimeBarTests.start + 61 * TimeBarTests.day)
        XCTAssertEqual(moved.filterRange.until, until)
        XCTAssertEqual(moved.filterRange.since, "2011-03-03T00:00:00Z")
        // Oracle: the places the bar shows are the ones the filter's window passes.
        let inBar = c.numbers.filter { moved.shown.contains($0) }.count
        let lo = DateText.seconds("2011-03-03")!, hi = DateText.seconds(until)!
        XCTAssertEqual(inBar, c.numbers.filter { $0 >= lo && $0 <= hi }.count)
        // A bare day as the end runs through that day.
        let days = try XCTUnwrap(bar.following(since: nil, until: "2011-02-10"))
        XCTAssertEqual(days.window.mode, .cumulative)
        XCTAssertEqual(days.shown.upperBound, TimeBarTests.start + 41 * TimeBarTests.day)
        // Its own range comes back unchanged (no loop), and no window shows everything.
        var playing = bar
        playing.play(at: 0)
        let own = playing.applied(to: FilterSettings())
        let back = try XCTUnwrap(playing.following(since: own.since, until: own.until))
        XCTAssertEqual(back.applied(to: FilterSettings()), own)
        XCTAssertTrue(try XCTUnwrap(bar.following(since: nil, until: nil)).showsEverything)
        XCTAssertNil(bar.following(since: "soon", until: nil))
    }
}
