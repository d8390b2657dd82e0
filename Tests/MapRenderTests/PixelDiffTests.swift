import CCairo
import Foundation
@testable import MapRender
import GoldenSupport
import XCTest

final class PixelDiffTests: XCTestCase {
    private func filled(_ r: Double, _ g: Double, _ b: Double) -> ImageSurface {
        let image = ImageSurface(width: 20, height: 10)
        image.withContext { cr in cairo_set_source_rgb(cr, r, g, b); cairo_paint(cr) }
        return image
    }

    func testIdenticalAndDifferent() {
        let a = filled(0.2, 0.4, 0.6), b = filled(0.2, 0.4, 0.6)
        XCTAssertEqual(PixelDiff.compare(a, b).differingPixels, 0)
        b.withContext { cr in cairo_set_source_rgb(cr, 1, 0, 0); cairo_rectangle(cr, 0, 0, 2, 10); cairo_fill(cr) }
        let d = PixelDiff.compare(a, b)
        XCTAssertEqual(d.differingPixels, 20)
        XCTAssertEqual(d.differingFraction, 0.1, accuracy: 1e-9)
        XCTAssertEqual(PixelDiff.compare(a, ImageSurface(width: 5, height: 5)).sizesMatch, false)
    }

    func testToleranceAndDiffImage() throws {
        let a = filled(0.5, 0.5, 0.5), b = filled(0.52, 0.5, 0.5)   // ~5 levels apart
        XCTAssertEqual(PixelDiff.compare(a, b, channelTolerance: 8).differingPixels, 0)
        XCTAssertEqual(PixelDiff.compare(a, b, channelTolerance: 2).differingPixels, 200)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pixeldiff-\(getpid()).png")
        defer { try? FileManager.default.removeItem(at: url) }
        _ = PixelDiff.compare(a, b, channelTolerance: 2, diffImage: url)
        let diff = try ImageSurface.load(png: url)
        XCTAssertEqual(diff.pixelWidth, 20)
        XCTAssertEqual(diff.pixel(x: 3, y: 3).r, 255)
        XCTAssertEqual(diff.pixel(x: 3, y: 3).g, 0)
    }

    func testPNGRoundTrip() throws {
        let a = filled(0.1, 0.7, 0.3)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("roundtrip-\(getpid()).png")
        defer { try? FileManager.default.removeItem(at: url) }
        try a.writePNG(to: url)
        XCTAssertEqual(PixelDiff.compare(a, try ImageSurface.load(png: url)).differingPixels, 0)
    }

    /// A missing small mark (a pin of ~100 pixels in a 1280×800 picture, 0.01 %) is far below the
    /// 0.2 % fraction but dense: the per-block count catches it (issue 15 item 10).
    func testAMissingSmallMarkIsADenseBlock() {
        let a = ImageSurface(width: 1280, height: 800), b = ImageSurface(width: 1280, height: 800)
        for img in [a, b] { img.withContext { cr in cairo_set_source_rgb(cr, 0.9, 0.9, 0.9); cairo_paint(cr) } }
        b.withContext { cr in
            cairo_set_source_rgb(cr, 0.1, 0.4, 0.9)
            cairo_arc(cr, 600, 400, 6, 0, 2 * Double.pi)
            cairo_fill(cr)
        }
        let d = PixelDiff.compare(a, b)
        XCTAssertLessThan(d.differingFraction, 0.002, "the fraction alone would pass")
        XCTAssertGreaterThan(d.maxDifferingInBlock, 48, "a dense spot")
        // Thin noise spread over the picture stays below the block limit.
        let c = ImageSurface(width: 1280, height: 800)
        c.withContext { cr in
            cairo_set_source_rgb(cr, 0.9, 0.9, 0.9); cairo_paint(cr)
            cairo_set_source_rgb(cr, 0, 0, 0)
            for k in 0..<400 { cairo_rectangle(cr, Double((k * 37) % 1280), Double((k * 53) % 800), 1, 1) }
            cairo_fill(cr)
        }
        XCTAssertLessThanOrEqual(PixelDiff.compare(a, c).maxDifferingInBlock, 4)
    }
}
