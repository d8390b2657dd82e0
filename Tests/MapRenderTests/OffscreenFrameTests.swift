import CCairo
@testable import MapRender
import XCTest

/// A frame drawn through `OffscreenFrame` into a recording surface (what GTK 4 hands a drawing
/// area) replays to exactly the pixels of the same drawing made straight into an image, and a
/// recording of the last frame keeps its pixels while the next frame is drawn.
final class OffscreenFrameTests: XCTestCase {
    private func paint(_ cr: OpaquePointer, shade: Double) {
        cairo_set_source_rgb(cr, shade, 0.8, 0.7)
        cairo_paint(cr)
        cairo_set_source_rgba(cr, 0.1, 0.2, 0.9, 0.6)
        cairo_arc(cr, 50.5, 30, 17.3, 0, 2 * .pi)
        cairo_fill(cr)
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_set_line_width(cr, 1.5)
        cairo_move_to(cr, 3, 3)
        cairo_line_to(cr, 97, 57)
        cairo_stroke(cr)
    }

    /// Replays `recording` onto a fresh image of the frame's size.
    private func replay(_ recording: OpaquePointer, scale: Double) -> ImageSurface {
        let out = ImageSurface(width: 100, height: 60, scale: scale)
        out.withContext { cr in
            cairo_set_source_surface(cr, recording, 0, 0)
            cairo_paint(cr)
        }
        return out
    }

    private func bytes(_ image: ImageSurface) -> [UInt8] {
        cairo_surface_flush(image.surface)
        let n = Int(cairo_image_surface_get_stride(image.surface)) * image.pixelHeight
        return Array(UnsafeBufferPointer(start: cairo_image_surface_get_data(image.surface), count: n))
    }

    func testARecordedFrameReplaysToTheDirectPixelsAndKeepsThemWhileTheNextIsDrawn() {
        for scale in [1.0, 2.0] {
            let frames = OffscreenFrame()
            var extents = cairo_rectangle_t(x: 0, y: 0, width: 100, height: 60)
            let first = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &extents)!
            let cr1 = cairo_create(first)!
            frames.draw(into: cr1, width: 100, height: 60, scale: scale) { paint($0, shade: 0.9) }
            cairo_destroy(cr1)
            let direct = ImageSurface(width: 100, height: 60, scale: scale)
            direct.withContext { paint($0, shade: 0.9) }
            XCTAssertEqual(bytes(replay(first, scale: scale)), bytes(direct), "scale \(scale)")
            // The next frame (other pixels) drawn while the first recording is still held.
            let second = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &extents)!
            let cr2 = cairo_create(second)!
            frames.draw(into: cr2, width: 100, height: 60, scale: scale) { paint($0, shade: 0.2) }
            cairo_destroy(cr2)
            XCTAssertEqual(bytes(replay(first, scale: scale)), bytes(direct), "the held frame kept its pixels")
            let direct2 = ImageSurface(width: 100, height: 60, scale: scale)
            direct2.withContext { paint($0, shade: 0.2) }
            XCTAssertEqual(bytes(replay(second, scale: scale)), bytes(direct2))
            cairo_surface_destroy(first)
            cairo_surface_destroy(second)
        }
    }
}
