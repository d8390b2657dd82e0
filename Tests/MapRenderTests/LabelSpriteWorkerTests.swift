import CCairo
import MapModel
@testable import MapRender
import XCTest

/// Base-map labels in motion: names whose sprites are not made yet are left out of the frame and
/// made on a background thread; once made they draw exactly as sprites made at rest.
final class LabelSpriteWorkerTests: XCTestCase {
    private func scene() -> Scene {
        var s = Scene()
        let names = ["Lisboa", "Porto", "Madrid", "Sevilla", "Valencia", "Bilbao", "Zaragoza", "Málaga"]
        for (i, name) in names.enumerated() {
            let x = Double(i % 4) * 70 + 10, y = Double(i / 4) * 50 + 20
            s.labels.append(SceneLabel(id: i, text: name, kind: i % 3 == 0 ? .capital : .city,
                                       frame: ScreenRect(x: x, y: y, width: 50, height: 14),
                                       dot: ScreenPoint(x: x - 6, y: y + 7), alpha: 1))
        }
        s.labels.append(SceneLabel(id: 99, text: "Tejo", kind: .river, frame: ScreenRect(x: 40, y: 100, width: 30, height: 12),
                                   dot: nil, alpha: 0.8, angle: 0.3))
        return s
    }

    private func draw(_ scene: Scene, with renderer: SceneRenderer, isAnimating: Bool, scale: Double) -> ImageSurface {
        let image = ImageSurface(width: 300, height: 140, scale: scale)
        image.withContext { cr in
            cairo_set_source_rgb(cr, 0.93, 0.91, 0.86)
            cairo_paint(cr)
            renderer.draw(scene, in: cr, palette: .light, isAnimating: isAnimating)
        }
        return image
    }

    private func samePixels(_ a: ImageSurface, _ b: ImageSurface) -> Bool {
        cairo_surface_flush(a.surface)
        cairo_surface_flush(b.surface)
        let stride = Int(cairo_image_surface_get_stride(a.surface))
        guard stride == Int(cairo_image_surface_get_stride(b.surface)), a.pixelHeight == b.pixelHeight,
              let pa = cairo_image_surface_get_data(a.surface), let pb = cairo_image_surface_get_data(b.surface) else { return false }
        return memcmp(pa, pb, stride * a.pixelHeight) == 0
    }

    func testLabelsInMotionWaitForTheWorkerThenDrawAsAtRest() {
        for scale in [1.0, 2.0] {
            let s = scene()
            let atRest = draw(s, with: SceneRenderer(), isAnimating: false, scale: scale)
            let moving = SceneRenderer()
            let empty = Scene()
            let bare = draw(empty, with: SceneRenderer(), isAnimating: false, scale: scale)
            // The first frame in motion has none of the names: all are left to the worker.
            let first = draw(s, with: moving, isAnimating: true, scale: scale)
            XCTAssertEqual(moving.labelRenderer.deferredCount, s.labels.count)
            XCTAssertTrue(samePixels(first, bare), "no label drawn before its sprite is made")
            XCTAssertEqual(moving.labelRenderer.madeSpriteCount, 0, "nothing made on the drawing thread in motion")
            // Frames keep coming while the worker makes them; then every name is there, identical.
            var last = first
            let deadline = Date().addingTimeInterval(20)
            repeat {
                Thread.sleep(forTimeInterval: 0.01)
                last = draw(s, with: moving, isAnimating: true, scale: scale)
            } while moving.labelRenderer.deferredCount > 0 && Date() < deadline
            XCTAssertEqual(moving.labelRenderer.deferredCount, 0)
            XCTAssertEqual(moving.labelRenderer.backgroundSpriteCount, s.labels.count)
            XCTAssertTrue(samePixels(last, atRest), "sprites made by the worker equal those made at rest (scale \(scale))")
        }
    }

    func testAtRestEveryLabelIsDrawnAtOnce() {
        let s = scene()
        let renderer = SceneRenderer()
        let image = draw(s, with: renderer, isAnimating: false, scale: 1)
        XCTAssertEqual(renderer.labelRenderer.deferredCount, 0)
        XCTAssertEqual(renderer.labelRenderer.backgroundSpriteCount, 0)
        XCTAssertFalse(samePixels(image, draw(Scene(), with: SceneRenderer(), isAnimating: false, scale: 1)))
    }
}
