import CCairo
import ClusterCore
import CSpriteBlend
import Foundation
@testable import MapRender
import XCTest

/// Bands handed out to two threads (`csb_claim_band`, `csb_composite_claiming`) and jobs taken
/// back from a helper that has not started them (`BandHelper.Pending.waitOrWithdraw`).
final class SharedBandsTests: XCTestCase {
    /// Each band is claimed exactly once, by two threads claiming from both ends at once.
    func testEveryBandIsClaimedOnce() {
        for n in [0, 1, 2, 7, 64, 1000] as [UInt32] {
            let bands = SharedBands(count: Int(n))
            let claims = UnsafeMutablePointer<Int32>.allocate(capacity: Int(n) + 1)
            claims.initialize(repeating: 0, count: Int(n) + 1)
            defer { claims.deallocate() }
            let counts = UnsafeMutablePointer<Int>.allocate(capacity: 2)
            counts.initialize(repeating: 0, count: 2)
            defer { counts.deallocate() }
            let shared = Unchecked((bands.word, claims, counts))
            DispatchQueue.concurrentPerform(iterations: 2) { side in
                let (word, claims, counts) = shared.value
                while true {
                    let b = csb_claim_band(word, side == 1)
                    if b < 0 { break }
                    claims[b] += 1  // each index written by one thread only if claims are exclusive
                    counts[side] += 1
                }
            }
            XCTAssertEqual((0..<Int(n)).filter { claims[$0] != 1 }, [], "n \(n)")
            XCTAssertEqual(counts[0] + counts[1], Int(n))
            XCTAssertEqual(csb_claim_band(bands.word, false), -1)
            XCTAssertEqual(csb_claim_band(bands.word, true), -1)
        }
    }

    /// One thread claiming from the top takes the bands in order; from the bottom, in reverse.
    func testClaimOrder() {
        let bands = SharedBands(count: 5)
        XCTAssertEqual(csb_claim_band(bands.word, false), 0)
        XCTAssertEqual(csb_claim_band(bands.word, true), 4)
        XCTAssertEqual(csb_claim_band(bands.word, true), 3)
        XCTAssertEqual(csb_claim_band(bands.word, false), 1)
        XCTAssertEqual(csb_claim_band(bands.word, false), 2)
        XCTAssertEqual(csb_claim_band(bands.word, true), -1)
    }

    /// Sprites composited by two threads claiming bands give the bytes of one `csb_composite`,
    /// with every kernel, odd band sizes and a clip that doesn't start at row 0.
    func testClaimedBandsEqualOnePass() {
        var rng = SeededRandom(seed: 31)
        let sprites = (0..<12).map { n in
            Sprite(width: 20 + Double(n) * 6, height: 14 + Double(n) * 4, anchorX: 3, anchorY: 2, scale: 1) { cr in
                cairo_arc(cr, 10, 8, 6 + Double(n), 0, 2 * .pi)
                cairo_set_source_rgba(cr, Double(n) / 12, 0.5, 0.2, 0.25 + Double(n) * 0.06)
                cairo_fill(cr)
                cairo_rectangle(cr, 1, 1, 18, 5)
                cairo_set_source_rgba(cr, 0.1, 0.2, 0.1, 1)
                cairo_fill(cr)
            }
        }
        let runs = sprites.map { $0.runs }
        let w = 211, h = 173, stride = 217
        let background = (0..<(stride * h)).map { _ in UInt32(truncatingIfNeeded: rng.next()) | 0xFF00_0000 }
        let items: [csb_item] = (0..<300).map { k in
            let r = runs[k % runs.count]
            return csb_item(pixels: r.pixels, row_start: r.rowStart, runs: r.runs, stride: r.stride, width: r.width,
                            height: r.height, x: Int(rng.next() % 260) - 30, y: Int(rng.next() % 220) - 30,
                            alpha: k % 4 == 0 ? UInt32(1 + rng.next() % 254) : 255)
        }
        let kernels = [CSB_KERNEL_PORTABLE, CSB_KERNEL_AVX2, CSB_KERNEL_AVX512].map { Int32($0) }
        for kernel in kernels where csb_kernel_supported(kernel) {
            for bandRows in [1, 5, 16, 40, 200] {
                var expected = background, image = background
                let clipY0 = 3, clipY1 = h - 2
                func target(_ p: UnsafeMutablePointer<UInt32>) -> csb_target {
                    csb_target(data: p, stride: stride, origin_x: 2, origin_y: -1, clip_x0: 1, clip_y0: clipY0,
                               clip_x1: w - 1, clip_y1: clipY1)
                }
                expected.withUnsafeMutableBufferPointer { b in
                    withUnsafePointer(to: target(b.baseAddress!)) { t in
                        csb_composite(items, items.count, t, clipY0, clipY1, bandRows, kernel)
                    }
                }
                let count = (clipY1 - clipY0 + bandRows - 1) / bandRows
                let bands = SharedBands(count: count)
                let done = UnsafeMutablePointer<Int>.allocate(capacity: 2)
                done.initialize(repeating: 0, count: 2)
                defer { done.deallocate() }
                image.withUnsafeMutableBufferPointer { b in
                    let shared = Unchecked((target(b.baseAddress!), items, bands, done))
                    DispatchQueue.concurrentPerform(iterations: 2) { side in
                        let (t, items, bands, done) = shared.value
                        withUnsafePointer(to: t) { tp in
                            done[side] = csb_composite_claiming(items, items.count, tp, clipY0, clipY1, bandRows, kernel,
                                                                bands.word, side == 1)
                        }
                    }
                }
                XCTAssertEqual(done[0] + done[1], count, "kernel \(kernel), bands of \(bandRows)")
                let first = image.indices.first { image[$0] != expected[$0] }
                XCTAssertNil(first, "kernel \(kernel), bands of \(bandRows): first differing pixel \(first ?? 0)")
            }
        }
        withExtendedLifetime((sprites, runs)) {}
    }

    /// A job withdrawn before the helper took it never runs; one the helper took is waited for.
    /// Either can happen (it depends on how fast the helper wakes): the answer must match what
    /// happened, every time, and the helper must go on taking jobs afterwards.
    func testWithdrawnJobsNeverRun() {
        final class Flag: @unchecked Sendable {
            private let lock = NSLock()
            private var value = 0
            func bump() { lock.lock(); value += 1; lock.unlock() }
            var count: Int { lock.lock(); defer { lock.unlock() }; return value }
        }
        let helper = BandHelper.shared
        var ran = 0, withdrawn = 0
        for round in 0..<300 {
            // Sometimes the helper is polling (a frame is on), sometimes asleep.
            if round % 2 == 0 { helper.frameBegins() }
            let flag = Flag()
            let pending = helper.start { flag.bump() }
            if round % 3 == 0 { for _ in 0..<Int.random(in: 0..<2000) { _ = flag.count } }
            let didRun = pending.waitOrWithdraw()
            // Whatever was withdrawn must not run later either: run another job to the end.
            let after = Flag()
            helper.start { after.bump() }.wait()
            helper.frameEnds()
            XCTAssertEqual(after.count, 1)
            XCTAssertEqual(flag.count, didRun ? 1 : 0, "round \(round)")
            if didRun { ran += 1 } else { withdrawn += 1 }
        }
        XCTAssertEqual(ran + withdrawn, 300)
    }
}

/// Values handed to `concurrentPerform`'s threads (raw pointers the test keeps alive and whose
/// accesses it arranges not to overlap).
private struct Unchecked<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
