import XCTest
@testable import ClusterCore

/// `LiveClusterIndex`: seeded random change sequences (adds, removes, moves, same-spot points,
/// points across 180°) checked against the algorithm's rules after every batch, and against a
/// fresh build after `compact()`.
final class LiveClusterIndexTests: XCTestCase {
    /// A random change sequence over a model of the points (id → coordinate, NaN when removed).
    struct Scenario {
        var random: SeededRandom
        var model: [GeoCoordinate]

        init(seed: UInt64, initial: Int) {
            random = SeededRandom(seed: seed)
            model = []
            for _ in 0..<initial { model.append(randomPoint()) }
        }

        static let removed = GeoCoordinate(latitude: .nan, longitude: .nan)

        /// Blobs (a city, a town across 180°), scattered points, and copies of existing spots.
        mutating func randomPoint() -> GeoCoordinate {
            let k = random.next() % 10
            switch k {
            case 0...3: return GeoCoordinate(latitude: 40.4 + random.uniform(-0.3, 0.3), longitude: -3.7 + random.uniform(-0.3, 0.3))
            case 4, 5:
                let lon = random.unit() < 0.5 ? random.uniform(179.7, 180) : random.uniform(-180, -179.7)
                return GeoCoordinate(latitude: -17 + random.uniform(-0.3, 0.3), longitude: lon)
            case 6, 7: return GeoCoordinate(latitude: random.uniform(-80, 80), longitude: random.uniform(-180, 180))
            default:
                let alive = model.filter(\.isValid)
                guard !alive.isEmpty else { return GeoCoordinate(latitude: 1, longitude: 1) }
                return alive[Int(random.next() % UInt64(alive.count))]  // same spot as another point
            }
        }

        mutating func aliveID() -> Int? {
            let ids = model.indices.filter { model[$0].isValid }
            return ids.isEmpty ? nil : ids[Int(random.next() % UInt64(ids.count))]
        }

        /// A batch of 1–8 changes, applied to the model too.
        mutating func nextBatch() -> PointChanges {
            var changes = PointChanges()
            var touched = Set<Int>()
            for _ in 0..<(1 + Int(random.next() % 8)) {
                switch random.next() % 3 {
                case 0:
                    changes.additions.append(randomPoint())
                case 1:
                    if let id = aliveID(), touched.insert(id).inserted { changes.removals.append(id) }
                default:
                    guard let id = aliveID(), touched.insert(id).inserted else { continue }
                    let c = model[id]
                    let to = random.unit() < 0.5
                        ? GeoCoordinate(latitude: c.latitude + random.uniform(-0.01, 0.01),
                                        longitude: GeoCoordinate.wrapLongitude(c.longitude + random.uniform(-0.4, 0.4)))
                        : randomPoint()
                    changes.moves.append((id, to))
                }
            }
            for id in changes.removals { model[id] = Self.removed }
            for (id, to) in changes.moves { model[id] = to }
            model += changes.additions
            return changes
        }
    }

    func checkRules(_ index: LiveClusterIndex, _ model: [GeoCoordinate], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(index.inputCount, model.count, file: file, line: line)
        XCTAssertEqual(index.count, model.filter(\.isValid).count, file: file, line: line)
        assertClusterInvariants(index, points: model, file: file, line: line)
        assertHierarchicalRules(index, options: index.options, file: file, line: line)
        assertSameSpotTogether(index, coordinates: model, alive: { index.contains($0) }, file: file, line: line)
    }

    func testRandomChangeSequencesKeepTheRulesAndCompactEqualsAFreshBuild() {
        for seed: UInt64 in [1, 2, 3, 4] {
            var s = Scenario(seed: seed, initial: 250)
            let index = LiveClusterIndex(points: s.model)
            checkRules(index, s.model)
            for step in 0..<24 {
                let changes = s.nextBatch()
                let before = index.inputCount
                let result = index.apply(changes)
                XCTAssertEqual(result.addedIDs, Array(before..<(before + changes.additions.count)))
                XCTAssertEqual(result.removed, changes.removals.count)
                XCTAssertEqual(result.moved, changes.moves.count)
                if step % 4 == 3 { checkRules(index, s.model) }
                // Every point is where the model says, at once.
                let top = index.clusters(in: .world, zoom: 20)
                XCTAssertEqual(Set(top.compactMap(\.pointIndex)), Set(s.model.indices.filter { s.model[$0].isValid }), "seed \(seed) step \(step)")
                for item in top { XCTAssertEqual(item.coordinate, s.model[item.featureID]) }
            }
            XCTAssertTrue(index.hasChanges)
            index.compact()
            XCTAssertFalse(index.hasChanges)
            checkRules(index, s.model)
            assertSameItems(index, LiveClusterIndex(points: s.model))
            assertSameAsHierarchical(index, s.model)
        }
    }

    /// After `compact()` the index has the clusters `HierarchicalClusterer` makes of the
    /// remaining points in id order: same members, counts, centres and expansion zooms.
    func assertSameAsHierarchical(_ index: LiveClusterIndex, _ model: [GeoCoordinate], file: StaticString = #filePath, line: UInt = #line) {
        let ids = model.indices.filter { model[$0].isValid }
        let fresh = HierarchicalClusterer(points: ids.map { model[$0] })
        for z in index.minZoom...(index.maxZoom + 1) {
            func key(_ i: ClusterItem, _ members: [Int]) -> String { "\(members.sorted())|\(i.coordinate)|\(i.count)" }
            let a = index.clusters(in: .world, zoom: Double(z)).map { i in
                key(i, i.clusterID.map { index.leaves(of: $0) } ?? [i.featureID])
            }
            let b = fresh.clusters(in: .world, zoom: Double(z)).map { i in
                key(i, (i.clusterID.map { fresh.leaves(of: $0) } ?? [i.featureID]).map { ids[$0] })
            }
            XCTAssertEqual(a.sorted(), b.sorted(), "zoom \(z)", file: file, line: line)
        }
    }

    func testQueriesReflectEachChangeAtOnce() {
        let index = LiveClusterIndex(points: [GeoCoordinate(latitude: 10, longitude: 10), GeoCoordinate(latitude: 10.001, longitude: 10.001)])
        XCTAssertEqual(index.clusters(in: .world, zoom: 0).map(\.count), [2])
        let id = index.add(GeoCoordinate(latitude: 10.0005, longitude: 10.0005))
        XCTAssertEqual(id, 2)
        XCTAssertEqual(index.clusters(in: .world, zoom: 0).map(\.count), [3])
        XCTAssertTrue(index.move(id, to: GeoCoordinate(latitude: -40, longitude: 170)))
        XCTAssertEqual(index.clusters(in: .world, zoom: 0).map(\.count).sorted(), [1, 2])
        XCTAssertEqual(index.clusters(in: GeoBounds(west: 160, south: -50, east: 180, north: -30), zoom: 3).map(\.pointIndex), [id])
        XCTAssertTrue(index.remove(0))
        XCTAssertFalse(index.remove(0), "already removed")
        XCTAssertEqual(index.clusters(in: .world, zoom: 0).map(\.count), [1, 1])
        XCTAssertNil(index.coordinate(of: 0))
        index.removeAll()
        XCTAssertEqual(index.count, 0)
        XCTAssertTrue(index.clusters(in: .world, zoom: 5).isEmpty)
        XCTAssertEqual(index.add(GeoCoordinate(latitude: 1, longitude: 1)), 3, "ids are never reused")
        XCTAssertEqual(index.clusters(in: .world, zoom: 5).map(\.pointIndex), [3])
    }

    func testAClusterFarFromAChangeKeepsItsId() {
        let index = LiveClusterIndex(points: Fixtures.denseCity(300, seed: 5))
        let before = index.clusters(in: .world, zoom: 10).filter(\.isCluster)
        XCTAssertFalse(before.isEmpty)
        index.add(GeoCoordinate(latitude: -40, longitude: 170))  // the other side of the world
        let after = index.clusters(in: .world, zoom: 10).filter(\.isCluster)
        XCTAssertEqual(Set(after.map(\.featureID)), Set(before.map(\.featureID)))
        XCTAssertTrue(before.allSatisfy { $0.featureID >= index.inputCount })
    }

    func testSameSpotPointsJoinTheirSpotsCluster() {
        let spot = GeoCoordinate(latitude: 51.5, longitude: -0.12)
        let index = LiveClusterIndex(points: Array(repeating: spot, count: 5) + Fixtures.uniform(50, seed: 9))
        index.add(spot)
        index.add(contentsOf: [spot, spot])
        index.remove(contentsOf: [0, 1])
        let items = index.clusters(in: GeoBounds(west: -1, south: 51, east: 1, north: 52), zoom: 16)
        XCTAssertEqual(items.map(\.count), [6])
        XCTAssertEqual(items.first?.clusterID.flatMap(index.expansionZoom(of:)), 17, "a same-spot cluster never splits")
    }

    func testAcrossTheAntimeridianAClusterFollowsItsPoints() {
        let index = LiveClusterIndex(points: [GeoCoordinate(latitude: 0, longitude: 179.999)])
        let id = index.add(GeoCoordinate(latitude: 0, longitude: -179.999))
        let box = GeoBounds(west: 179, south: -1, east: -179, north: 1)  // crosses 180°
        XCTAssertEqual(index.clusters(in: box, zoom: 10).map(\.count).sorted(), [1, 1])
        // At zoom 6 the two are ~1.5 px apart: one bubble... only when on the same side (the
        // algorithm, like supercluster, doesn't wrap clusters); moving one across joins them.
        index.move(id, to: GeoCoordinate(latitude: 0, longitude: 179.998))
        XCTAssertEqual(index.clusters(in: box, zoom: 6).map(\.count), [2])
        XCTAssertEqual(index.clusters(in: .world, zoom: 19).compactMap(\.pointIndex).sorted(), [0, id])
    }

    func testAggregatesFollowChanges() {
        let index = LiveClusterIndex(points: [GeoCoordinate(latitude: 5, longitude: 5), GeoCoordinate(latitude: 5.0001, longitude: 5)],
                                     categories: [1, 2], values: [3, 4])
        index.add(GeoCoordinate(latitude: 5.0002, longitude: 5), category: 2, value: 10)
        let items = index.clusters(in: .world, zoom: 3)
        XCTAssertEqual(items.count, 1)
        let agg = index.aggregates(of: items[0])
        XCTAssertEqual(agg.count, 3)
        XCTAssertEqual(agg.categoryCounts, [CategoryCount(category: 2, count: 2), CategoryCount(category: 1, count: 1)])
        XCTAssertEqual(agg.maximum, 10)
        XCTAssertEqual(agg.sum, 17)
    }

    func testInvalidCoordinatesAreSkippedNotIndexed() {
        let index = LiveClusterIndex(points: [GeoCoordinate(latitude: .nan, longitude: 0)])
        let id = index.add(GeoCoordinate(latitude: 95, longitude: 0))
        XCTAssertEqual(id, 1)
        XCTAssertEqual(index.skippedCount, 2)
        XCTAssertFalse(index.move(0, to: GeoCoordinate(latitude: 1, longitude: 1)), "a skipped point can't move")
        XCTAssertTrue(index.clusters(in: .world, zoom: 0).isEmpty)
    }
}
