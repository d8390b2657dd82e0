import CCairo
import ClusterCore
import GeoData
import MapModel
@testable import MapRender
import GoldenSupport
import XCTest

/// Long rings (a continent's 1:10m coast) are painted chunk by chunk, skipping the chunks that
/// miss the window: the pixels must be those of painting every vertex.
final class BaseMapChunkTests: XCTestCase {
    /// The 1:10m land and coast as loaded, without chunk boxes.
    static let rawLand = try! BaseMap.loadLayer(
        BaseMapLocation.basemapFolder(in: TestMaps.dataDirectory).appendingPathComponent(BaseMap.fileName(layer: "land", level: .fine)),
        kind: .polygons)
    static let rawCoast = try! BaseMap.loadLayer(
        BaseMapLocation.basemapFolder(in: TestMaps.dataDirectory).appendingPathComponent(BaseMap.fileName(layer: "coastline", level: .fine)),
        kind: .lines)

    func paint(_ layer: BaseMapLayer, _ cam: Camera) -> ImageSurface {
        let image = ImageSurface(width: Int(cam.viewportSize.width), height: Int(cam.viewportSize.height))
        let c = cam.centerWorldPixel
        let painter = BaseMapPainter(originX: c.x - cam.viewportSize.width / 2, originY: c.y - cam.viewportSize.height / 2,
                                     width: cam.viewportSize.width, height: cam.viewportSize.height,
                                     worldSize: cam.worldSize, deviceScale: 1)
        image.withContext { cr in
            cairo_set_source_rgb(cr, 1, 1, 1)
            cairo_paint(cr)
            cairo_set_source_rgb(cr, 0, 0, 0)
            cairo_set_line_width(cr, 1)
            cairo_new_path(cr)
            if painter.appendPath(of: layer, margin: 2, into: cr) {
                if layer.kind == .polygons { cairo_fill(cr) } else { cairo_stroke(cr) }
            }
        }
        return image
    }

    func testChunkedPaintingMatchesPaintingEveryVertex() {
        XCTAssertTrue(Self.rawLand.chunkBounds.isEmpty)
        let land = Self.rawLand.indexingChunks(), coast = Self.rawCoast.indexingChunks()
        XCTAssertGreaterThan(land.chunkBounds.count, 5000)
        let size = ScreenSize(width: 400, height: 300)
        let views: [(Double, Double, Double)] = [
            (40, -4, 6), (38.7, -9.2, 10), (60, 90, 9),  // deep inside Siberia: the land surrounds the window
            (-17, 179.9, 7), (20, 0, 2), (51.5, 0, 12),
        ]
        for (lat, lon, zoom) in views {
            let cam = Camera(center: GeoCoordinate(latitude: lat, longitude: lon), zoom: zoom, viewportSize: size)
            for (raw, chunked) in [(Self.rawLand, land), (Self.rawCoast, coast)] {
                let diff = PixelDiff.compare(paint(chunked, cam), paint(raw, cam), channelTolerance: 8)
                XCTAssertEqual(diff.differingPixels, 0, "\(raw.kind) at \(lat),\(lon) z\(zoom): max delta \(diff.maxChannelDelta)")
            }
        }
        // Inside Siberia the window is all land.
        let siberia = paint(land, Camera(center: GeoCoordinate(latitude: 60, longitude: 90), zoom: 9, viewportSize: size))
        XCTAssertEqual(siberia.pixel(x: 200, y: 150).r, 0)
    }
}
