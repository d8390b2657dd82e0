import XCTest
@testable import ClusterCore

/// A subset build's listing and copying of its chosen points on several threads against the
/// one-thread loops: odd sizes (0, 1, 2, primes, word edges), none / all / random selections.
final class SubsetGatherTests: XCTestCase {
    func testChosenMembersAndGathersEqualOneThread() {
        var r = SeededRandom(seed: 3)
        for n in [0, 1, 2, 3, 63, 64, 65, 127, 129, 997, 7_919, 65_537] {
            let points = (0..<n).map { _ in GeoCoordinate(latitude: r.uniform(-85, 85), longitude: r.uniform(-180, 180)) }
            let values = (0..<n).map { Double($0) * 0.5 }
            let selections: [(String, PointSelection?)] = [
                ("nil", nil), ("none", PointSelection(count: n, all: false)), ("all", PointSelection(count: n, all: true)),
                ("random", PointSelection(count: n) { _ in r.next() % 3 == 0 }), ("last", PointSelection(count: n) { $0 == n - 1 }),
            ]
            for (name, selection) in selections {
                let want = (0..<n).filter { selection?[$0] ?? true }.map { Int32($0) }
                for parts in [1, 2, 3, 8] {
                    let label = "\(n) points, \(name), \(parts) parts"
                    let members = SubsetClusterer.chosenMembers(selection, count: n, parts: parts)
                    XCTAssertEqual(members, want, label)
                    XCTAssertEqual(SubsetClusterer.gather(points, at: members, parts: parts), want.map { points[Int($0)] }, label)
                    XCTAssertEqual(SubsetClusterer.gather(values, at: members, parts: parts), want.map { values[Int($0)] }, label)
                    XCTAssertEqual(SubsetClusterer.gather([Int32](), at: members, parts: parts), [], label)
                }
            }
        }
    }
}
