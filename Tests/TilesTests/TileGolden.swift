import Foundation
import MapRender
import XCTest

/// Golden-image comparison for tile pictures: `Golden/NAME.png` next to this file. With
/// `RECORD_GOLDEN=1` the image is (re)written and the test fails, so nobody accepts a new image
/// unseen (the same rule as MapRenderTests).
enum TileGolden {
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let goldenFolder = testsFolder.appendingPathComponent("Golden")
    static let failuresFolder = testsFolder.appendingPathComponent("Failures")

    static func assertMatches(_ image: ImageSurface, named name: String, channelTolerance: Int = 16,
                              maxDifferingFraction: Double = 0.002, file: StaticString = #filePath, line: UInt = #line) {
        let golden = goldenFolder.appendingPathComponent("\(name).png")
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" {
            do {
                try image.writePNG(to: golden)
                XCTFail("recorded \(golden.path); review it and re-run without RECORD_GOLDEN", file: file, line: line)
            } catch {
                XCTFail("can't record \(golden.path): \(error)", file: file, line: line)
            }
            return
        }
        guard let expected = try? ImageSurface.load(png: golden) else {
            XCTFail("no golden image \(golden.path); run with RECORD_GOLDEN=1 and review it", file: file, line: line)
            return
        }
        let actualURL = failuresFolder.appendingPathComponent("\(name)-actual.png")
        let diffURL = failuresFolder.appendingPathComponent("\(name)-diff.png")
        let result = PixelDiff.compare(image, expected, channelTolerance: channelTolerance)
        if !result.sizesMatch || result.differingFraction > maxDifferingFraction {
            try? image.writePNG(to: actualURL)
            _ = PixelDiff.compare(image, expected, channelTolerance: channelTolerance, diffImage: diffURL)
            XCTFail("\(name): \(result.differingPixels) of \(result.totalPixels) pixels differ "
                    + "(max channel delta \(result.maxChannelDelta), sizes match: \(result.sizesMatch)). "
                    + "Actual: \(actualURL.path), diff: \(diffURL.path)", file: file, line: line)
        }
    }
}
