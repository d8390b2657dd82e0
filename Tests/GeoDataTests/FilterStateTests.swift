import ClusterCore
import XCTest
@testable import GeoData

/// The filter panel's conditions: chips, the expression they stand for (which the grammar reads
/// back), and the places they keep, against brute force.
final class FilterStateTests: XCTestCase {
    func testConditionsSelectWhatTheySayAndReadBackThroughTheGrammar() throws {
        var r = SeededRandom(seed: 11)
        let n = 2_000
        let kinds = ["quake", "o'brien", "and", "blast \\ x"]
        let mag = (0..<n).map { _ in (r.uniform(0, 9) * 10).rounded() / 10 }
        let type = (0..<n).map { _ in kinds[Int(r.next() % 4)] }
        let time = (0..<n).map { _ in (1_293_840_000 + r.uniform(0, 365 * 86400)).rounded() }
        let flag = (0..<n).map { _ in r.next() % 2 == 0 }
        let table = PropertyTable(count: n, values: [
            ("mag", mag.map { .number($0) }), ("place type", type.map { .string($0) }),
            ("time", time.map { .string(DateText.text($0)) }), ("in", flag.map { .bool($0) }),
        ])
        let e = FilterEvaluator(table: table)
        let lo = DateText.seconds("2011-03-01")!, hi = DateText.seconds("2011-06-30T12:00:00Z")!
        var state = FilterState()
        state.set(FilterCondition(property: "mag", kind: .numberRange(lower: 2.5, upper: nil)))
        state.set(FilterCondition(property: "place type", kind: .oneOf(["o'brien", "and", "blast \\ x"])))
        state.set(FilterCondition(property: "time", kind: .dateRange(lower: lo, upper: hi)))
        state.set(FilterCondition(property: "in", kind: .isTrue(true)))
        state.set(FilterCondition(property: "mag", kind: .numberRange(lower: 2.5, upper: 7.25)))  // replaces
        XCTAssertEqual(state.conditions.count, 4)
        XCTAssertEqual(state.chips, ["mag 2.5 – 7.25", "place type: o'brien, and, blast \\ x", "time 2011-03-01 – 2011-06-30T12:00:00Z", "in: yes"])
        let got = try XCTUnwrap(try e.selection(for: state))
        let want = PointSelection(count: n) {
            mag[$0] >= 2.5 && mag[$0] <= 7.25 && type[$0] != "quake" && time[$0] >= lo && time[$0] <= hi && flag[$0]
        }
        XCTAssertGreaterThan(want.chosenCount, 0)
        XCTAssertEqual(got, want, state.expression ?? "")
        state.remove(property: "in")
        state.set(FilterCondition(property: "place type", kind: .contains("O'B")))
        XCTAssertEqual(try e.selection(for: state), PointSelection(count: n) {
            mag[$0] >= 2.5 && mag[$0] <= 7.25 && type[$0] == "o'brien" && time[$0] >= lo && time[$0] <= hi
        })
        state.set(FilterCondition(property: "place type", kind: .oneOf([])))
        XCTAssertEqual(try e.selection(for: state)?.chosenCount, 0, "nothing ticked: nothing shows")
        state.clear()
        XCTAssertNil(try e.selection(for: state))
        XCTAssertNil(state.expression)
    }

    func testPlacesText() {
        XCTAssertEqual(FilterState.placesText(passing: 12_345, of: 1_000_000), "12,345 of 1,000,000 places")
        XCTAssertEqual(FilterState.placesText(passing: 0, of: 1), "0 of 1 place")
        XCTAssertEqual(FilterState.placesText(passing: 999, of: 1_000), "999 of 1,000 places")
    }
}
