import CCairo
@testable import MapRender
import XCTest

/// The base map's own line drawing: hairlines and wide lines land where cairo would draw them,
/// at scale 1 and 2, inside a translated tile, and fall back to cairo on other surfaces.
final class PathStrokerTests: XCTestCase {
    /// Ink (alpha summed) down one pixel column.
    func ink(_ image: ImageSurface, x: Int) -> Double {
        cairo_surface_flush(image.surface)
        let stride = Int(cairo_image_surface_get_stride(image.surface))
        let data = cairo_image_surface_get_data(image.surface)!
        var sum = 0.0
        for y in 0..<image.pixelHeight {
            let p = UnsafeRawPointer(data + y * stride + 4 * x).load(as: UInt32.self)
            sum += Double(p >> 24) / 255
        }
        return sum
    }

    func draw(scale: Double, lineWidth: Double) -> ImageSurface {
        let image = ImageSurface(width: 40, height: 20, scale: scale)
        image.withContext { cr in
            cairo_move_to(cr, 6, 10.5)
            cairo_line_to(cr, 34, 10.5)
            PathStroker().stroke(cr, width: 40, height: 20, color: MapColor(hex: 0x000000), lineWidth: lineWidth)
        }
        return image
    }

    func testLinesCoverTheirWidthAtEveryScale() {
        for scale in [1.0, 2.0] {
            for width in [0.5, 0.8, 1.2, 2.5] {
                let image = draw(scale: scale, lineWidth: width)
                let middle = Int(20 * scale)
                XCTAssertEqual(ink(image, x: middle), width * scale, accuracy: 0.15 * scale, "scale \(scale), width \(width)")
                XCTAssertEqual(ink(image, x: 0), 0, accuracy: 0.01, "nothing before the line starts")
            }
        }
    }

    /// Total ink of an image.
    func totalInk(_ image: ImageSurface) -> Double {
        (0..<image.pixelWidth).reduce(0) { $0 + ink(image, x: $1) }
    }

    /// A zigzag coast, drawn by the stroker and by cairo's own stroker: the same amount of ink in
    /// the same places (antialiasing differs a little pixel by pixel).
    func testAZigzagMatchesCairosStroke() {
        for scale in [1.0, 2.0] {
            for width in [0.7, 1.4] {
                func path(_ cr: OpaquePointer) {
                    cairo_move_to(cr, 3, 30)
                    for i in 1...20 { cairo_line_to(cr, 3 + Double(i) * 4.7, i % 2 == 0 ? 30 : 12 + Double(i)) }
                    cairo_line_to(cr, 90, 50)
                    cairo_close_path(cr)
                }
                let ours = ImageSurface(width: 100, height: 60, scale: scale)
                ours.withContext { cr in path(cr); PathStroker().stroke(cr, width: 100, height: 60, color: MapColor(hex: 0), lineWidth: width) }
                let cairo = ImageSurface(width: 100, height: 60, scale: scale)
                cairo.withContext { cr in
                    path(cr)
                    cairo_set_line_width(cr, width)
                    cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER)
                    cairo_set_miter_limit(cr, 2)
                    cairo_stroke(cr)
                }
                let a = totalInk(ours), b = totalInk(cairo)
                XCTAssertEqual(a, b, accuracy: b * 0.12, "scale \(scale), width \(width)")
                // Column by column the ink stays close (no line drawn in the wrong place).
                for x in stride(from: 0, to: ours.pixelWidth, by: 3) {
                    XCTAssertEqual(ink(ours, x: x), ink(cairo, x: x), accuracy: max(1.2, 0.35 * ink(cairo, x: x)) * scale,
                                   "column \(x), scale \(scale), width \(width)")
                }
            }
        }
    }

    /// A base-map tile is drawn with its origin moved: the line lands at the same world place.
    func testATranslatedTileContextDrawsInPlace() {
        let image = ImageSurface(width: 40, height: 20, scale: 1)
        image.withContext { cr in
            cairo_translate(cr, 10, 0)
            cairo_move_to(cr, 0, 10.5)
            cairo_line_to(cr, 5, 10.5)
            PathStroker().stroke(cr, width: 30, height: 20, color: MapColor(hex: 0), lineWidth: 1)
        }
        XCTAssertEqual(ink(image, x: 12), 1, accuracy: 0.05)
        XCTAssertEqual(ink(image, x: 8), 0, accuracy: 0.01)
        XCTAssertEqual(ink(image, x: 16), 0, accuracy: 0.01)
    }

    /// Not an image surface (a recording): cairo strokes, as before.
    func testOtherSurfacesFallBackToCairo() {
        let recording = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, nil)!
        defer { cairo_surface_destroy(recording) }
        let cr = cairo_create(recording)!
        defer { cairo_destroy(cr) }
        cairo_move_to(cr, 0, 0)
        cairo_line_to(cr, 10, 10)
        PathStroker().stroke(cr, width: 20, height: 20, color: MapColor(hex: 0), lineWidth: 1)
        var x = 0.0, y = 0.0, w = 0.0, h = 0.0
        cairo_recording_surface_ink_extents(recording, &x, &y, &w, &h)
        XCTAssertGreaterThan(w, 9, "cairo drew the line")
    }
}
