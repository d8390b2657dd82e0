import XCTest
import ClusterCore
@testable import MapModel

/// Shared helpers for the motion and gesture tests.
enum Fixture {
    static let viewport = ScreenSize(width: 1024, height: 768)

    static func camera(lat: Double = 0, lon: Double = 0, zoom: Double) -> Camera {
        Camera(center: GeoCoordinate(latitude: lat, longitude: lon), zoom: zoom, viewportSize: viewport)
    }

    static func context(_ camera: Camera, now: Double = 0, interrupted: CameraAnimation? = nil) -> GestureContext {
        GestureContext(camera: camera, now: now, interrupted: interrupted)
    }
}

/// Asserts that `coordinate` is drawn at `point` by `camera`.
func assertScreen(_ camera: Camera, shows coordinate: GeoCoordinate, at point: ScreenPoint,
                  accuracy: Double = 1e-6, file: StaticString = #filePath, line: UInt = #line) {
    let p = camera.screenPoint(for: coordinate)
    XCTAssertEqual(p.x, point.x, accuracy: accuracy, "x", file: file, line: line)
    XCTAssertEqual(p.y, point.y, accuracy: accuracy, "y", file: file, line: line)
}

/// The camera a change leads to once any animation has run to its end.
func finalCamera(of change: CameraChange, from camera: Camera) -> Camera {
    switch change {
    case .none: return camera
    case .set(let c): return c
    case .animate(let a): return a.camera(at: a.startTime + a.duration)
    }
}
