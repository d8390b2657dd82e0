import AppSupport
import GoldenSupport
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

/// Golden-image comparison: `Golden/NAME.png` next to this file (the shared comparator,
/// `GoldenImages`).
enum Golden {
    static let images = GoldenImages(besides: #filePath)
    static var testsFolder: URL { images.testsFolder }

    static func assertMatches(_ image: ImageSurface, named name: String,
                              channelTolerance: Int = 16, maxDifferingFraction: Double = 0.002,
                              maxDifferingInBlock: Int = 48,
                              file: StaticString = #filePath, line: UInt = #line) {
        images.assertMatches(image, named: name, channelTolerance: channelTolerance, maxDifferingFraction: maxDifferingFraction,
                             maxDifferingInBlock: maxDifferingInBlock, file: file, line: line)
    }
}
