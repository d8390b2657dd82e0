import XCTest
import ClusterCore
import GeoData
import MapRender
@testable import AppSupport

/// With `--total`, the bubbles' colours and rings still read the file's own categories and values
/// (what `decorateBubbles` reads through `shownIndex`), and the total comes from the total's
/// property (`FilteredClusters.totalAggregates`), each equal to a build of its own inputs.
final class FilterTotalsTests: XCTestCase {
    typealias Fixture = MapPresentationFilterTests

    func testTheShownIndexKeepsTheFilesCategoriesAndTheTotalComesFromTheTotal() throws {
        // Two files: their own category is the file (the ring's colours say which file).
        let places = Fixture.places(2000, seed: 5)
        let p = MapPresentation(labelRenderer: MapLabelRenderer())
        p.show(MapDataSession(pointSets: [try PointSetLoader.load(text: Fixture.csv(Array(places[..<1200])), name: "a.csv"),
                                          try PointSetLoader.load(text: Fixture.csv(Array(places[1200...])), name: "b.csv")]))
        let session = try XCTUnwrap(p.session)
        XCTAssertEqual(session.bubbleColoring, .categories)
        let own = session.aggregateInputs()
        XCTAssertFalse(own.categories.isEmpty, "the files' own categories")
        // most-common of mag read as a category: codes unrelated to the file's type categories.
        var settings = FilterSettings()
        _ = try settings.set("where", "mag >= 2")
        _ = try settings.set("type", "mag=category")
        _ = try settings.set("total", "most-common:mag")
        try p.applyFilter(settings)
        let shown = try XCTUnwrap(p.shownFilter)
        let result = shown.result
        XCTAssertFalse(result.totalCategories.isEmpty)
        func build(_ categories: [Int32], _ values: [Double]) -> SubsetClusterer {
            SubsetClusterer(points: session.places.coordinates, selection: result.selection, groups: result.groups,
                            categories: categories, values: values, method: .hierarchical(MapDataSession.clusterOptions))
        }
        let ownOracle = build(own.categories, own.values)
        let totalOracle = build(result.totalCategories, own.values)
        let world = GeoBounds(west: -180, south: -85, east: 180, north: 85)
        var differs = false
        for zoom in [0, 3, 6, 10] {
            let items = session.shownIndex.clusters(in: world, zoom: Double(zoom))
            let oracleItems = ownOracle.clusters(in: world, zoom: Double(zoom))
            XCTAssertEqual(items.count, oracleItems.count, "zoom \(zoom)")
            let shownAggs = items.map { session.shownIndex.aggregates(of: $0) }
            XCTAssertEqual(shownAggs, oracleItems.map { ownOracle.aggregates(of: $0) }, "zoom \(zoom): the file's own categories")
            let totals = items.map { shown.totalAggregates(of: $0) }
            XCTAssertEqual(totals, oracleItems.map { totalOracle.aggregates(of: $0) }, "zoom \(zoom): the total's categories")
            if shownAggs != totals.map({ $0 ?? ClusterAggregates(count: -1) }) { differs = true }
        }
        XCTAssertTrue(differs, "the total's categories differ from the file's, so the test can tell them apart")

        // Without a total there is no total index.
        var plain = FilterSettings()
        _ = try plain.set("where", "mag >= 2")
        try p.applyFilter(plain)
        XCTAssertNil(p.shownFilter?.totalIndex)
    }
}
