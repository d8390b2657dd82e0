import CCairo
import MapRender
import Foundation

/// Compares two images pixel by pixel (golden-image tests).
public struct PixelDiff: Sendable {
    /// Pixels whose largest channel difference exceeds the tolerance.
    public var differingPixels: Int
    /// All pixels compared.
    public var totalPixels: Int
    /// Largest channel difference seen (0…255).
    public var maxChannelDelta: Int
    /// Whether the sizes matched (if not, every pixel counts as different).
    public var sizesMatch: Bool
    /// The most differing pixels in any `blockSize`×`blockSize` block: a small mark that is
    /// missing is a dense spot of differences, which a fraction of the whole picture hides.
    public var maxDifferingInBlock: Int = 0

    /// Side of the blocks `maxDifferingInBlock` counts in.
    public static let blockSize = 16

    /// Fraction of pixels that differ, 0…1.
    public var differingFraction: Double { totalPixels == 0 ? 0 : Double(differingPixels) / Double(totalPixels) }

    /// Compares `actual` with `expected`; a pixel differs when any channel (premultiplied bytes)
    /// differs by more than `channelTolerance`. When `diffImage` is given, writes a PNG that shows
    /// the expected image faded with differing pixels in magenta.
    public static func compare(_ actual: ImageSurface, _ expected: ImageSurface,
                               channelTolerance: Int = 8, diffImage: URL? = nil) -> PixelDiff {
        let w = actual.pixelWidth, h = actual.pixelHeight
        guard w == expected.pixelWidth, h == expected.pixelHeight else {
            return PixelDiff(differingPixels: max(w * h, expected.pixelWidth * expected.pixelHeight),
                             totalPixels: max(w * h, expected.pixelWidth * expected.pixelHeight),
                             maxChannelDelta: 255, sizesMatch: false, maxDifferingInBlock: blockSize * blockSize)
        }
        cairo_surface_flush(actual.surface)
        cairo_surface_flush(expected.surface)
        let sa = Int(cairo_image_surface_get_stride(actual.surface))
        let se = Int(cairo_image_surface_get_stride(expected.surface))
        let pa = cairo_image_surface_get_data(actual.surface)!
        let pe = cairo_image_surface_get_data(expected.surface)!
        let opaqueA = cairo_image_surface_get_format(actual.surface) == CAIRO_FORMAT_RGB24
        let opaqueE = cairo_image_surface_get_format(expected.surface) == CAIRO_FORMAT_RGB24
        let diff = diffImage.map { _ in ImageSurface(width: w, height: h) }
        let pd = diff.map { cairo_image_surface_get_data($0.surface)! }
        let sd = diff.map { Int(cairo_image_surface_get_stride($0.surface)) } ?? 0
        var differing = 0, maxDelta = 0
        let blocksAcross = (w + blockSize - 1) / blockSize
        var blocks = [Int](repeating: 0, count: blocksAcross * ((h + blockSize - 1) / blockSize))
        for y in 0..<h {
            let rowA = UnsafeRawPointer(pa + y * sa).assumingMemoryBound(to: UInt32.self)
            let rowE = UnsafeRawPointer(pe + y * se).assumingMemoryBound(to: UInt32.self)
            for x in 0..<w {
                var a = rowA[x], e = rowE[x]
                if opaqueA { a |= 0xFF00_0000 }
                if opaqueE { e |= 0xFF00_0000 }
                var delta = 0
                if a != e {
                    for shift in stride(from: 0, through: 24, by: 8) {
                        delta = max(delta, abs(Int((a >> UInt32(shift)) & 0xFF) - Int((e >> UInt32(shift)) & 0xFF)))
                    }
                }
                maxDelta = max(maxDelta, delta)
                let differs = delta > channelTolerance
                if differs {
                    differing += 1
                    blocks[(y / blockSize) * blocksAcross + x / blockSize] += 1
                }
                if let pd {
                    let out = UnsafeMutableRawPointer(pd + y * sd).assumingMemoryBound(to: UInt32.self)
                    if differs {
                        out[x] = 0xFFFF_00FF
                    } else {
                        // Expected image, faded towards white, as context.
                        let g = (Int((e >> 16) & 0xFF) + Int((e >> 8) & 0xFF) + Int(e & 0xFF)) / 3
                        let v = UInt32(200 + g * 55 / 255)
                        out[x] = 0xFF00_0000 | (v << 16) | (v << 8) | v
                    }
                }
            }
        }
        if let diff, let diffImage {
            cairo_surface_mark_dirty(diff.surface)
            try? diff.writePNG(to: diffImage)
        }
        return PixelDiff(differingPixels: differing, totalPixels: w * h, maxChannelDelta: maxDelta, sizesMatch: true,
                         maxDifferingInBlock: blocks.max() ?? 0)
    }
}
