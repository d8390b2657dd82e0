import ClusterCore
import Foundation

extension PostGISSource {
    /// Whether the pyramid serves a view: unfiltered, without totals or with one it holds, the cells it was built for.
    func usesPyramid(_ o: PostGISViewOptions, zoom: Double) -> Bool {
        guard let p = pyramid, !zoom.isNaN else { return false }
        let maxZoom = min(max(o.gridMaxZoom, 0), 30), minZoom = min(max(o.gridMinZoom, 0), maxZoom)
        let z = zoom <= Double(minZoom) ? minZoom : (zoom >= Double(maxZoom + 1) ? maxZoom + 1 : Int(zoom.rounded(.down)))
        return p.cellSize == o.cellSize && z <= min(p.maxZoom, maxZoom) && !o.isFiltered && p.serves(total: o.total, mostCommon: o.totalIsMostCommon)
            && o.minCountForClustering <= 2
    }

    /// The first zoom after `zoom` at which points spanning `x` and `y` (unit Web Mercator) lie in
    /// more than one cell — where a grid cluster splits, as `GridClusterer.expansionZoom` says —
    /// or `maxZoom + 1` (every point alone) when they never do.
    static func gridExpansionZoom(x: (Double, Double), y: (Double, Double), zoom: Int, maxZoom: Int,
                                  options: PostGISViewOptions) -> Int {
        var z = zoom + 1
        while z <= maxZoom {
            let (cu, width) = gridCell(zoom: z, options: options)
            func ix(_ v: Double) -> UInt64 { min(UInt64(max(v, 0) / cu), width - 1) }
            func iy(_ v: Double) -> UInt64 { UInt64(max(v, 0) / cu) }
            if ix(x.0) != ix(x.1) || iy(y.0) != iy(y.1) { return z }
            z += 1
        }
        return maxZoom + 1
    }

    /// The grid clusterer's cells for a zoom: unit side and key width (as `GridClusterer` makes them).
    static func gridCell(zoom z: Int, options: PostGISViewOptions) -> (unit: Double, width: UInt64) {
        let worldPixels = 256 * pow(2, Double(z))
        var unit = options.cellSize / worldPixels
        if !(unit > 0) || !unit.isFinite { unit = 64 / worldPixels }
        unit = max(unit, 1.0 / Double(1 << 26))
        return (unit, UInt64(1 / unit) + 2)
    }

    /// The view's grid clusters, counted by the server in one GROUP BY per query box; equal to
    /// `GridClusterer`'s items in the box (same cells, counts, mean positions, lone points).
    func gridClusters(in bounds: GeoBounds, zoom: Double, options o: PostGISViewOptions, sql: ViewSQL) throws -> PostGISViewResult {
        guard !zoom.isNaN else { return PostGISViewResult(items: [], method: .aggregated(cells: 0), seconds: 0) }
        let maxZoom = min(max(o.gridMaxZoom, 0), 30), minZoom = min(max(o.gridMinZoom, 0), maxZoom)
        let z = zoom <= Double(minZoom) ? minZoom : (zoom >= Double(maxZoom + 1) ? maxZoom + 1 : Int(zoom.rounded(.down)))
        var items: [PostGISItem] = []
        if z > maxZoom {
            // Nothing clusters: the view's points themselves.
            try forEachBox(bounds) { w, s, e, n in
                let r = try connection.query(sql.fetchSQL(limit: 10 * o.fetchLimit), ViewSQL.boxValues(w, s, e, n) + sql.filterValues)
                for i in 0..<r.rowCount { items.append(point(r, i)) }
            }
            return PostGISViewResult(items: items, method: .fetched(points: items.count), seconds: 0)
        }
        let (cu, width) = Self.gridCell(zoom: z, options: o)
        var cellCount = 0
        let pyramid = usesPyramid(o, zoom: zoom) ? self.pyramid?.reading(total: o.total) : nil
        try forEachBox(bounds) { w, s, e, n in
            let minX = WebMercator.x(longitude: w), maxX = WebMercator.x(longitude: e)
            let minY = WebMercator.y(latitude: n), maxY = WebMercator.y(latitude: s)
            let ix0 = min(UInt64(max(0, minX / cu)), width - 1), ix1 = min(UInt64(max(0, maxX / cu)), width - 1)
            let iy0 = UInt64(max(0, minY / cu)), iy1 = UInt64(max(0, maxY / cu))
            // The cells' whole area (so every cell's count is complete), a hair wider for rounding;
            // the key range (below) keeps the result exact.
            let (west, south, east, north) = Self.cellBox(ix: ix0...ix1, iy: iy0...iy1, unit: cu)
            let cells: [PostGISGridCell]
            if let pyramid {
                cells = PostGISGridCell.pyramidCells(of: try connection.query(pyramid.cellsSQL(), ["\(z)", "\(ix0)", "\(ix1)", "\(iy0)", "\(iy1)"]))
            } else {
                // From the cells of a whole-world pass at a finer zoom when kept (or worth making),
                // else the server counts the cells' box (only the part the last view at this zoom
                // didn't); both hold cells just outside the key range (the box's rounding margin):
                // left out here.
                let all = try rolledUpCells(zoom: z, ix: ix0...ix1, iy: iy0...iy1, options: o, sql: sql)
                    ?? askedCells(zoom: z, ix: ix0...ix1, iy: iy0...iy1, options: o, sql: sql)
                cells = all.filter { $0.ix >= ix0 && $0.ix <= ix1 && $0.iy >= iy0 && $0.iy <= iy1 }
            }
            cellCount += cells.count
            func inView(_ x: Double, _ y: Double) -> Bool { x >= minX && x <= maxX && y >= minY && y <= maxY }
            var fewIX: [String] = [], fewIY: [String] = []
            for c in cells {
                let n = c.count
                if n >= o.minCountForClustering {
                    let mx = c.sumX / Double(n), my = c.sumY / Double(n)
                    guard inView(mx, my) else { continue }
                    let key = Int64(c.iy * width + c.ix)
                    // The cell's extent (not kept in a pyramid) gives the zoom it splits at.
                    let expansion = c.hasExtent
                        ? Self.gridExpansionZoom(x: c.xRange, y: (c.minY, c.maxY), zoom: z, maxZoom: maxZoom, options: o) : nil
                    items.append(PostGISItem(coordinate: WebMercator.unproject(x: mx, y: my), count: n, isCluster: true,
                                             id: key * 32 + Int64(z + 1), totalSum: c.totalSum, totalMin: c.totalMin,
                                             totalMax: c.totalMax, totalCount: c.totalCount, expansionZoom: expansion).withValues(of: c))
                } else if n == 1 {
                    let p = PostGISItem(coordinate: GeoCoordinate(latitude: c.minLatitude, longitude: c.minLongitude), count: 1,
                                        isCluster: false, id: c.id, totalSum: c.totalSum, totalMin: c.totalSum, totalMax: c.totalSum,
                                        totalCount: c.totalCount).withValues(of: c)
                    if inView(WebMercator.x(longitude: c.minLongitude), WebMercator.y(latitude: c.minLatitude)) { items.append(p) }
                } else {
                    fewIX.append("\(c.ix)")
                    fewIY.append("\(c.iy)")
                }
            }
            // Cells with too few points to cluster (only when min points > 2): their points.
            if !fewIX.isEmpty {
                let rows = try connection.query(sql.cellRowsSQL(), ViewSQL.boxValues(west, south, east, north) + sql.filterValues
                    + ["\(cu)", "\(width)", "{" + fewIX.joined(separator: ",") + "}", "{" + fewIY.joined(separator: ",") + "}"])
                for i in 0..<rows.rowCount {
                    let p = point(rows, i)
                    if inView(WebMercator.x(longitude: p.coordinate.longitude), WebMercator.y(latitude: p.coordinate.latitude)) {
                        items.append(p)
                    }
                }
            }
        }
        return PostGISViewResult(items: items, method: pyramid == nil ? .aggregated(cells: cellCount) : .pyramid(cells: cellCount),
                                 seconds: 0)
    }

    /// A lone point from a row (columns lon, lat, t, id unless told otherwise).
    func point(_ r: PostgresResult, _ i: Int, lon: Int = 0, lat: Int = 1, id: Int = 3, total: Int = 2) -> PostGISItem {
        // A most-common total reads the column as text: the place's value.
        let value = r.isText(total) ? r.text(i, total) : nil
        let t = r.isText(total) ? nil : r.double(i, total)
        return PostGISItem(coordinate: GeoCoordinate(latitude: r.double(i, lat) ?? .nan, longitude: r.double(i, lon) ?? .nan),
                           count: 1, isCluster: false, id: r.integer(i, id), totalSum: t, totalMin: t, totalMax: t,
                           totalCount: t == nil ? 0 : 1, mostCommon: value, mostCommonCount: value == nil ? nil : 1)
    }
}
