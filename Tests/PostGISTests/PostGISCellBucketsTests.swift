@testable import ClusterCore
import Foundation
import XCTest
@testable import PostGIS

/// Grid cells found by the app's cell edges (`PostGISCellBuckets`, `width_bucket` on the server)
/// are the grid clusterer's cells bit for bit: random points and points exactly on the edges (and
/// one Double either side) at zooms 0–17, the square world's ±85.0511°, the poles, ±180°, and
/// invalid rows — in Swift, and through the server's whole grid query.
final class PostGISCellBucketsTests: XCTestCase {
    /// The grid clusterer's cell of a point (nil when it skips the point), inside `b`'s range or nil.
    func expected(_ lat: Double, _ lon: Double, unit: Double, width: UInt64, in b: PostGISCellBuckets) -> [UInt64]? {
        guard GeoCoordinate(latitude: lat, longitude: lon).isValid else { return nil }
        let key = GridClusterer.cellKey(WebMercator.x(longitude: lon), WebMercator.y(latitude: lat), cellUnit: unit, width: width)
        let (ix, iy) = (key % width, key / width)
        return b.ix.contains(ix) && b.iy.contains(iy) ? [ix, iy] : nil
    }

    func found(_ b: PostGISCellBuckets, _ lat: Double, _ lon: Double) -> [UInt64]? { b.cell(latitude: lat, longitude: lon).map { [$0.ix, $0.iy] } }

    static let specialLatitudes: [Double] = [WebMercator.maxLatitude, -WebMercator.maxLatitude, WebMercator.maxLatitude.nextUp,
                                             WebMercator.maxLatitude.nextDown, -WebMercator.maxLatitude.nextUp, -WebMercator.maxLatitude.nextDown,
                                             85.06, -85.06, 89.9, -89.9, 90, -90, Double(90).nextUp, Double(-90).nextDown, 0, -0.0,
                                             1000, .infinity, -.infinity, .nan]
    static let specialLongitudes: [Double] = [180, -180, Double(180).nextDown, Double(-180).nextUp, Double(180).nextUp,
                                              Double(-180).nextDown, 0, 540, .infinity, -.infinity, .nan]

    func testEdgeCellsEqualTheGridClustererAtEveryZoom() throws {
        var rng = SplitMix(seed: 16)
        let options = PostGISViewOptions()
        var checked = 0
        for z in 0...17 {
            let (cu, width) = PostGISSource.gridCell(zoom: z, options: options)
            var points = (0..<120).map { _ in (rng.uniform(-90, 90), rng.uniform(-180, 180)) }
            points += Self.specialLatitudes.map { ($0, rng.uniform(-180, 180)) } + Self.specialLongitudes.map { (rng.uniform(-85, 85), $0) }
            for (lat, lon) in points {
                // A few cells around the point's (the range a view asks for); an invalid point any range.
                let valid = GeoCoordinate(latitude: lat, longitude: lon).isValid
                let key = valid ? GridClusterer.cellKey(WebMercator.x(longitude: lon), WebMercator.y(latitude: lat), cellUnit: cu, width: width) : 0
                let (ix, iy) = (key % width, key / width)
                let b = try XCTUnwrap(PostGISCellBuckets(unit: cu, width: width, ix: (ix > 2 ? ix - 2 : 0)...min(ix + 2, width - 1),
                                                         iy: (iy > 2 ? iy - 2 : 0)...min(iy + 2, width - 1)))
                XCTAssertEqual(found(b, lat, lon), valid ? [ix, iy] : nil, "zoom \(z) (\(lat), \(lon))")
                // Every edge of the range, exactly on it and one Double either side.
                for t in b.latitudes where t.isFinite && abs(t) <= 90 {
                    for v in [t.nextDown, t, t.nextUp] {
                        XCTAssertEqual(found(b, v, lon), expected(v, lon, unit: cu, width: width, in: b), "zoom \(z) latitude \(v)")
                        checked += 1
                    }
                }
                for t in b.longitudes where t.isFinite && abs(t) <= 180 {
                    for v in [t.nextDown, t, t.nextUp] {
                        XCTAssertEqual(found(b, lat, v), expected(lat, v, unit: cu, width: width, in: b), "zoom \(z) longitude \(v)")
                        checked += 1
                    }
                }
            }
            // The whole world's range (the roll-up pass) where thresholds are made for it.
            if let world = PostGISCellBuckets(unit: cu, width: width, ix: 0...(width - 1), iy: 0...(width - 1)) {
                XCTAssertLessThanOrEqual(z, 9)
                for (lat, lon) in points {
                    XCTAssertEqual(found(world, lat, lon), expected(lat, lon, unit: cu, width: width, in: world), "zoom \(z) world (\(lat), \(lon))")
                }
            } else {
                XCTAssertGreaterThan(width - 1, PostGISCellBuckets.maxSide, "zoom \(z): only too wide a range has no thresholds")
            }
        }
        XCTAssertGreaterThan(checked, 50_000)
    }

    /// An edge moved by one Double is seen: the rows of a row's first latitude and the Double before
    /// it differ (else the bisection found no edge).
    func testEdgesSeparateNeighbouringRows() throws {
        let (cu, width) = PostGISSource.gridCell(zoom: 12, options: PostGISViewOptions())
        let b = try XCTUnwrap(PostGISCellBuckets(unit: cu, width: width, ix: 100...110, iy: 5000...5010))
        for t in b.latitudes.dropFirst(2).dropLast(2) {
            XCTAssertEqual(PostGISCellBuckets.row(latitude: t.nextDown, unit: cu), PostGISCellBuckets.row(latitude: t, unit: cu) + 1)
        }
        for t in b.longitudes.dropFirst(2).dropLast(2) {
            XCTAssertEqual(PostGISCellBuckets.column(longitude: t.nextDown, unit: cu, width: width) + 1,
                           PostGISCellBuckets.column(longitude: t, unit: cu, width: width))
        }
    }
}

/// Through the server (the throw-away one of `PostGISSourceTests`): its `width_bucket` is the one
/// `PostGISCellBuckets.bucket` mirrors, and the whole bucketed grid query over points on the edges
/// gives the grid clusterer's cells, counts, extremes and sums.
extension PostGISSourceTests {
    func testServerCellsByEdgesEqualTheGridClustererOnEdgePoints() throws {
        let src = try source()
        var rng = SplitMix(seed: 1616)
        let options = PostGISViewOptions()
        let places: [(Double, Double)] = [(48.85, 2.35), (1e-9, -1e-9), (85.0, 179.99), (-85.04, -179.99)]
        var points: [(lon: Double, lat: Double, mag: Double, kind: String)] = []
        var ranges: [(z: Int, ix: ClosedRange<UInt64>, iy: ClosedRange<UInt64>)] = []
        for z in 0...17 {
            let (cu, width) = PostGISSource.gridCell(zoom: z, options: options)
            for (lat, lon) in places {
                let key = GridClusterer.cellKey(WebMercator.x(longitude: lon), WebMercator.y(latitude: lat), cellUnit: cu, width: width)
                let (ix, iy) = (key % width, key / width)
                let r = (ix: (ix > 2 ? ix - 2 : 0)...min(ix + 2, width - 1), iy: (iy > 2 ? iy - 2 : 0)...min(iy + 2, width - 1))
                ranges.append((z, r.ix, r.iy))
                let b = try XCTUnwrap(PostGISCellBuckets(unit: cu, width: width, ix: r.ix, iy: r.iy))
                for t in b.latitudes where t.isFinite && abs(t) <= 90 {
                    for v in [t.nextDown, t, t.nextUp] { points.append((lon + rng.uniform(-1e-7, 1e-7), v, rng.uniform(0, 9), "lat")) }
                }
                for t in b.longitudes where t.isFinite && abs(t) <= 180 {
                    for v in [t.nextDown, t, t.nextUp] { points.append((v, lat + rng.uniform(-1e-7, 1e-7), rng.uniform(0, 9), "lon")) }
                }
            }
        }
        for lat in PostGISCellBucketsTests.specialLatitudes { points.append((rng.uniform(-180, 180), lat, 1, "special")) }
        for lon in PostGISCellBucketsTests.specialLongitudes { points.append((lon, rng.uniform(-85, 85), 1, "special")) }
        let c = src.connection
        _ = try c.query("DROP TABLE IF EXISTS edge_pts")
        try loadPoints(points, into: "edge_pts", on: c)
        let edges = try PostGISSource(address: try XCTUnwrap(Self.server).address("edge_pts"))

        // The server's width_bucket = the Swift mirror, on every edge value and the special ones.
        let some = try XCTUnwrap(PostGISCellBuckets(unit: 1.0 / 32, width: 34, ix: 0...33, iy: 0...33))
        let values = points.flatMap { [$0.lat, $0.lon] }
        let r = try c.query("SELECT width_bucket(v, $1::float8[]) FROM unnest($2::float8[]) WITH ORDINALITY AS u(v, o) ORDER BY o",
                            ["{" + some.latitudes.map { "\($0)" }.joined(separator: ",") + "}",
                             "{" + values.map { "\($0)" }.joined(separator: ",") + "}"])
        XCTAssertEqual((0..<r.rowCount).map { Int(r.integer($0, 0) ?? -1) }, values.map { PostGISCellBuckets.bucket($0, some.latitudes) })

        for (z, ixs, iys) in ranges {
            let (cu, width) = PostGISSource.gridCell(zoom: z, options: options)
            let sql = try ViewSQL(table: edges.table, conditions: [], total: "mag", quote: edges.connection.quoted)
                .bucketed(options, unit: cu, width: width, ix: ixs, iy: iys)
            XCTAssertNotNil(sql.cellBuckets)
            let cells = PostGISGridCell.cells(of: try edges.connection.query(sql.gridSQL(), ViewSQL.boxValues(-180, -90, 180, 90) + ["\(cu)", "\(width)"]),
                                              width: width)
            var want: [UInt64: [Int]] = [:]
            for (i, p) in points.enumerated() where GeoCoordinate(latitude: p.lat, longitude: p.lon).isValid {
                let key = GridClusterer.cellKey(WebMercator.x(longitude: p.lon), WebMercator.y(latitude: p.lat), cellUnit: cu, width: width)
                if ixs.contains(key % width) && iys.contains(key / width) { want[key, default: []].append(i) }
            }
            XCTAssertEqual(Set(cells.map { $0.iy * width + $0.ix }), Set(want.keys), "zoom \(z) cells")
            for cell in cells {
                guard let members = want[cell.iy * width + cell.ix] else { continue }
                let m = members.map { points[$0] }
                let what = "zoom \(z) cell \(cell.ix),\(cell.iy)"
                XCTAssertEqual(cell.count, m.count, what)
                XCTAssertEqual(cell.id, Int64(members.min()! + 1), what)
                XCTAssertEqual(cell.minLongitude, m.map(\.lon).min(), what)
                XCTAssertEqual(cell.maxLongitude, m.map(\.lon).max(), what)
                XCTAssertEqual(cell.minLatitude, m.map(\.lat).min(), what)
                XCTAssertEqual(cell.minY, m.map { WebMercator.y(latitude: $0.lat) }.min(), what)
                XCTAssertEqual(cell.maxY, m.map { WebMercator.y(latitude: $0.lat) }.max(), what)
                XCTAssertEqual(cell.sumX, m.map { WebMercator.x(longitude: $0.lon) }.reduce(0, +), accuracy: 1e-12 * Double(m.count), what)
                XCTAssertEqual(cell.sumY, m.map { WebMercator.y(latitude: $0.lat) }.reduce(0, +), accuracy: 1e-12 * Double(m.count), what)
                XCTAssertEqual(cell.totalSum ?? .nan, m.map(\.mag).reduce(0, +), accuracy: 1e-9, what)
            }
        }
    }
}

/// A pan asks only for the cells the last view at its zoom did not count: the answer equals a
/// fresh source's; the kept view goes with the data.
extension PostGISSourceTests {
    func testAPannedViewReusesTheLastViewsCellsAndEqualsAFreshQuery() throws {
        var o = PostGISViewOptions()
        o.algorithm = .grid
        for total in [nil, "mag"] {
            o.total = total
            let src = try source(), fresh = try source()
            // Zoom 6 over Europe, then panned a third east and south, west, a box inside that one,
            // and far away.
            let boxes = [GeoBounds(west: -5, south: 40, east: 20, north: 55), GeoBounds(west: 3, south: 36, east: 28, north: 51),
                         GeoBounds(west: -12, south: 36, east: 13, north: 51), GeoBounds(west: -8, south: 40, east: 8, north: 48),
                         GeoBounds(west: 140, south: -40, east: 165, north: -25)]
            for (i, box) in boxes.enumerated() {
                let before = src.connection.statementCount
                let got = try src.clusters(in: box, zoom: 6.5, options: o).items
                let asked = src.connection.statementCount - before
                fresh.forgetAggregates()
                let want = try fresh.clusters(in: box, zoom: 6.5, options: o).items
                func sorted(_ v: [PostGISItem]) -> [PostGISItem] { v.sorted { ($0.id ?? 0, $0.count) < ($1.id ?? 0, $1.count) } }
                XCTAssertEqual(got.count, want.count, "view \(i) total \(total ?? "-")")
                for (a, b) in zip(sorted(got), sorted(want)) {
                    XCTAssertEqual(a.id, b.id, "view \(i)")
                    XCTAssertEqual(a.count, b.count, "view \(i)")
                    XCTAssertEqual(a.expansionZoom, b.expansionZoom, "view \(i)")
                    XCTAssertEqual(a.coordinate.latitude, b.coordinate.latitude, accuracy: 1e-9, "view \(i)")
                    XCTAssertEqual(a.coordinate.longitude, b.coordinate.longitude, accuracy: 1e-9, "view \(i)")
                    XCTAssertEqual(a.totalSum ?? 0, b.totalSum ?? 0, accuracy: 1e-9, "view \(i)")
                    XCTAssertEqual(a.totalSum == nil, b.totalSum == nil, "view \(i)")
                    XCTAssertEqual(a.totalMax, b.totalMax, "view \(i)")
                }
                // A pan asks for its new strips; a view inside the last one asks nothing.
                if i == 3 { XCTAssertEqual(asked, 0, "inside the last view: all kept") }
                if i == 1 || i == 2 { XCTAssertGreaterThan(asked, 0) }
            }
            XCTAssertEqual(src.lastViews.count, 1)
            src.forgetAggregates()
            XCTAssertEqual(src.lastViews.count, 0, "a change of the data drops the kept view")
        }
    }

    func testPiecesCoverARectangleOutsideItsInnerPartOnce() {
        var rng = SplitMix(seed: 7)
        for _ in 0..<500 {
            func r(_ n: UInt64) -> UInt64 { rng.next() % n }
            let x0 = r(20), y0 = r(20), outer = (ix: x0...(x0 + r(12)), iy: y0...(y0 + r(12)))
            let a = outer.ix.lowerBound + r(UInt64(outer.ix.count)), b = outer.iy.lowerBound + r(UInt64(outer.iy.count))
            let inner = (ix: a...(a + r(outer.ix.upperBound - a + 1)), iy: b...(b + r(outer.iy.upperBound - b + 1)))
            var seen: [UInt64: Int] = [:]
            for p in PostGISSource.pieces(of: outer, outside: inner) {
                for x in p.ix { for y in p.iy { seen[y << 32 | x, default: 0] += 1 } }
            }
            for x in outer.ix {
                for y in outer.iy {
                    XCTAssertEqual(seen[y << 32 | x] ?? 0, inner.ix.contains(x) && inner.iy.contains(y) ? 0 : 1, "\(outer) \(inner) at \(x),\(y)")
                }
            }
            XCTAssertEqual(seen.count, outer.ix.count * outer.iy.count - inner.ix.count * inner.iy.count)
        }
    }
}
