import ClusterCore
import Foundation
import XCTest
@testable import PostGIS

/// A pyramid built with totals (`clustermap pyramid ADDR --total sum:mag --total sum:'damage usd'`):
/// its views give what the table's own GROUP BY gives at every zoom (count, sum, lowest, highest,
/// rows with a value, so the mean); an older pyramid without them is found and still serves counts,
/// views with a total fall back to the table (and say why); building again refreshes it.
extension PostGISPyramidTests {
    /// Both nil, or equal but for the order of a float sum.
    private func close(_ a: Double?, _ b: Double?, _ what: String) {
        guard let a, let b else { return XCTAssertEqual(a, b, what) }
        XCTAssertEqual(a, b, accuracy: 1e-9 * max(1, abs(b)), what)
    }

    func testAPyramidWithTotalsEqualsTheTablesOwnTotalsAtEveryZoom() throws {
        let s = try TestPostgres()
        let points = PostGISSourceTests.makePoints()
        let c = try s.connect()
        try loadPoints(points, into: "piles", on: c)
        // A second total with NULLs, an awkward name and a decimal type.
        _ = try c.query("ALTER TABLE piles ADD COLUMN \"damage usd\" numeric(10,2)")
        _ = try c.query("UPDATE piles SET \"damage usd\" = CASE WHEN id % 9 = 0 THEN NULL ELSE ((id * 7) % 500) / 4.0 END")
        // An old pyramid: counts only, marked as the first version wrote it.
        let old = try PostGISSource(address: s.address("piles"))
        try PostGISPyramid.build(for: old, maxZoom: 8)
        _ = try c.query("COMMENT ON TABLE piles_clustermap_pyramid IS 'clustermap pyramid v1 cell=64.0 maxzoom=8'")
        let src = try PostGISSource(address: s.address("piles"))
        XCTAssertEqual(src.pyramid?.maxZoom, 8, "an old pyramid is found")
        XCTAssertEqual(src.pyramid?.totals, [])
        var o = PostGISViewOptions()
        o.algorithm = .grid
        guard case .pyramid = try src.clusters(in: .world, zoom: 4, options: o).method else { return XCTFail("counts come from it") }
        o.total = "mag"
        guard case .aggregated = try src.clusters(in: .world, zoom: 4, options: o).method else { return XCTFail("it holds no totals") }
        XCTAssertNotNil(src.pyramid?.problem(total: "mag", mostCommon: false))
        XCTAssertTrue(src.pyramid?.problem(total: "mag", mostCommon: false)?.contains("--total sum:mag") ?? false)

        // Built again with totals: found as such, and its views equal the table's.
        let cells = try PostGISPyramid.build(for: src, maxZoom: 8, totals: ["mag", "damage usd", "mag"])
        XCTAssertEqual(cells.count, 9)
        let again = try PostGISSource(address: s.address("piles"))
        XCTAssertEqual(again.pyramid?.totals, ["mag", "damage usd"])
        XCTAssertTrue(try c.query("SELECT obj_description('piles_clustermap_pyramid'::regclass, 'pg_class')").text(0, 0)?
            .hasPrefix("clustermap pyramid v2 ") ?? false)
        let table = try PostGISSource(address: s.address("piles"))
        table.pyramid = nil
        for column in ["mag", "damage usd"] {
            o.total = column
            var direct = o
            direct.rollsUp = false
            for box in PostGISSourceTests.boxes {
                for z in 0...8 {
                    let what = "\(column) zoom \(z) box \(box)"
                    let got = try again.clusters(in: box, zoom: Double(z) + 0.5, options: o)
                    guard case .pyramid = got.method else { return XCTFail("\(what): \(got.method)") }
                    let want = try table.clusters(in: box, zoom: Double(z) + 0.5, options: direct)
                    guard case .aggregated = want.method else { return XCTFail("\(what): \(want.method)") }
                    let a = got.items.sorted { ($0.id ?? -1) < ($1.id ?? -1) }, b = want.items.sorted { ($0.id ?? -1) < ($1.id ?? -1) }
                    XCTAssertEqual(a.map(\.id), b.map(\.id), what)
                    XCTAssertEqual(a.map(\.count), b.map(\.count), what)
                    XCTAssertEqual(a.map(\.totalCount), b.map(\.totalCount), what)
                    XCTAssertEqual(a.map(\.totalMin), b.map(\.totalMin), what)
                    XCTAssertEqual(a.map(\.totalMax), b.map(\.totalMax), what)
                    for (p, q) in zip(a, b) {
                        close(p.totalSum, q.totalSum, what)
                        close(p.totalMean, q.totalMean, what)
                        XCTAssertEqual(p.coordinate.latitude, q.coordinate.latitude, accuracy: 1e-9, what)
                        XCTAssertEqual(p.coordinate.longitude, q.coordinate.longitude, accuracy: 1e-9, what)
                    }
                    XCTAssertTrue(a.isEmpty || a.contains { $0.totalSum != nil }, what)
                }
            }
        }
        // Dense hierarchical views with the total come from it too; a total it doesn't hold, a
        // most-common total or a filter fall back to the table.
        var dense = PostGISViewOptions()
        dense.fetchLimit = 1000
        dense.total = "mag"
        guard case .pyramid = try again.clusters(in: .world, zoom: 3, options: dense).method else { return XCTFail("dense view with a total") }
        o.total = "id"
        guard case .aggregated = try again.clusters(in: .world, zoom: 3, options: o).method else { return XCTFail("a total it doesn't hold") }
        o.total = "kind"
        o.totalIsMostCommon = true
        guard case .aggregated = try again.clusters(in: .world, zoom: 3, options: o).method else { return XCTFail("most common") }
        XCTAssertNotNil(again.pyramid?.problem(total: "kind", mostCommon: true))
        XCTAssertNil(again.pyramid?.problem(total: "damage usd", mostCommon: false))
        XCTAssertThrowsError(try PostGISPyramid.build(for: again, maxZoom: 2, totals: ["kind"]), "a text column has no sum")
        XCTAssertEqual(try PostGISSource(address: s.address("piles")).pyramid?.totals, ["mag", "damage usd"], "a refused build keeps the pyramid")
    }
}
