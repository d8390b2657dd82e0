import Foundation
import GoldenSupport
import MapRender

/// Golden-image comparison for tile pictures: `Golden/NAME.png` next to this file, through the
/// shared comparator (`GoldenImages`, with its dense-spot check: a missing street name fails).
enum TileGolden {
    static let images = GoldenImages(besides: #filePath)

    static func assertMatches(_ image: ImageSurface, named name: String, channelTolerance: Int = 16,
                              maxDifferingFraction: Double = 0.002, file: StaticString = #filePath, line: UInt = #line) {
        images.assertMatches(image, named: name, channelTolerance: channelTolerance,
                             maxDifferingFraction: maxDifferingFraction, file: file, line: line)
    }
}
