import XCTest
@testable import GeoData

/// Loads inline text as a file named `name` (the extension picks the reader).
func load(_ text: String, name: String = "test.geojson", options: LoadOptions = LoadOptions()) throws -> PointSet {
    try PointSetLoader.load(text: text, name: name, options: options)
}

/// The GeoDataError a load throws, failing the test when it loads or throws something else.
func loadError(_ text: String, name: String = "test.geojson", options: LoadOptions = LoadOptions(),
               file: StaticString = #filePath, line: UInt = #line) -> GeoDataError? {
    loadError(bytes: Array(text.utf8), name: name, options: options, file: file, line: line)
}

func loadError(bytes: [UInt8], name: String = "test.geojson", options: LoadOptions = LoadOptions(),
               file: StaticString = #filePath, line: UInt = #line) -> GeoDataError? {
    do {
        let set = try PointSetLoader.load(bytes: bytes, name: name, options: options)
        XCTFail("expected an error, loaded \(set.count) points", file: file, line: line)
    } catch let e as GeoDataError {
        return e
    } catch {
        XCTFail("unexpected error \(error)", file: file, line: line)
    }
    return nil
}

/// The repository's `data` folder (found from this file's path, not from the test binary).
let repositoryDataDirectory: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.appendingPathComponent("data").path
}()

/// A feature collection from feature texts.
func collection(_ features: String...) -> String {
    "{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}"
}

func pointFeature(_ lon: String, _ lat: String, properties: String = "{}") -> String {
    "{\"type\":\"Feature\",\"properties\":\(properties),\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(lon),\(lat)]}}"
}
