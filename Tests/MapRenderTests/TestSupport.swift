import AppSupport
import ClusterCore
import Foundation
import GeoData
import MapModel
import MapRender
import XCTest

/// Base maps loaded once per test process from the repo's `data/` folder.
enum TestMaps {
    static let dataDirectory: URL = {
        guard let dir = DataDirectory.locate(executablePath: #filePath).map({ URL(fileURLWithPath: $0) }) else {
            fatalError("data/basemap not found above \(#filePath); set CLUSTERMAP_DATA_DIR")
        }
        return dir
    }()
    static let coarse: BaseMap = try! BaseMap.load(level: .coarse, dataDirectory: dataDirectory)
    static let detailed: BaseMap = try! BaseMap.load(level: .detailed, dataDirectory: dataDirectory)
    static let fine: BaseMap = try! BaseMap.load(level: .fine, dataDirectory: dataDirectory)
    static let labels: MapLabelIndex = try! BaseMapLabelSource.load(dataDirectory: dataDirectory)
}

/// Golden-image comparison: `Golden/NAME.png` next to this file. With `RECORD_GOLDEN=1` the image is
/// (re)written and the test fails so that nobody accepts a new image unseen.
enum Golden {
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let goldenFolder = testsFolder.appendingPathComponent("Golden")
    static let failuresFolder = testsFolder.appendingPathComponent("Failures")

    static func assertMatches(_ image: ImageSurface, named name: String,
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
