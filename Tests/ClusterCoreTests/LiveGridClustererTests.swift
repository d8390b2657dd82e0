import XCTest
@testable import ClusterCore

/// `LiveGridClusterer`: after every batch of a seeded random change sequence (adds, removes,
/// moves, same-spot points, points across 180°) the result equals a fresh build of the final
/// points — a fresh `LiveGridClusterer` exactly (ids too), and `GridClusterer` in members,
/// positions, counts and expansion zooms.
final class LiveGridClustererTests: XCTestCase {
    typealias Scenario = LiveClusterIndexTests.Scenario

    func assertSameAsGrid(_ live: LiveGridClusterer, _ model: [GeoCoordinate], options: GridClusterer.Options,
                          file: StaticString = #filePath, line: UInt = #line) {
        var holes = model
        for i in holes.indices where !holes[i].isValid { holes[i] = GeoCoordinate(latitude: .nan, longitude: .nan) }
        let fresh = GridClusterer(points: holes, options: options)
        for z in live.minZoom...(live.maxZoom + 1) {
            func describe(_ index: some PointClusterer) -> [String] {
                index.clusters(in: .world, zoom: Double(z)).map { i in
                    let members = i.clusterID.map { index.leaves(of: $0) } ?? [i.featureID]
                    let e = i.clusterID.flatMap { index.expansionZoom(of: $0) } ?? -1
                    return "\(members)|\(i.coordinate)|\(i.count)|\(e)"
                }.sorted()
            }
            XCTAssertEqual(describe(live), describe(fresh), "zoom \(z)", file: file, line: line)
        }
    }

    func testRandomChangeSequencesEqualAFreshBuildAfterEveryBatch() {
        for (seed, position) in zip([11, 12, 13] as [UInt64], [GridClusterer.Position.average, .nearestToAverage, .first]) {
            let options = GridClusterer.Options(cellSize: 64, maxZoom: 12, position: position)
            var s = Scenario(seed: seed, initial: 150)
            let grid = LiveGridClusterer(points: s.model, options: options)
            for step in 0..<12 {
                let changes = s.nextBatch()
                grid.apply(changes)
                if step % 3 == 2 {
                    assertSameAsGrid(grid, s.model, options: options)
                    assertClusterInvariants(grid, points: s.model.map { $0.isValid ? $0 : GeoCoordinate(latitude: .nan, longitude: .nan) })
                }
            }
            assertSameItems(grid, LiveGridClusterer(points: s.model, options: options))
            grid.compact()
            assertSameAsGrid(grid, s.model, options: options)
        }
    }

    func testAClusterKeepsItsIdWhilePointsComeAndGo() {
        let grid = LiveGridClusterer(points: [GeoCoordinate(latitude: 1, longitude: 1), GeoCoordinate(latitude: 1.001, longitude: 1.001)])
        let before = grid.clusters(in: .world, zoom: 5)
        XCTAssertEqual(before.map(\.count), [2])
        let id = grid.add(GeoCoordinate(latitude: 1.0005, longitude: 1.0005))
        let after = grid.clusters(in: .world, zoom: 5)
        XCTAssertEqual(after.map(\.count), [3])
        XCTAssertEqual(after[0].clusterID, before[0].clusterID)
        XCTAssertTrue(grid.remove(id))
        XCTAssertTrue(grid.move(0, to: GeoCoordinate(latitude: -40, longitude: -60)))
        XCTAssertEqual(grid.clusters(in: .world, zoom: 5).map(\.count), [1, 1])
        grid.removeAll()
        XCTAssertTrue(grid.clusters(in: .world, zoom: 0).isEmpty)
    }
}
