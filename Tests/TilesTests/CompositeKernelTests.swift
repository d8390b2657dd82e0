import CCairo
import CTileRaster
import Foundation
import MapRender
@testable import Tiles
import GoldenSupport
import XCTest

/// The tile rasteriser's compositing passes (coverage, and the hairline one the footpaths' dashes
/// use) have two copies in C (`CTileRaster`): AVX2 where the processor has it and a portable one
/// (x86-64's baseline). They must give identical pixels, so
/// that a tile looks the same on every machine: real dense tiles, light and dark (opaque and
/// translucent colours), at scale 1 and 2, whole and cut by the surface's border at a fractional
/// offset (the clipped paths of the kernel).
final class CompositeKernelTests: XCTestCase {
    private func paintings() throws -> [ImageSurface] {
        let leipzig = try MBTilesSource(path: Fixtures.path("leipzig-subset.mbtiles"))
        let florence = try PMTilesSource(path: Fixtures.path("firenze-subset.pmtiles"))
        var images: [ImageSurface] = []
        for (source, id) in [(leipzig as TileSource, TileID(z: 14, x: 8755, y: 5460)),
                             (florence as TileSource, TileID(z: 14, x: 8704, y: 5972))] {
            let tile = try MVTDecoder.decode(try XCTUnwrap(try source.tileData(for: id)))
            let style = TileStyle.builtIn(for: TileSchema(vectorLayers: source.metadata.vectorLayers))
            for dark in [false, true] {
                let painter = VectorTilePainter(style: style, dark: dark)
                images.append(painter.render(tile, zoom: id.z))
                images.append(painter.render(tile, zoom: id.z, scale: 2))
                // Part of the tile on a smaller surface, off by a fraction of a pixel.
                let cut = ImageSurface(width: 300, height: 200, scale: 1, opaque: true)
                cut.withContext { cr in
                    cairo_translate(cr, -120.4, -57.7)
                    painter.paint(tile, zoom: id.z, in: cr)
                }
                images.append(cut)
            }
        }
        return images
    }

    func testTheSIMDAndPortableKernelsGiveIdenticalPixels() throws {
        defer { ctr_force_portable(0) }
        ctr_force_portable(0)
        let best = try paintings()
        let level = ctr_simd_level()
        ctr_force_portable(1)
        XCTAssertEqual(ctr_simd_level(), 0)
        let portable = try paintings()
        XCTAssertEqual(best.count, portable.count)
        for (i, (a, b)) in zip(best, portable).enumerated() {
            let diff = PixelDiff.compare(a, b, channelTolerance: 0)
            XCTAssertTrue(diff.sizesMatch, "image \(i)")
            XCTAssertEqual(diff.differingPixels, 0, "image \(i): kernel level \(level) against the portable one")
        }
        // On a processor without AVX2 both runs used the portable kernel, which proves nothing.
        if level == 0 { print("note: no AVX2 here; only the portable kernel was run") }
    }
}
