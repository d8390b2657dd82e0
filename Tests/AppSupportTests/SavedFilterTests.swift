import XCTest
import GeoData
@testable import AppSupport

/// Filters, time window, grouping and totals remembered per file in the state file (issue 29 item 7).
final class SavedFilterTests: XCTestCase {
    func settings() throws -> FilterSettings {
        var s = FilterSettings()
        _ = try s.set("where", "type in ('a', 'b''c') and mag >= 6")
        _ = try s.set("where", "`odd = name` contains 'x=y'")
        _ = try s.set("since", "2011-01-01")
        _ = try s.set("until", "2011-12-31T12:00:00Z")
        _ = try s.set("time", "when")
        _ = try s.set("by", "type")
        _ = try s.set("total", "sum:deaths")
        _ = try s.set("type", "code=category")
        return s
    }

    func testFiltersSurviveTheStateFileWithTheRestOfTheState() throws {
        var state = SavedState(width: 800, height: 600, latitude: 1, longitude: 2, zoom: 3)
        state.filters.remember(try settings(), for: SavedFilter.source(files: ["/tmp/a/../quakes.csv"], datasetIDs: []))
        var other = FilterSettings()
        _ = try other.set("where", "pop > 1000")
        state.filters.remember(other, for: SavedFilter.source(files: [], datasetIDs: ["world-cities"]))
        let text = state.serialized
        XCTAssertEqual(text.components(separatedBy: "\n").filter { $0.hasPrefix("filter=") }.count, 2)
        let back = SavedState.parse(text)
        XCTAssertEqual(back, state)
        XCTAssertEqual(back.filters.settings(for: "/tmp/quakes.csv"), try settings())
        XCTAssertEqual(back.filters.settings(for: "dataset:world-cities"), other)
        XCTAssertEqual(back.filters.first?.source, "dataset:world-cities", "most recent first")
    }

    func testRememberingKeepsTheNewestAndForgetsEmptyOnes() throws {
        var list: [SavedFilter] = []
        var s = FilterSettings()
        _ = try s.set("where", "mag >= 1")
        for k in 0..<(SavedFilter.limit + 5) { list.remember(s, for: "/f\(k)") }
        XCTAssertEqual(list.count, SavedFilter.limit)
        XCTAssertEqual(list.first?.source, "/f\(SavedFilter.limit + 4)")
        list.remember(FilterSettings(), for: "/f\(SavedFilter.limit + 4)")
        XCTAssertNil(list.settings(for: "/f\(SavedFilter.limit + 4)"))
        // A damaged line is skipped, the rest still reads.
        let parsed = SavedState.parse("width=10\nheight=10\nfilter={not json\nfilter=" + (list[0].line ?? "") + "\n")
        XCTAssertEqual(parsed.filters, [list[0]])
        XCTAssertNil(parsed.width, "10 px is below the size range (and its height with it)")
    }
}
