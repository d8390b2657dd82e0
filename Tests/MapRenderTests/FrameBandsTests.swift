import CCairo
import ClusterCore
import CSpriteBlend
import Foundation
@testable import MapRender
import XCTest

/// `csb_frame` (tile copies and sprites band by band on two threads) gives the bytes of the copies
/// followed by the sprites, however the helper's timing falls: done with every copy before the
/// sprites come, still on a band when they do, starting late, or never.
final class FrameBandsTests: XCTestCase {
    func testEveryHelperTimingGivesTheSameBytes() {
        var rng = SeededRandom(seed: 77)
        // An opaque RGB24 "tile" and two copies of it (one shifted, one magnified 1.5×).
        let tile = ImageSurface(pixelWidth: 64, pixelHeight: 64, scale: 1)
        cairo_surface_flush(tile.surface)
        let tileData = UnsafeMutableRawPointer(cairo_image_surface_get_data(tile.surface)!).bindMemory(to: UInt32.self, capacity: 64 * 64)
        for k in 0..<(64 * 64) { tileData[k] = UInt32(truncatingIfNeeded: rng.next()) | 0xFF00_0000 }
        let w = 150, h = 130, stride = 150
        var blits = [
            csb_nearest_blit(pixels: tileData, stride: 64, width: 64, height: 64, scale_x: 1, offset_x: -3, scale_y: 1, offset_y: -5,
                             x0: 3, y0: 5, x1: 67, y1: 69),
            csb_nearest_blit(pixels: tileData, stride: 64, width: 64, height: 64, scale_x: 1 / 1.5, offset_x: -40 / 1.5,
                             scale_y: 1 / 1.5, offset_y: -30 / 1.5, x0: 40, y0: 30, x1: 136, y1: 126),
        ]
        let sprites = (0..<6).map { n in
            Sprite(width: 18 + Double(n) * 5, height: 12 + Double(n) * 3, anchorX: 2, anchorY: 2, scale: 1) { cr in
                cairo_arc(cr, 9, 6, 5 + Double(n), 0, 2 * .pi)
                cairo_set_source_rgba(cr, 0.8, Double(n) / 6, 0.3, 0.4 + Double(n) * 0.1)
                cairo_fill(cr)
            }
        }
        let items: [csb_item] = (0..<120).map { k in
            let r = sprites[k % sprites.count].runs
            return csb_item(pixels: r.pixels, row_start: r.rowStart, runs: r.runs, stride: r.stride, width: r.width,
                            height: r.height, x: Int(rng.next() % 170) - 10, y: Int(rng.next() % 150) - 10, alpha: 255)
        }
        let background = (0..<(stride * h)).map { _ in UInt32(truncatingIfNeeded: rng.next()) }
        let target = { (p: UnsafeMutablePointer<UInt32>) in
            csb_target(data: p, stride: stride, origin_x: 0, origin_y: 0, clip_x0: 0, clip_y0: 2, clip_x1: w, clip_y1: h - 3)
        }
        // Expected: the copies, then the sprites, on one thread.
        var expected = background
        expected.withUnsafeMutableBufferPointer { b in
            for i in blits.indices { csb_blit_nearest(&blits[i], b.baseAddress!, stride, 0, h) }
            withUnsafePointer(to: target(b.baseAddress!)) { csb_composite(items, items.count, $0, 2, h - 3, 7, Int32(CSB_KERNEL_PORTABLE)) }
        }
        let columns = blits.map { b -> UnsafeMutablePointer<Int32> in .allocate(capacity: b.x1 - b.x0) }
        var straight = [Bool](repeating: false, count: blits.count)
        for i in blits.indices { straight[i] = csb_nearest_columns(&blits[i], columns[i]) }
        let columnList = columns.map { UnsafePointer($0) as UnsafePointer<Int32>? }
        defer { columns.forEach { $0.deallocate() } }
        // (helper starts after µs, helper patience ms, sprites published after µs)
        let timings: [(start: Int, patience: Double, publish: Int)] = [
            (0, 50, 20_000),   // every copy made before the sprites come
            (0, 50, 0),        // the sprites at once: both threads share everything
            (3_000, 50, 0),    // the helper starts once the drawing thread is nearly done
            (0, 0.0, 5_000),   // the helper gives up waiting for the sprites
            (-1, 0, 0),        // no helper at all
        ]
        for (n, timing) in timings.enumerated() {
            for bandRows in [1, 7, 64] {
                var image = background
                blits.withUnsafeBufferPointer { bl in
                    columnList.withUnsafeBufferPointer { cl in
                        straight.withUnsafeBufferPointer { st in
                            image.withUnsafeMutableBufferPointer { img in
                                let bands = (h + bandRows - 1) / bandRows
                                let frame = UnsafeMutablePointer<csb_frame>.allocate(capacity: 1)
                                defer { frame.deallocate() }
                                frame.initialize(to: csb_frame(blits: bl.baseAddress, columns: cl.baseAddress, straight: st.baseAddress,
                                                               blit_count: bl.count, pixels: img.baseAddress, stride: stride, row0: 0,
                                                               row1: h, band_rows: bandRows, band_count: UInt32(bands),
                                                               early: csb_bands(UInt32(bands)), bands: 0, based_done: 0, based_from: 0,
                                                               published: 0, items: nil, count: 0, target: target(img.baseAddress!),
                                                               kernel: 0))
                                let shared = Unchecked((frame, timing))
                                let helperDone = DispatchSemaphore(value: 0)
                                if timing.start >= 0 {
                                    Thread.detachNewThread {
                                        let (f, t) = shared.value
                                        usleep(UInt32(t.start))
                                        _ = csb_frame_helper(f, t.patience)
                                        helperDone.signal()
                                    }
                                } else {
                                    helperDone.signal()
                                }
                                usleep(UInt32(timing.publish))
                                withUnsafePointer(to: target(img.baseAddress!)) {
                                    csb_frame_finish(frame, items, items.count, $0, Int32(CSB_KERNEL_PORTABLE))
                                }
                                helperDone.wait()
                            }
                        }
                    }
                }
                let first = image.indices.first { image[$0] != expected[$0] }
                XCTAssertNil(first, "timing \(n), bands of \(bandRows): first differing pixel \(first ?? 0)")
            }
        }
        withExtendedLifetime((tile, sprites)) {}
    }
}

/// Values handed to another thread (the test keeps them alive and orders the accesses).
private struct Unchecked<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
