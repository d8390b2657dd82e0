import XCTest
import Foundation

/// `clustermap clusters … --where/--since/--until/--by/--total` run as a program: the filtered
/// output equals the unfiltered output of the same file with the failing places' geometry
/// removed (a fresh build of the passing places), groups never mix, totals add up, and errors
/// point at the column.
final class ClustersFilterCommandTests: XCTestCase {
    private struct Place {
        var lon: Double, lat: Double, mag: Double, type: String, deaths: Int, time: String
    }

    /// Places around three spots, with a magnitude, a type, deaths and a time in 2010–2012.
    private func places(_ n: Int) -> [Place] {
        var state: UInt64 = 29
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        let spots = [(142.4, 38.3), (-122.4, 37.8), (10.0, 45.0)]
        let types = ["earthquake", "explosion", "quarry blast"]
        return (0..<n).map { i in
            let s = spots[i % 3]
            let month = 1 + Int(next() * 36)
            return Place(lon: s.0 + next() * 2, lat: s.1 + next() * 2, mag: (next() * 90).rounded() / 10,
                         type: types[Int(next() * 3)], deaths: Int(next() * 100),
                         time: String(format: "%04d-%02d-15T12:00:00Z", 2010 + (month - 1) / 12, 1 + (month - 1) % 12))
        }
    }

    private func write(_ places: [Place], keep: (Place) -> Bool = { _ in true }) throws -> String {
        let features = places.map { p -> String in
            let geometry = keep(p) ? "{\"type\":\"Point\",\"coordinates\":[\(p.lon),\(p.lat)]}" : "null"
            return "{\"type\":\"Feature\",\"properties\":{\"mag\":\(p.mag),\"type\":\"\(p.type)\",\"deaths\":\(p.deaths),"
                + "\"time\":\"\(p.time)\"},\"geometry\":\(geometry)}"
        }
        let path = NSTemporaryDirectory() + "clusters-filter-\(UInt32.random(in: 0...UInt32.max)).geojson"
        try ("{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    private func run(_ args: [String]) throws -> ProgramRun.Result { try ProgramRun.clustermap(["clusters"] + args) }

    private func features(_ out: String) throws -> [[String: Any]] {
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        return try XCTUnwrap(json["features"] as? [[String: Any]])
    }

    private func props(_ f: [String: Any]) -> [String: Any] { f["properties"] as? [String: Any] ?? [:] }

    /// The members (feature positions) of an output feature.
    private func members(_ f: [String: Any]) -> [Int] {
        props(f)["cluster"] as? Bool == true ? (props(f)["leaves"] as? [Int] ?? []) : [f["id"] as! Int]
    }

    private let issueFilter = ["--where", "mag >= 6", "--where", "type = earthquake", "--since", "2011-01-01", "--until", "2011-12-31"]
    private func passesIssueFilter(_ p: Place) -> Bool { p.mag >= 6 && p.type == "earthquake" && p.time.hasPrefix("2011-") }

    func testFilteredOutputEqualsTheFileWithOnlyThePassingPlaces() throws {
        let all = places(600)
        let path = try write(all)
        let oracle = try write(all, keep: passesIssueFilter)
        for zoom in ["0", "4", "7", "12"] {
            for algorithm in ["hierarchical", "grid"] {
                let got = try run([path, "--zoom", zoom, "--leaves", "--algorithm", algorithm] + issueFilter)
                XCTAssertEqual(got.status, 0, got.err)
                let passing = all.filter(passesIssueFilter).count
                XCTAssertTrue(got.err.contains("\(passing) of 600 places pass"), got.err)
                let want = try run([oracle, "--zoom", zoom, "--leaves", "--algorithm", algorithm])
                XCTAssertEqual(want.status, 0, want.err)
                XCTAssertEqual(got.out, want.out, "zoom \(zoom), \(algorithm)")
            }
        }
    }

    func testTheIssuesCommandLineWithGroupsAndTotals() throws {
        let all = places(600)
        let path = try write(all)
        let r = try run([path, "--zoom", "3", "--leaves", "--by", "type", "--total", "sum:deaths"] + issueFilter)
        XCTAssertEqual(r.status, 0, r.err)
        let list = try features(r.out)
        let shown = list.flatMap(members).sorted()
        XCTAssertEqual(shown, all.indices.filter { passesIssueFilter(all[$0]) }, "exactly the passing places, once each")
        XCTAssertTrue(list.contains { props($0)["cluster"] as? Bool == true })
        for f in list where props(f)["cluster"] as? Bool == true {
            let m = members(f)
            XCTAssertEqual(props(f)["type"] as? String, "earthquake")
            XCTAssertEqual(props(f)["sum_deaths"] as? Int, m.reduce(0) { $0 + all[$1].deaths })
            XCTAssertNotNil(props(f)["sum_deaths_abbreviated"] as? String)
        }
    }

    func testByCategoryNeverMixesAndMeanAndMostCommonMatchBruteForce() throws {
        let all = places(450)
        let path = try write(all)
        let byType = try features(try run([path, "--zoom", "2", "--leaves", "--by", "type", "--total", "mean:mag"]).out)
        XCTAssertEqual(byType.flatMap(members).sorted(), Array(all.indices))
        for f in byType where props(f)["cluster"] as? Bool == true {
            let m = members(f)
            XCTAssertEqual(Set(m.map { all[$0].type }), [props(f)["type"] as! String], "a bubble never mixes types")
            let mean = m.reduce(0.0) { $0 + all[$1].mag } / Double(m.count)
            XCTAssertEqual(props(f)["mean_mag"] as! Double, mean, accuracy: 1e-9)
        }
        // Mixed, with the most common type per bubble.
        let mixed = try features(try run([path, "--zoom", "2", "--leaves", "--total", "most-common:type"]).out)
        for f in mixed where props(f)["cluster"] as? Bool == true {
            var counts: [String: Int] = [:]
            for i in members(f) { counts[all[i].type, default: 0] += 1 }
            let top = counts.values.max()!
            XCTAssertEqual(counts[props(f)["most_common_type"] as! String], top)
        }
    }

    func testErrorsNameTheOptionAndPointAtTheColumn() throws {
        let path = try write(places(10))
        let cases: [([String], String)] = [
            (["--where", "mag >= "], "--where 'mag >= ': column 8: expected a value after '>='"),
            (["--where", "(mag >= 6"], "--where '(mag >= 6': column 10: the '(' at column 1 is never closed"),
            (["--where", "magg >= 6"], "--where 'magg >= 6': column 1: no property 'magg' (there are: mag, type, deaths, time)"),
            (["--where", "mag >= 'big'"], "column 8: 'mag' holds numbers"),
            (["--total", "avg:mag"], "--total 'avg:mag': expected KIND:PROPERTY"),
            (["--total", "sum:type"], "'type' holds categories; sum needs numbers"),
            (["--since", "yesterday"], "--since 'yesterday': not a date"),
            (["--by", "mag"], "cluster by a category"),
            (["--time", "mag", "--since", "2011-01-01"], "'mag' holds numbers, not dates"),
        ]
        for (args, message) in cases {
            let r = try run([path, "--zoom", "1"] + args)
            XCTAssertEqual(r.status, 2, "\(args)")
            XCTAssertTrue(r.out.isEmpty, "\(args)")
            XCTAssertTrue(r.err.hasPrefix("clustermap clusters: "), r.err)
            XCTAssertTrue(r.err.contains(message), "\(args): \(r.err)")
            XCTAssertEqual(r.err.split(separator: "\n").count, 1, r.err)
        }
    }
}
