import Foundation
import MapRender
import XCTest

/// The one golden-image comparator of the test targets: `Golden/NAME.png` in a test target's
/// folder. With `RECORD_GOLDEN=1` the image is (re)written and the test fails so that nobody
/// accepts a new image unseen; a failure writes the actual image and a diff to `Failures/`.
public struct GoldenImages: Sendable {
    /// The test target's folder (holding `Golden/` and `Failures/`).
    public let testsFolder: URL
    public var goldenFolder: URL { testsFolder.appendingPathComponent("Golden") }
    public var failuresFolder: URL { testsFolder.appendingPathComponent("Failures") }

    /// The goldens of the test target whose source file is `filePath` (pass `#filePath`).
    public init(besides filePath: String) {
        testsFolder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
    }

    /// Fails unless `image` matches the golden `name`: at most `maxDifferingFraction` of its
    /// pixels differ by more than `channelTolerance`, and at most `maxDifferingInBlock` in any
    /// block (a dense spot: a missing pin or street name).
    public func assertMatches(_ image: ImageSurface, named name: String,
                              channelTolerance: Int = 16, maxDifferingFraction: Double = 0.002,
                              maxDifferingInBlock: Int = 48,
                              file: StaticString = #filePath, line: UInt = #line) {
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
        guard FileManager.default.fileExists(atPath: golden.path) else {
            XCTFail("no golden image \(golden.path); run with RECORD_GOLDEN=1 and review it", file: file, line: line)
            return
        }
        let expected: ImageSurface
        do { expected = try ImageSurface.load(png: golden) } catch {
            XCTFail("\(error)", file: file, line: line)
            return
        }
        let actualURL = failuresFolder.appendingPathComponent("\(name)-actual.png")
        let diffURL = failuresFolder.appendingPathComponent("\(name)-diff.png")
        let result = PixelDiff.compare(image, expected, channelTolerance: channelTolerance)
        // Both limits: a little noise spread over the picture passes; a dense spot (a missing pin or
        // label, a few hundred pixels) fails even when it is far below the fraction.
        if !result.sizesMatch || result.differingFraction > maxDifferingFraction
            || result.maxDifferingInBlock > maxDifferingInBlock {
            try? image.writePNG(to: actualURL)
            _ = PixelDiff.compare(image, expected, channelTolerance: channelTolerance, diffImage: diffURL)
            XCTFail("""
                \(name): \(result.differingPixels) of \(result.totalPixels) pixels differ \
                (\(String(format: "%.3f", result.differingFraction * 100))% > \(maxDifferingFraction * 100)%, \
                max channel delta \(result.maxChannelDelta), at most \(result.maxDifferingInBlock) in a \
                \(PixelDiff.blockSize)-pixel block (limit \(maxDifferingInBlock)), sizes match: \(result.sizesMatch)). \
                Actual: \(actualURL.path), diff: \(diffURL.path)
                """, file: file, line: line)
        }
    }
}
