import CCairo
import Foundation
@testable import MapRender
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
}
