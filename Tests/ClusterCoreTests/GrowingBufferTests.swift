import XCTest
@testable import ClusterCore

/// The sweeps' growable buffers: small ones are allocations, big ones mapped pages that grow
/// without a copy (`cis_remap`); either way the elements survive every doubling.
final class GrowingBufferTests: XCTestCase {
    /// From 16 elements past `mappedBytes` by appends: through allocations, the move into mapped
    /// pages and remapped doublings.
    func testAppendsKeepTheirValuesThroughEveryKindOfGrowth() {
        var buffer = GrowingBuffer<UInt64>(capacity: 16)
        defer { buffer.deallocate() }
        XCTAssertFalse(buffer.mapped)
        let n = 3 * GrowingBuffer<UInt64>.mappedBytes / 8 + 5
        for i in 0..<n { buffer.append(UInt64(i) &* 0x9E37_79B9_7F4A_7C15) }
        XCTAssertEqual(buffer.count, n)
        XCTAssertGreaterThanOrEqual(buffer.capacity, n)
        #if os(Linux)
        XCTAssertTrue(buffer.mapped, "big buffers are mapped pages")
        #endif
        for i in 0..<n where buffer.base[i] != UInt64(i) &* 0x9E37_79B9_7F4A_7C15 {
            return XCTFail("element \(i) lost")
        }
    }

    /// Mapped from the start, filled by a kernel as the sweeps do, grown between fills.
    func testAMappedBufferGrowsBetweenFills() {
        let start = GrowingBuffer<UInt8>.mappedBytes + 100
        var buffer = GrowingBuffer<UInt8>(capacity: start)
        defer { buffer.deallocate() }
        #if os(Linux)
        XCTAssertTrue(buffer.mapped)
        #endif
        var written = 0
        for round in 0..<3 {
            buffer.fill { base, capacity, count in
                for k in count..<capacity { base[k] = UInt8(truncatingIfNeeded: k &+ round) }
                return capacity
            }
            written = buffer.count
            if round < 2 { buffer.grow() }
        }
        XCTAssertEqual(written, buffer.capacity)
        XCTAssertEqual(buffer.capacity, 4 * start)
        // Each element was written in the round that first reached it.
        for k in 0..<buffer.count {
            let round = k < start ? 0 : k < 2 * start ? 1 : 2
            if buffer.base[k] != UInt8(truncatingIfNeeded: k &+ round) { return XCTFail("element \(k) lost") }
        }
        XCTAssertEqual(buffer.array.count, buffer.count)
    }
}
