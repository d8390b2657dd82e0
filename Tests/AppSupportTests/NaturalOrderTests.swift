import XCTest
@testable import AppSupport

/// The same-spot list sorts as people count: Locker 1, 2, …, 10, not 1, 10, 2.
final class NaturalOrderTests: XCTestCase {
    func testNumbersSortByValueAndCaseAndAccentsAside() {
        let names = ["Locker 10", "locker 2", "Locker 1", "Locker 11", "Écluse", "Locker 9", "eclair", "Locker 2"]
        let ids = Array(names.indices)
        let order = NaturalOrder.sorted(ids) { names[$0] }.map { names[$0] }
        XCTAssertEqual(order, ["eclair", "Écluse", "Locker 1", "Locker 2", "locker 2", "Locker 9", "Locker 10", "Locker 11"])
        // Whatever order the list came in.
        XCTAssertEqual(NaturalOrder.sorted(ids.reversed()) { names[$0] }.map { names[$0] }, order)
    }
}
