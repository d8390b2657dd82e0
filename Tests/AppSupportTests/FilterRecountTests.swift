import XCTest
import Foundation
import ClusterCore
import GeoData
import MapModel
@testable import AppSupport

/// The recounted first frame (issue 29 item 3) through `MapPresentation`, without a display: for
/// a change the repair can't take, the job first hands over the session's unfiltered build
/// recounted over the passing places — checked against brute force over that build's own
/// clusters, for every filter kind — then the exact build, which equals the oracle (a fresh
/// build of the passing places).
final class FilterRecountTests: XCTestCase {
    typealias Fixture = MapPresentationFilterTests

    /// Runs a job as `FilterInterimTests.run` does: the interim shown and checked by `whileInterim`,
    /// then the exact outcome shown; both frames' events.
    func run(_ job: FilterJob, in p: MapPresentation, whileInterim: @escaping (MapPresentation) throws -> Void = { _ in })
        throws -> (interim: [MapEvent], settled: [MapEvent]) {
        var interimEvents: [MapEvent] = []
        var failure: Error?
        let settled = job.run(showingInterim: { outcome in
            interimEvents = p.finishFilter(outcome)
            do { try whileInterim(p) } catch { failure = error }
        })
        if let failure { throw failure }
        return (interimEvents, p.finishFilter(settled))
    }

    /// A presentation where every change is recounted (no repair; the recount from 0 passing places).
    func recounting(_ places: [Fixture.Place]) throws -> MapPresentation {
        let p = try Fixture.presentation(places)
        p.filtering.interim.tune(minimumPassing: .max, maximumChanges: 0)
        p.filtering.interim.recount.tune(minimumPassing: 0)
        return p
    }

    /// What the recount must show at `zoom`: each unfiltered item's passing leaves (none: gone;
    /// one: that place), as "count [leaves]" lines.
    static func bruteForce(_ build: HierarchicalClusterer, passing: Set<Int>, zoom: Int) -> [String] {
        build.clusters(in: .world, zoom: Double(zoom)).compactMap { item -> String? in
            let kept = (item.clusterID.map { build.leaves(of: $0) } ?? [item.pointIndex!]).filter(passing.contains).sorted()
            return kept.isEmpty ? nil : "\(kept.count) \(kept)"
        }.sorted()
    }

    static func shown(_ index: any PointClusterer, zoom: Int) -> [String] {
        index.clusters(in: .world, zoom: Double(zoom)).map { item in
            let leaves = item.clusterID.map { index.leaves(of: $0) } ?? [item.pointIndex!]
            return "\(item.count) \(leaves.sorted())"
        }.sorted()
    }

    func testEveryFilterKindShowsARecountThenSettlesExactly() throws {
        let places = Fixture.places(1500, seed: 99)
        let p = try recounting(places)
        let build = try XCTUnwrap(p.session?.clusterer.unchangedBuild?.build)
        let cases: [([(String, String)], (Fixture.Place) -> Bool)] = [
            ([("where", "mag >= 4.5")], { $0.mag >= 4.5 }),
            ([("where", "not type = 'quake'")], { $0.type != "quake" }),
            ([("where", "type in ('storm', 'flood')")], { ["storm", "flood"].contains($0.type) }),
            ([("where", "type contains 'o'")], { $0.type.contains("o") }),
            ([("where", "mag >= 3 and mag <= 6 or type = 'flood'")], { ($0.mag >= 3 && $0.mag <= 6) || $0.type == "flood" }),
            ([("since", "2003-01-01"), ("until", "2005-12-31")], { $0.day >= 1096 && $0.day <= 2191 }),
            ([("where", "mag >= 0")], { _ in true }),
        ]
        for (options, oracle) in cases {
            var s = FilterSettings()
            for (k, v) in options { _ = try s.set(k, v) }
            let passing = places.indices.filter { oracle(places[$0]) }
            let label = "\(options)"
            let (interim, settled) = try run(try XCTUnwrap(p.setFilter(s)), in: p) { p in
                XCTAssertTrue(p.filterIsInterim, label)
                let index = try XCTUnwrap(p.session?.shownIndex)
                for zoom in [0, 3, 6, 9, 19] {
                    XCTAssertEqual(Self.shown(index, zoom: zoom), Self.bruteForce(build, passing: Set(passing), zoom: zoom),
                                   "\(label) zoom \(zoom)")
                }
                XCTAssertEqual(p.filterPlacesText, FilterState.placesText(passing: passing.count, of: places.count), label)
            }
            XCTAssertEqual(interim.map(\.name), ["filter-interim"], label)
            let fields = Dictionary(interim.first?.fields ?? [], uniquingKeysWith: { a, _ in a })
            XCTAssertEqual(fields["kind"], .string("recount"), label)
            XCTAssertEqual(fields["passing"], .int(passing.count), label)
            XCTAssertNil(fields["changed"], label)
            XCTAssertEqual(settled.map(\.name), ["filter"], label)
            XCTAssertFalse(p.filterIsInterim)
            try Fixture.assertShowsExactly(passing, of: places, in: p)
        }
    }

    func testTotalsAreRecountedAndGroupingWaitsForTheExactBuild() throws {
        let places = Fixture.places(2000, seed: 8)
        let p = try recounting(places)
        var totalled = FilterSettings()
        _ = try totalled.set("where", "mag >= 2")
        _ = try totalled.set("total", "sum:mag")
        let passing = Set(places.indices.filter { places[$0].mag >= 2 })
        let (interim, _) = try run(try XCTUnwrap(p.setFilter(totalled)), in: p) { p in
            let filtered = try XCTUnwrap(p.shownFilter)
            XCTAssertTrue(filtered.isInterim)
            let grouping = try XCTUnwrap(BubbleGrouping(settings: filtered.settings, result: filtered.result, index: filtered.index,
                                                       totalIndex: filtered.totalIndex))
            var clusters = 0
            for zoom in [0, 4, 8] {
                for item in filtered.index.clusters(in: .world, zoom: Double(zoom)) {
                    guard let id = item.clusterID else { continue }
                    clusters += 1
                    let members = filtered.index.leaves(of: id)
                    XCTAssertTrue(members.allSatisfy(passing.contains))
                    let sum = members.reduce(0.0) { $0 + places[$1].mag }
                    let total = try XCTUnwrap(grouping.totalValue(of: .cluster(id.rawValue)))
                    XCTAssertEqual(total, sum, accuracy: 1e-9)
                }
            }
            XCTAssertGreaterThan(clusters, 10)
        }
        XCTAssertEqual(interim.map(\.name), ["filter-interim"])
        try Fixture.assertShowsExactly(passing.sorted(), of: places, in: p)

        var grouped = FilterSettings()
        _ = try grouped.set("where", "mag >= 5")
        _ = try grouped.set("by", "type")
        let (none, settled) = try run(try XCTUnwrap(p.setFilter(grouped)), in: p)
        XCTAssertEqual(none.map(\.name), [], "the unfiltered build mixes categories: no recount for --by")
        XCTAssertEqual(settled.map(\.name), ["filter"])
    }

    func testTheRecountIsTakenWhereItBeatsTheExactBuild() {
        // 1M places: the build of 160k+ would miss the budget, and costs more than the recount.
        XCTAssertTrue(FilterRecount.pays(passing: 500_000, places: 1_000_000, minimumPassing: FilterInterim.minimumPassing))
        XCTAssertFalse(FilterRecount.pays(passing: 100_000, places: 1_000_000, minimumPassing: FilterInterim.minimumPassing))
        // 10M places: 200k passing build faster than 10M recount.
        XCTAssertFalse(FilterRecount.pays(passing: 200_000, places: 10_000_000, minimumPassing: FilterInterim.minimumPassing))
        XCTAssertTrue(FilterRecount.pays(passing: 5_000_000, places: 10_000_000, minimumPassing: FilterInterim.minimumPassing))
    }

    func testFewPassingPlacesGoStraightToTheExactBuild() throws {
        let places = Fixture.places(2000, seed: 9)
        let p = try Fixture.presentation(places)
        p.filtering.interim.tune(minimumPassing: .max, maximumChanges: 0)
        p.filtering.interim.recount.tune(minimumPassing: 500)
        var few = FilterSettings()
        _ = try few.set("where", "mag >= 8.8")  // ~2 % pass: the exact build is cheaper than a recount
        XCTAssertEqual(try run(try XCTUnwrap(p.setFilter(few)), in: p).interim.map(\.name), [])
        var none = FilterSettings()
        _ = try none.set("where", "mag > 100")
        XCTAssertEqual(try run(try XCTUnwrap(p.setFilter(none)), in: p).interim.map(\.name), [])
        var many = FilterSettings()
        _ = try many.set("where", "mag >= 1")
        XCTAssertEqual(try run(try XCTUnwrap(p.setFilter(many)), in: p).interim.map(\.name), ["filter-interim"])
    }
}
