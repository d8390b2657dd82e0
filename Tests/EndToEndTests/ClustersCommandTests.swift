import XCTest
import Foundation

/// `clustermap clusters …` run as a program (no display): output format, ids, fixtures, errors.
final class ClustersCommandTests: XCTestCase {
    private func run(_ args: [String]) throws -> ProgramRun.Result {
        try ProgramRun.clustermap(["clusters"] + args)
    }

    private func write(_ text: String, ext: String) throws -> String {
        let path = NSTemporaryDirectory() + "clusters-\(UInt32.random(in: 0...UInt32.max)).\(ext)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// Runs successfully and returns the features.
    private func features(_ args: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        let r = try run(args)
        XCTAssertEqual(r.status, 0, r.err, file: file, line: line)
        // Stderr carries only the skip report (e.g. the fixtures' null-geometry feature).
        for errLine in r.err.split(separator: "\n") {
            XCTAssertTrue(errLine.hasPrefix("clustermap clusters: ") && errLine.contains(" skipped: "), String(errLine),
                          file: file, line: line)
        }
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any],
                                 file: file, line: line)
        XCTAssertEqual(json["type"] as? String, "FeatureCollection", file: file, line: line)
        let list = try XCTUnwrap(json["features"] as? [[String: Any]], file: file, line: line)
        for f in list {
            XCTAssertEqual(f["type"] as? String, "Feature", file: file, line: line)
            let g = f["geometry"] as? [String: Any]
            XCTAssertEqual(g?["type"] as? String, "Point", file: file, line: line)
            XCTAssertEqual((g?["coordinates"] as? [Double])?.count, 2, file: file, line: line)
            XCTAssertNotNil(f["id"] as? Int, file: file, line: line)
        }
        return list
    }

    private func properties(_ f: [String: Any]) -> [String: Any] { f["properties"] as? [String: Any] ?? [:] }
    private func isCluster(_ f: [String: Any]) -> Bool { properties(f)["cluster"] as? Bool == true }
    private func coordinates(_ f: [String: Any]) -> [Double] {
        (f["geometry"] as? [String: Any])?["coordinates"] as? [Double] ?? []
    }

    /// Five points, three close together (about 0.01° apart near 10°N 10°E) and two far away,
    /// with a null-geometry feature at position 2: positions 0, 1, 3 are the close ones.
    private func fivePoints() throws -> String {
        let f = { (name: String, lon: String, lat: String) in
            "{\"type\":\"Feature\",\"properties\":{\"name\":\"\(name)\",\"rank\":\(name.count)},"
                + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(lon),\(lat)]}}"
        }
        let features = [
            f("a", "10", "10"),
            f("bb", "10.01", "10"),
            "{\"type\":\"Feature\",\"properties\":{\"name\":\"nowhere\"},\"geometry\":null}",
            f("ccc", "10", "10.01"),
            f("dddd", "-100.123456789", "40.5"),
            f("eeeee", "120.25", "-30.125"),
        ]
        return try write("{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n",
                         ext: "geojson")
    }

    func testSmallFixtureAtLowZoomIsOneClusterAndTwoPoints() throws {
        let path = try fivePoints()
        let list = try features([path, "--zoom", "0", "--leaves"])
        XCTAssertEqual(list.count, 3)
        let clusters = list.filter(isCluster), points = list.filter { !isCluster($0) }
        XCTAssertEqual(clusters.count, 1)
        XCTAssertEqual(points.map { $0["id"] as? Int }.compactMap { $0 }.sorted(), [4, 5])

        let c = try XCTUnwrap(clusters.first)
        let props = properties(c)
        let id = try XCTUnwrap(c["id"] as? Int)
        XCTAssertEqual(props["cluster_id"] as? Int, id)
        XCTAssertFalse((0..<6).contains(id), "a cluster id is never a feature position")
        XCTAssertEqual(props["point_count"] as? Int, 3)
        XCTAssertEqual(props["point_count_abbreviated"] as? Int, 3)
        // The three merge at zoom 11 (0.01° ≈ 2.8e-5 of the world, radius 40/512/2^11 ≈ 3.8e-5)
        // and are apart at 12.
        XCTAssertEqual(props["expansion_zoom"] as? Int, 12)
        XCTAssertEqual(props["leaves"] as? [Int], [0, 1, 3])
        let centre = coordinates(c)
        XCTAssertEqual(centre[0], 10.00333, accuracy: 1e-4)
        XCTAssertEqual(centre[1], 10.00333, accuracy: 1e-4)

        // Points: input properties and exact input coordinates.
        let d = try XCTUnwrap(points.first { $0["id"] as? Int == 4 })
        XCTAssertEqual(properties(d)["name"] as? String, "dddd")
        XCTAssertEqual(properties(d)["rank"] as? Int, 4)
        XCTAssertEqual(coordinates(d), [-100.123456789, 40.5])
        let e = try XCTUnwrap(points.first { $0["id"] as? Int == 5 })
        XCTAssertEqual(properties(e)["name"] as? String, "eeeee")
        XCTAssertEqual(coordinates(e), [120.25, -30.125])
    }

    func testSmallFixtureAtHighZoomIsFivePointsWithTheirPositions() throws {
        let path = try fivePoints()
        let list = try features([path, "--zoom", "12"])
        XCTAssertEqual(list.count, 5)
        XCTAssertFalse(list.contains(where: isCluster))
        XCTAssertEqual(list.compactMap { $0["id"] as? Int }.sorted(), [0, 1, 3, 4, 5], "the null geometry keeps position 2")
        let byID = Dictionary(uniqueKeysWithValues: list.map { ($0["id"] as! Int, $0) })
        XCTAssertEqual(properties(byID[1]!)["name"] as? String, "bb")
        XCTAssertEqual(coordinates(byID[1]!), [10.01, 10])
        XCTAssertEqual(properties(byID[3]!)["name"] as? String, "ccc")
        XCTAssertEqual(coordinates(byID[3]!), [10, 10.01])
        // The cluster at a lower zoom expands exactly here.
        let low = try features([path, "--zoom", "11"])
        XCTAssertEqual(low.filter(isCluster).count, 1)
        XCTAssertEqual(low.count, 3)
    }

    func testWithoutLeavesThereIsNoLeavesArray() throws {
        let list = try features([try fivePoints(), "--zoom", "3"])
        let c = try XCTUnwrap(list.first(where: isCluster))
        XCTAssertNil(properties(c)["leaves"])
    }

    func testBoxAcross180() throws {
        let text = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"n":0},"geometry":{"type":"Point","coordinates":[179.5,1]}},
        {"type":"Feature","properties":{"n":1},"geometry":{"type":"Point","coordinates":[-179.5,-1]}},
        {"type":"Feature","properties":{"n":2},"geometry":{"type":"Point","coordinates":[0,0]}},
        {"type":"Feature","properties":{"n":3},"geometry":{"type":"Point","coordinates":[179.5,20]}}
        ]}
        """
        let path = try write(text, ext: "geojson")
        let list = try features([path, "--zoom", "16", "--bbox", "170,-10,-170,10"])
        XCTAssertEqual(list.compactMap { $0["id"] as? Int }.sorted(), [0, 1])
        XCTAssertEqual(coordinates(list.first { $0["id"] as? Int == 1 }!), [-179.5, -1])
        // The whole world by default.
        XCTAssertEqual(try features([path, "--zoom", "16"]).count, 4)
    }

    func testCSVInput() throws {
        let path = try write("name,lat,lon\nalpha,1,2\nbeta,1,2.00001\ngamma,40,50\n", ext: "csv")
        let low = try features([path, "--zoom", "3", "--leaves"])
        XCTAssertEqual(low.count, 2)
        let c = try XCTUnwrap(low.first(where: isCluster))
        XCTAssertEqual(properties(c)["leaves"] as? [Int], [0, 1])
        XCTAssertEqual(properties(c)["point_count"] as? Int, 2)
        let g = try XCTUnwrap(low.first { $0["id"] as? Int == 2 })
        XCTAssertEqual(properties(g)["name"] as? String, "gamma")
        XCTAssertEqual(coordinates(g), [50, 40])
        let high = try features([path, "--zoom", "20"])
        XCTAssertEqual(high.compactMap { $0["id"] as? Int }.sorted(), [0, 1, 2])
    }

    func testGridAlgorithm() throws {
        let path = try fivePoints()
        let list = try features([path, "--zoom", "2", "--algorithm", "grid", "--leaves"])
        let clusters = list.filter(isCluster)
        XCTAssertEqual(clusters.count, 1)
        let c = try XCTUnwrap(clusters.first)
        XCTAssertEqual(properties(c)["point_count"] as? Int, 3)
        XCTAssertEqual(properties(c)["cluster_id"] as? Int, c["id"] as? Int)
        XCTAssertFalse((0..<6).contains(c["id"] as? Int ?? 0))
        XCTAssertEqual(properties(c)["leaves"] as? [Int], [0, 1, 3])
        XCTAssertNotNil(properties(c)["expansion_zoom"] as? Int)
        XCTAssertEqual(list.filter { !isCluster($0) }.compactMap { $0["id"] as? Int }.sorted(), [4, 5])
    }

    func testBadArgumentsAreOneLineAndStatusTwo() throws {
        let path = try fivePoints()
        let cases: [[String]] = [
            [path], ["--zoom", "1"], [path, "--zoom"], [path, "--zoom", "x"], [path, "--zoom", "nan"],
            [path, "--zoom", "1", "--bbox", "1,2,3"], [path, "--zoom", "1", "--bbox", "0,10,5,-10"],
            [path, "--zoom", "1", "--algorithm", "kmeans"], [path, "--zoom", "1", "--bogus"],
            [path, "--zoom", "1", "--radius", "-3"], [path, "--zoom", "1", "--max-zoom", "99"],
            [path, "--zoom", "1", "--min-zoom", "8", "--max-zoom", "4"], [path, path, "--zoom", "1"],
        ]
        for args in cases {
            let r = try run(args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.err)")
            XCTAssertEqual(r.err.split(separator: "\n").count, 1, "\(args): \(r.err)")
            XCTAssertTrue(r.err.hasPrefix("clustermap clusters: "), r.err)
            XCTAssertFalse(r.err.contains("usage:"), r.err)
            XCTAssertFalse(r.err.contains("Fatal error"), r.err)
            XCTAssertEqual(r.out, "", "\(args)")
        }
        let help = try run(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.out.contains("--zoom"), help.out)
    }

    func testMalformedFileIsOneLineNamingTheLineAndStatusOne() throws {
        let text = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}},
        {"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,}}
        ]}
        """
        let path = try write(text, ext: "geojson")
        let name = (path as NSString).lastPathComponent
        let r = try run([path, "--zoom", "1"])
        XCTAssertEqual(r.status, 1, r.err)
        XCTAssertEqual(r.err.split(separator: "\n").count, 1, r.err)
        XCTAssertTrue(r.err.hasPrefix("clustermap clusters: "), r.err)
        XCTAssertTrue(r.err.contains(name), r.err)
        XCTAssertTrue(r.err.contains("line 3"), r.err)
        XCTAssertTrue(r.err.contains("feature 2"), r.err)   // the second feature, counted from 1
        XCTAssertFalse(r.err.contains("Fatal error"), r.err)

        let missing = try run(["/nonexistent/places.geojson", "--zoom", "1"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.err.split(separator: "\n").count, 1, missing.err)
        XCTAssertTrue(missing.err.contains("places.geojson"), missing.err)
    }

    func testSkippedRowsAreReportedOnStderrAndTheRestLoads() throws {
        let path = try write("name,lat,lon\na,1,2\nb,,3\nc,95,3\nd,4,5\n", ext: "csv")
        let r = try run([path, "--zoom", "16"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.err.contains("1 row skipped: no coordinates (line 3)"), r.err)
        XCTAssertTrue(r.err.contains("1 row skipped: coordinates out of range (line 4)"), r.err)
        let json = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as! [String: Any]
        XCTAssertEqual((json["features"] as! [Any]).count, 2)
    }
}
