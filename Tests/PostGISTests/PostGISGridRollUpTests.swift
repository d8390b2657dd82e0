import ClusterCore
import Foundation
import XCTest
@testable import PostGIS

/// Grid views at the world's zooms summed from one whole-world pass at a finer zoom (the cells
/// nest exactly) against the real server: the same items as the server's own aggregate of each
/// view and as the in-process `GridClusterer` (counts, positions, lone points, expansion zooms,
/// totals), with and without a filter; zooming out and panning after the pass asks nothing; a
/// change of the table drops the kept cells.
extension PostGISSourceTests {
    private func sorted(_ items: [PostGISItem]) -> [PostGISItem] {
        items.sorted { ($0.isCluster ? 1 : 0, $0.id ?? -1) < ($1.isCluster ? 1 : 0, $1.id ?? -1) }
    }

    func testCoarseViewsSummedFromAFinerPassEqualTheServersOwnAggregateAndTheGridClusterer() throws {
        let src = try source()
        for filtered in [false, true] {
            var o = PostGISViewOptions()
            o.algorithm = .grid
            o.total = "mag"
            if filtered { o.filter = try PostGISWhere(parsing: "kind != 'town' and mag >= 2") }
            var direct = o
            direct.rollsUp = false
            // The points the filter passes, with their row ids (input order + 1) and totals.
            let chosen = Self.points.indices.filter { !filtered || (Self.points[$0].kind != "town" && Self.points[$0].mag >= 2) }
            let grid = GridClusterer(points: chosen.map { GeoCoordinate(latitude: Self.points[$0].lat, longitude: Self.points[$0].lon) },
                                     categories: [], values: chosen.map { Self.points[$0].mag })
            src.forgetAggregates()
            // A world view: one pass over the table, kept.
            let world = try src.clusters(in: .world, zoom: 1, options: o)
            XCTAssertEqual(world.items.map(\.count).reduce(0, +), chosen.count)
            XCTAssertEqual(src.rollUps.count, 1, "filtered \(filtered): the pass is kept")
            let before = src.connection.statementCount
            var rolled: [[PostGISItem]] = []
            for box in Self.boxes {
                for z in 0...PostGISSource.rollUpZoom { rolled.append(try src.clusters(in: box, zoom: Double(z) + 0.5, options: o).items) }
            }
            XCTAssertEqual(src.connection.statementCount, before, "filtered \(filtered): coarser views and pans asked the server nothing")
            var k = 0
            for box in Self.boxes {
                for z in 0...PostGISSource.rollUpZoom {
                    let what = "filtered \(filtered), zoom \(z), box \(box)"
                    let mine = sorted(rolled[k]), own = sorted(try src.clusters(in: box, zoom: Double(z) + 0.5, options: direct).items)
                    k += 1
                    // Against the server's own aggregate of the view: the same items exactly (sums in another order).
                    XCTAssertEqual(mine.map(\.id), own.map(\.id), what)
                    XCTAssertEqual(mine.map(\.count), own.map(\.count), what)
                    XCTAssertEqual(mine.map(\.expansionZoom), own.map(\.expansionZoom), what)
                    XCTAssertEqual(mine.map(\.totalMin), own.map(\.totalMin), what)
                    XCTAssertEqual(mine.map(\.totalMax), own.map(\.totalMax), what)
                    for (a, b) in zip(mine, own) {
                        XCTAssertEqual(a.coordinate.latitude, b.coordinate.latitude, accuracy: 1e-9, what)
                        XCTAssertEqual(a.coordinate.longitude, b.coordinate.longitude, accuracy: 1e-9, what)
                        XCTAssertEqual(a.totalSum ?? .nan, b.totalSum ?? .nan, accuracy: 1e-9, what)
                        if !a.isCluster { XCTAssertEqual(a.coordinate, b.coordinate, "\(what): a lone point where it is") }
                    }
                    // Against the grid clusterer.
                    let items = mine.filter { !nearEdge($0.coordinate, box) }
                    let expected = grid.clusters(in: box, zoom: Double(z) + 0.5).filter { !nearEdge($0.coordinate, box) }
                    XCTAssertEqual(items.count, expected.count, what)
                    var clusters = items.filter(\.isCluster)
                    for e in expected {
                        switch e.kind {
                        case .point(let i):
                            XCTAssertTrue(items.contains { !$0.isCluster && $0.id == Int64(chosen[i] + 1) && $0.totalSum == Self.points[chosen[i]].mag },
                                          "\(what): point \(chosen[i]) missing")
                        case .cluster(let id):
                            guard let j = clusters.firstIndex(where: { $0.count == e.count
                                && abs($0.coordinate.latitude - e.coordinate.latitude) < 1e-9
                                && abs($0.coordinate.longitude - e.coordinate.longitude) < 1e-9 }) else {
                                XCTFail("\(what): cluster of \(e.count) at \(e.coordinate) missing"); continue
                            }
                            let a = grid.aggregates(of: e)
                            XCTAssertEqual(clusters[j].expansionZoom, grid.expansionZoom(of: id), what)
                            XCTAssertEqual(clusters[j].totalSum ?? .nan, a.sum, accuracy: 1e-9, what)
                            XCTAssertEqual(clusters[j].totalMin, a.minimum, what)
                            XCTAssertEqual(clusters[j].totalMax, a.maximum, what)
                            clusters.remove(at: j)
                        }
                    }
                    XCTAssertTrue(clusters.isEmpty, "\(what): extra clusters \(clusters.prefix(3))")
                }
            }
        }
        // The window's hierarchical views: dense ones are the kept cells, asked for nothing.
        var dense = PostGISViewOptions()
        dense.fetchLimit = 1000
        src.forgetAggregates()
        XCTAssertEqual(try src.clusters(in: .world, zoom: 1, options: dense).items.map(\.count).reduce(0, +), Self.points.count)
        let before = src.connection.statementCount
        let europe = try src.clusters(in: Self.boxes[1], zoom: 3, options: dense)
        XCTAssertEqual(src.connection.statementCount, before, "a dense view from the kept cells")
        guard case .aggregated = europe.method else { return XCTFail("dense view: \(europe.method)") }
        dense.rollsUp = false
        XCTAssertEqual(sorted(europe.items).map(\.count), sorted(try src.clusters(in: Self.boxes[1], zoom: 3, options: dense).items).map(\.count))
        // Deeper zooms and small views with nothing kept ask for their own box.
        src.forgetAggregates()
        _ = try src.clusters(in: Self.boxes[2], zoom: 3, options: { var o = PostGISViewOptions(); o.algorithm = .grid; return o }())
        XCTAssertEqual(src.rollUps.count, 0, "a town at zoom 3 makes no world pass")
    }

    func testKeptCellsAreDroppedWhenTheTableChanges() throws {
        guard let s = Self.server else { throw XCTSkip("no server") }
        try loadPoints(Array(Self.points.prefix(500)), into: "pts_rollup", on: s.connect())
        let src = try PostGISSource(address: s.address("pts_rollup"))
        var o = PostGISViewOptions()
        o.algorithm = .grid
        func total(_ z: Double) throws -> Int { try src.clusters(in: .world, zoom: z, options: o).items.map(\.count).reduce(0, +) }
        XCTAssertEqual(try total(1), 500)
        XCTAssertEqual(src.rollUps.count, 1)
        let insert = "INSERT INTO pts_rollup (geom, mag, kind) VALUES (ST_SetSRID(ST_MakePoint(5, 5), 4326), 1, 'new')"
        _ = try s.connect().query(insert)
        // The window's queue drops them with its own cache (DatabaseLink.tableChanged → invalidate).
        let queue = PostGISViewQueue(source: src, options: o) { _, _ in }
        queue.invalidate()
        XCTAssertEqual(src.rollUps.count, 0)
        XCTAssertEqual(try total(2), 501)
        // The change watcher (the command line's --refresh) drops them when it sees a change.
        try PostGISChangeWatcher.installNotifyTrigger(on: src)
        let watcher = try PostGISChangeWatcher(source: src)
        XCTAssertEqual(src.rollUps.count, 1)
        _ = try s.connect().query(insert)
        XCTAssertTrue(try watcher.waitForChange(seconds: 10))
        XCTAssertEqual(src.rollUps.count, 0)
        XCTAssertEqual(try total(0), 502)
    }

    func testAPassThatStartedBeforeAChangeIsNotKept() {
        let cache = PostGISRollUpCache()
        let cell = PostGISGridCell(ix: 0, iy: 0, count: 1, sumX: 0.5, sumY: 0.5, minLongitude: 0, maxLongitude: 0, minLatitude: 0,
                                   id: 1, minY: 0.5, maxY: 0.5, hasExtent: true, totalSum: nil, totalMin: nil, totalMax: nil)
        let started = cache.generation
        cache.forget()
        cache.keep([cell], for: "a", ifStill: started)
        XCTAssertNil(cache.cells(for: "a"))
        cache.keep([cell], for: "a", ifStill: cache.generation)
        XCTAssertEqual(cache.cells(for: "a"), [cell])
        for key in ["b", "c", "d", "e"] { cache.keep([cell], for: key, ifStill: cache.generation) }
        XCTAssertEqual(cache.count, cache.capacity, "a few keys at most")
        XCTAssertNil(cache.cells(for: "a"), "the oldest went first")
    }
}
