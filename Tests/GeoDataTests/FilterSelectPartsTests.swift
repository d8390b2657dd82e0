import XCTest
import ClusterCore
@testable import GeoData

/// `FilterEvaluator.select` on several threads against one: odd sizes (0, 1, 2, primes, word
/// edges) and a column big enough for the default two-thread path.
final class FilterSelectPartsTests: XCTestCase {
    func testSelectionsOnSeveralThreadsEqualOneThread() {
        var r = SeededRandom(seed: 9)
        for n in [0, 1, 2, 63, 64, 65, 997, 7_919, 300_007] {
            let values = (0..<n).map { i in i % 101 == 3 ? Double.nan : r.uniform(0, 10) }
            let want = PointSelection(count: n) { values[$0] >= 5 }
            for parts in [1, 2, 3, 8] {
                XCTAssertEqual(FilterEvaluator.select(values, parts: parts) { $0 >= 5 }, want, "\(n) values, \(parts) parts")
            }
            XCTAssertEqual(FilterEvaluator.compareNumbers(values, .greaterOrEqual, 5), want, "\(n) values, default parts")
            XCTAssertEqual(FilterEvaluator.compareNumbers(values, .notEqual, values.first ?? 0),
                           PointSelection(count: n) { values[$0] != values.first && !values[$0].isNaN }, "\(n) values, not equal")
        }
    }
}
