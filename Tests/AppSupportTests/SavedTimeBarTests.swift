import XCTest
import GeoData
@testable import AppSupport

/// The time bar remembered with a file's filter (issue 29 item 7): shown, property, mode,
/// window length, playhead and speed survive the state file and come back on a fresh bar.
final class SavedTimeBarTests: XCTestCase {
    /// A bar over 2011 (UTC seconds), as reopening the file builds it.
    func freshBar(property: String = "when") -> TimeBar {
        let start = 1_293_840_000.0, end = start + 364 * 86400
        return TimeBar(window: TimeWindow(property: property, extent: start...end, mode: .cumulative),
                       histogram: TimeHistogram(counts: Array(repeating: 3, count: 120), extent: start...end))
    }

    func testTheBarSurvivesTheStateFileAndComesBackWhereItWasLeft() throws {
        var bar = freshBar()
        bar.toggleMode()                          // a 7-day window
        bar.move(to: 1_293_840_000 + 100.5 * 86400)
        bar.changeSpeed(by: 4)
        bar.play(at: 0)
        let saved = SavedTimeBar(bar)
        XCTAssertEqual(saved.windowSeconds, 7 * 86400)

        var state = SavedState(width: 800, height: 600, latitude: 1, longitude: 2, zoom: 3)
        var settings = FilterSettings()
        _ = try settings.set("where", "mag >= 6")
        settings = bar.applied(to: settings)
        state.filters.remember(settings, for: "/tmp/quakes.csv")
        state.filters.remember(timeBar: saved, for: "/tmp/quakes.csv")
        let back = SavedState.parse(state.serialized)
        XCTAssertEqual(back, state)
        XCTAssertEqual(back.filters.timeBar(for: "/tmp/quakes.csv"), saved)
        XCTAssertEqual(back.filters.settings(for: "/tmp/quakes.csv"), settings, "the filter stays beside it")

        let restored = freshBar().restored(try XCTUnwrap(back.filters.timeBar(for: "/tmp/quakes.csv")))
        XCTAssertEqual(restored.window, bar.window, "mode, window length and playhead")
        XCTAssertEqual(restored.speed, bar.speed)
        XCTAssertFalse(restored.isPlaying, "reopened paused")
        XCTAssertEqual(restored.applied(to: FilterSettings()).since, settings.since, "the same range as the saved filter")
        XCTAssertEqual(restored.applied(to: FilterSettings()).until, settings.until)
        // A bar over another property (the file changed) is left as built.
        XCTAssertEqual(freshBar(property: "date").restored(saved), freshBar(property: "date"))
        // Cumulative round-trips as no window length.
        var cumulative = freshBar()
        cumulative.step(-10)
        let c = SavedTimeBar(cumulative)
        XCTAssertNil(c.windowSeconds)
        XCTAssertEqual(freshBar().restored(c).window, cumulative.window)
    }

    func testTheBarIsRememberedBesideTheFilterAndForgottenWhenHidden() throws {
        var list: [SavedFilter] = []
        let saved = SavedTimeBar(freshBar())
        list.remember(timeBar: saved, for: "/a.csv")
        XCTAssertEqual(list.count, 1, "a shown bar alone is remembered")
        XCTAssertEqual(list.settings(for: "/a.csv"), FilterSettings())
        var s = FilterSettings()
        _ = try s.set("where", "mag >= 1")
        list.remember(s, for: "/a.csv")
        XCTAssertEqual(list.timeBar(for: "/a.csv"), saved, "a new filter keeps the bar")
        list.remember(timeBar: nil, for: "/a.csv")
        XCTAssertNil(list.timeBar(for: "/a.csv"))
        XCTAssertEqual(list.settings(for: "/a.csv"), s, "hiding the bar keeps the filter")
        list.remember(FilterSettings(), for: "/a.csv")
        XCTAssertTrue(list.isEmpty, "nothing asked and no bar: forgotten")
        // A line written before the bar was remembered still reads.
        let old = SavedState.parse("filter={\"source\":\"/b.csv\",\"settings\":" +
                                   String(decoding: try JSONEncoder().encode(s), as: UTF8.self) + "}")
        XCTAssertEqual(old.filters.settings(for: "/b.csv"), s)
        XCTAssertNil(old.filters.timeBar(for: "/b.csv"))
    }

    /// Playing is kept with the state and comes back paused where it was (`TimeBar.restored`
    /// says why); a paused bar says it wasn't; a line written before `playing` was kept reads as
    /// not playing.
    func testWhetherItWasPlayingRoundTripsAndComesBackPaused() throws {
        var bar = freshBar()
        bar.move(to: 1_293_840_000 + 40 * 86400)
        bar.play(at: 100)
        _ = bar.tick(at: 100.5)
        let playhead = bar.window.playhead
        var state = SavedState(width: 800, height: 600, latitude: 1, longitude: 2, zoom: 3)
        state.filters.remember(timeBar: SavedTimeBar(bar), for: "/tmp/when.csv")
        XCTAssertTrue(state.serialized.contains("\"playing\":true"), state.serialized)
        let back = try XCTUnwrap(SavedState.parse(state.serialized).filters.timeBar(for: "/tmp/when.csv"))
        XCTAssertTrue(back.playing)
        XCTAssertEqual(back.playhead, playhead)
        let restored = freshBar().restored(back)
        XCTAssertFalse(restored.isPlaying, "reopened paused")
        XCTAssertEqual(restored.window.playhead, playhead, "where it was")

        bar.pause()
        XCTAssertFalse(SavedTimeBar(bar).playing)
        var paused = state
        paused.filters.remember(timeBar: SavedTimeBar(bar), for: "/tmp/when.csv")
        XCTAssertEqual(SavedState.parse(paused.serialized).filters.timeBar(for: "/tmp/when.csv")?.playing, false)

        let old = state.serialized.replacingOccurrences(of: ",\"playing\":true", with: "")
            .replacingOccurrences(of: "\"playing\":true,", with: "")
        XCTAssertNotEqual(old, state.serialized)
        let oldBar = try XCTUnwrap(SavedState.parse(old).filters.timeBar(for: "/tmp/when.csv"))
        XCTAssertFalse(oldBar.playing)
        XCTAssertEqual(oldBar.playhead, playhead)
    }
}
