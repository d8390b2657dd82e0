import XCTest
import Synchronization
@testable import AppSupport

/// Progress reaches the window at most ~30 times a second, and never loses the last word.
final class ProgressThrottleTests: XCTestCase {
    func testAtMostOneUpdatePerIntervalButTheEndAlwaysPasses() {
        let now = Mutex<Double>(0)
        let throttle = ProgressThrottle(interval: 1.0 / 30, clock: { now.withLock { $0 } })
        var shown: [Double] = []
        for k in 0...1000 {   // every 1%… of ten loads, one per millisecond
            now.withLock { $0 = Double(k) / 1000 }
            let f = Double(k % 101) / 100
            if throttle.admits(f) { shown.append(f) }
        }
        XCTAssertLessThanOrEqual(shown.count, 31 + 10, "30 a second plus each load's end")
        XCTAssertGreaterThan(shown.count, 25)
        XCTAssertEqual(shown.filter { $0 == 1 }.count, 9, "every completion passes")
    }

    func testAHeldBackStreamCountIsGivenLater() {
        let now = Mutex<Double>(0)
        let throttle = ProgressThrottle(interval: 1, clock: { now.withLock { $0 } })
        XCTAssertTrue(throttle.admits(bytes: 1_000))
        XCTAssertFalse(throttle.admits(bytes: 2_000))
        XCTAssertFalse(throttle.admits(bytes: 2_500))
        XCTAssertEqual(throttle.takeHeldBytes(), 2_500)
        XCTAssertNil(throttle.takeHeldBytes())
        now.withLock { $0 = 5 }
        XCTAssertTrue(throttle.admits(bytes: 3_000))
        XCTAssertNil(throttle.takeHeldBytes())
    }
}
