import XCTest
@testable import GeoData

/// The bundled datasets load with their documented counts and colouring.
final class BundledDatasetTests: XCTestCase {
    func testEveryDatasetLoadsWithItsDocumentedCount() throws {
        let expected = ["world-cities": 170_391, "earthquakes": 23_412, "airports": 28_298,
                        "london": 74, "madrid": 9, "lisbon": 6]
        XCTAssertEqual(Set(DatasetCatalog.all.map(\.id)), Set(expected.keys))
        for dataset in DatasetCatalog.all {
            let set = try dataset.load(from: repositoryDataDirectory)
            XCTAssertEqual(set.count, expected[dataset.id], dataset.id)
            XCTAssertEqual(set.count, dataset.expectedCount, dataset.id)
            XCTAssertEqual(set.report.totalSkipped, 0, "\(dataset.id): \(set.report.messages)")
        }
        XCTAssertEqual(DatasetCatalog.defaultDataset.id, "world-cities")
    }

    func testWorldCitiesHaveNamesAndAttribution() throws {
        let d = try XCTUnwrap(DatasetCatalog.dataset(id: "world-cities"))
        XCTAssertEqual(d.attribution, "Contains data from GeoNames (https://www.geonames.org/), CC BY 4.0")
        let set = try d.load(from: repositoryDataDirectory)
        XCTAssertEqual(set.name(at: 0), "Takht-e Qeyşar")
        XCTAssertEqual(set.numericValue(at: 0), 1266)
        XCTAssertEqual(set.coordinates[0].latitude, 32.05908)
    }

    func testAirportsAreTwoKindsByIATACode() throws {
        let d = try XCTUnwrap(DatasetCatalog.dataset(id: "airports"))
        XCTAssertEqual(d.coloring, .category)
        let set = try d.load(from: repositoryDataDirectory)
        XCTAssertEqual(Set(set.categoryNames), ["With IATA code", "Without IATA code"])
        let with = set.categoryIndices.filter { set.categoryNames[Int($0)] == "With IATA code" }.count
        XCTAssertEqual(with, 7_884)
    }

    func testEarthquakesCarryMagnitude() throws {
        let d = try XCTUnwrap(DatasetCatalog.dataset(id: "earthquakes"))
        XCTAssertEqual(d.coloring, .numeric(property: "mag"))
        let set = try d.load(from: repositoryDataDirectory)
        let mags = set.numericValues
        XCTAssertEqual(mags.count, set.count)
        XCTAssertEqual(mags.min(), 5.5)
        XCTAssertEqual(mags.max(), 9.1)
    }

    func testMadridAndLisbonDemos() throws {
        let madrid = try XCTUnwrap(DatasetCatalog.dataset(id: "madrid")).load(from: repositoryDataDirectory)
        XCTAssertEqual(madrid.name(at: 0), "Prado Museum")
        XCTAssertEqual(madrid.coordinates[0].latitude, 40.4138)
        XCTAssertEqual(madrid.coordinates[0].longitude, -3.6921)
        for i in 0..<madrid.count {
            XCTAssertNotNil(madrid.categoryName(at: i))
            XCTAssertNotNil(madrid.description(at: i))
        }
        let lisbon = try XCTUnwrap(DatasetCatalog.dataset(id: "lisbon")).load(from: repositoryDataDirectory)
        XCTAssertEqual((0..<lisbon.count).map { lisbon.label(at: $0) }, ["$120", "$86", "$210", "$64", "$145", "$98"])
        XCTAssertEqual(lisbon.name(at: 0), "Rooftop Loft")
        XCTAssertEqual(lisbon.categoryNames, ["stay"])
    }

    func testDataDirectoryLookup() throws {
        XCTAssertEqual(DataDirectory.locate(environment: ["CLUSTERMAP_DATA_DIR": "/opt/x"], executablePath: "/nowhere/bin/app"),
                       "/opt/x")
        // A development checkout: the binary is somewhere under .build.
        let fromBuild = DataDirectory.locate(environment: [:], executablePath: repositoryDataDirectory + "/../.build/debug/clustermap")
        XCTAssertEqual(fromBuild.map { URL(fileURLWithPath: $0).standardized.path },
                       URL(fileURLWithPath: repositoryDataDirectory).standardized.path)
        // Installed layout: <prefix>/bin/clustermap and <prefix>/share/clustermap/data.
        let prefix = NSTemporaryDirectory() + "cm-prefix-\(getpid())"
        try FileManager.default.createDirectory(atPath: prefix + "/share/clustermap/data/points", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        XCTAssertEqual(DataDirectory.locate(environment: [:], executablePath: prefix + "/bin/clustermap"),
                       prefix + "/share/clustermap/data")
        XCTAssertNil(DataDirectory.locate(environment: [:], executablePath: "/nonexistent-\(getpid())/bin/app"))
    }
}
