import CCairo
import Foundation
import MapRender
@testable import Tiles
import GoldenSupport
import XCTest

final class TileImageDrawingTests: XCTestCase {
    /// A 256-px tile with four coloured quadrants.
    private func quadrants(scale: Double = 1) -> ImageSurface {
        let image = ImageSurface(width: 256, height: 256, scale: scale)
        image.withContext { cr in
            for (i, hex) in [0xFF0000, 0x00FF00, 0x0000FF, 0xFFFF00].enumerated() {
                MapColor(hex: UInt32(hex)).setSource(on: cr)
                cairo_rectangle(cr, Double(i % 2) * 128, Double(i / 2) * 128, 128, 128)
                cairo_fill(cr)
            }
        }
        return image
    }

    private func rgb(_ image: ImageSurface, _ x: Int, _ y: Int) -> UInt32 {
        let p = image.pixel(x: x, y: y)
        return UInt32(p.r) << 16 | UInt32(p.g) << 8 | UInt32(p.b)
    }

    func testDrawsTheWholeTileScaledIntoItsSquare() {
        let frame = ImageSurface(width: 600, height: 600, opaque: true)
        frame.withContext { cr in
            TileImageDrawing.draw(quadrants(), x: 50, y: 40, size: 512, in: cr)
        }
        XCTAssertEqual(rgb(frame, 60, 50), 0xFF0000)
        XCTAssertEqual(rgb(frame, 550, 50), 0x00FF00)
        XCTAssertEqual(rgb(frame, 60, 540), 0x0000FF)
        XCTAssertEqual(rgb(frame, 550, 540), 0xFFFF00)
        XCTAssertEqual(rgb(frame, 570, 300), 0x000000, "nothing drawn outside the square")
        XCTAssertEqual(rgb(frame, 300, 20), 0x000000)
    }

    func testAStandInParentShowsOnlyItsSubRectangle() {
        // The child NE of the parent: only the green quadrant, scaled to fill the child's square.
        let frame = ImageSurface(width: 256, height: 256, opaque: true)
        let child = TileID(z: 3, x: 5, y: 2)
        let rect = child.rect(in: child.parent!)!
        frame.withContext { cr in
            TileImageDrawing.draw(quadrants(), sourceRect: rect, x: 0, y: 0, size: 256, in: cr)
        }
        for (x, y) in [(2, 2), (128, 128), (253, 253)] { XCTAssertEqual(rgb(frame, x, y), 0x00FF00, "\(x),\(y)") }
    }

    func testHiDPIImagesAndFadeAndDim() {
        let frame = ImageSurface(width: 256, height: 256, scale: 2, opaque: true)
        frame.withContext { cr in
            TileImageDrawing.draw(quadrants(scale: 2), x: 0, y: 0, size: 256, in: cr)
        }
        XCTAssertEqual(rgb(frame, 500, 500), 0xFFFF00, "device pixels cover the whole frame")
        let faded = ImageSurface(width: 100, height: 100, opaque: true)
        faded.withContext { cr in
            TileImageDrawing.draw(quadrants(), x: 0, y: 0, size: 100, opacity: 0.5, in: cr)
        }
        XCTAssertEqual(Int(faded.pixel(x: 10, y: 10).r), 128, accuracy: 2)
        let dimmed = ImageSurface(width: 100, height: 100, opaque: true)
        dimmed.withContext { cr in
            TileImageDrawing.draw(quadrants(), x: 0, y: 0, size: 100, dimmed: 0.25, in: cr)
        }
        XCTAssertEqual(Int(dimmed.pixel(x: 10, y: 10).r), 191, accuracy: 2)
    }

    func testNeighbouringTilesAtFractionalPositionsLeaveNoSeam() {
        let frame = ImageSurface(width: 400, height: 100, opaque: true)
        let white = ImageSurface(width: 64, height: 64)
        white.withContext { cr in cairo_set_source_rgb(cr, 1, 1, 1); cairo_paint(cr) }
        frame.withContext { cr in
            let size = 77.3
            for i in 0..<5 { TileImageDrawing.draw(white, x: 3.4 + Double(i) * size, y: 0, size: size, in: cr) }
        }
        for x in 4..<385 { XCTAssertEqual(rgb(frame, x, 50), 0xFFFFFF, "seam at \(x)") }
    }

    func testAtRestAFractionalZoomResamplesOnceAndLooksTheSame() {
        let tile = quadrants()
        let direct = ImageSurface(width: 400, height: 400, opaque: true)
        direct.withContext { cr in TileImageDrawing.draw(tile, x: 10, y: 20, size: 345.6, in: cr) }
        let cache = TileResampleCache()
        let cached = ImageSurface(width: 400, height: 400, opaque: true)
        for dx in [0.0, 0.3, 0.6] {
            // Panning by fractions of a pixel keeps the size, so the copy is made once.
            cached.withContext { cr in
                cairo_set_source_rgb(cr, 0, 0, 0)
                cairo_paint(cr)
                TileImageDrawing.draw(tile, x: 10 + dx, y: 20, size: 345.6, resampled: cache, in: cr)
            }
            cache.endFrame()
            XCTAssertEqual(cache.count, 1)
        }
        let diff = PixelDiff.compare(direct, cached, channelTolerance: 40)
        XCTAssertLessThan(diff.differingFraction, 0.01, "the resampled copy looks like the tile scaled directly")
        for (x, y, hex) in [(15, 25, 0xFF0000), (350, 25, 0x00FF00), (15, 360, 0x0000FF), (350, 360, 0xFFFF00)] {
            XCTAssertEqual(rgb(cached, x, y), UInt32(hex), "\(x),\(y)")
        }
        // A frame that doesn't draw the tile drops its copy; a new size makes a new one.
        cache.endFrame()
        XCTAssertEqual(cache.count, 0)
        cached.withContext { cr in TileImageDrawing.draw(tile, x: 0, y: 0, size: 300.2, resampled: cache, in: cr) }
        XCTAssertEqual(cache.count, 1)
        XCTAssertEqual(rgb(cached, 290, 290), 0xFFFF00)
    }

    func testResampledNeighboursLeaveNoSeam() {
        let frame = ImageSurface(width: 400, height: 100, opaque: true)
        let white = ImageSurface(width: 64, height: 64)
        white.withContext { cr in cairo_set_source_rgb(cr, 1, 1, 1); cairo_paint(cr) }
        let cache = TileResampleCache()
        frame.withContext { cr in
            let size = 77.3
            for i in 0..<5 { TileImageDrawing.draw(white, x: 3.4 + Double(i) * size, y: 0, size: size, resampled: cache, in: cr) }
        }
        for x in 4..<385 { XCTAssertEqual(rgb(frame, x, 50), 0xFFFFFF, "seam at \(x)") }
    }

    func testInMotionOnlyTheBudgetOfNewCopiesIsMadeAFrame() {
        let tiles = (0..<3).map { _ in quadrants() }
        let cache = TileResampleCache()
        let frame = ImageSurface(width: 400, height: 200, opaque: true)
        for n in 1...4 {
            cache.newCopiesLeft = 1  // as TileMapLayer sets it for each frame in motion
            frame.withContext { cr in
                cairo_set_source_rgb(cr, 0, 0, 0)
                cairo_paint(cr)
                for (i, t) in tiles.enumerated() {
                    TileImageDrawing.draw(t, x: Double(i) * 130, y: 0, size: 123.4, resampled: cache, smoothWithoutCopy: false, in: cr)
                }
            }
            cache.endFrame()
            // One more copy a frame; the tiles without one are still drawn (scaled directly).
            XCTAssertEqual(cache.count, min(n, 3), "frame \(n)")
            for i in 0..<3 { XCTAssertEqual(rgb(frame, i * 130 + 5, 5), 0xFF0000, "frame \(n), tile \(i)") }
        }
        // No budget (at rest): every tile gets its copy in the frame.
        let rest = TileResampleCache()
        frame.withContext { cr in
            for (i, t) in tiles.enumerated() { TileImageDrawing.draw(t, x: Double(i) * 130, y: 0, size: 111.1, resampled: rest, in: cr) }
        }
        XCTAssertEqual(rest.count, 3)
    }
}
