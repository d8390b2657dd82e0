import ClusterCore

extension PostGISSource {
    /// The server's cells of key range `ix` × `iy` at zoom `z`, asking only for what the last grid
    /// view at this zoom (same cell size, filters and total) did not already count: a cell holds
    /// the same rows whatever box it was asked in (the box has every cell's whole area), so the
    /// cells where the two ranges overlap are kept and only the rest — after a pan, a strip along
    /// one or two sides — is asked for, each as its own box, when that costs less than asking for
    /// the whole box again. The kept view is
    /// dropped with the kept whole-world cells (`forgetAggregates`: the data changed), and a view
    /// asked before a change is not kept.
    func askedCells(zoom z: Int, ix: ClosedRange<UInt64>, iy: ClosedRange<UInt64>, options o: PostGISViewOptions,
                    sql: ViewSQL) throws -> [PostGISGridCell] {
        let key = "\(o.cellSize)\u{0}\(z)\u{0}" + sql.rowsKey
        let generation = lastViews.generation
        var cells: [PostGISGridCell] = []
        var missing = [(ix: ix, iy: iy)]
        if let kept = lastViews.cellsInRange(for: key), let oix = Self.overlap(kept.ix, ix), let oiy = Self.overlap(kept.iy, iy) {
            let pieces = Self.pieces(of: (ix, iy), outside: (oix, oiy))
            let missingShare = 1 - Double(oix.count * oiy.count) / Double(ix.count * iy.count)
            // Each box costs about a third of a whole view's query however small it is: where a
            // table's rows aren't stored by place, a box's rows lie on most of its pages (10M random
            // rows, zoom 5 at load 10: the view's box 1.4–1.8 s, a strip of a third of it 0.7–0.9 s).
            // So the pieces are asked only when they cost less than the whole box: one strip, or two
            // making less than half of it.
            if Double(pieces.count) / 3 + missingShare * 2 / 3 < 1 {
                cells = kept.cells.filter { oix.contains($0.ix) && oiy.contains($0.iy) }
                missing = pieces
            }
        }
        let (cu, width) = Self.gridCell(zoom: z, options: o)
        for piece in missing {
            let (w, s, e, n) = Self.cellBox(ix: piece.ix, iy: piece.iy, unit: cu)
            let asked = PostGISGridCell.cells(of: try connection.query(
                sql.bucketed(o, unit: cu, width: width, ix: piece.ix, iy: piece.iy).gridSQL(),
                ViewSQL.boxValues(w, s, e, n) + sql.filterValues + ["\(cu)", "\(width)"], settings: ViewSQL.gridSettings), width: width)
            cells += asked.filter { piece.ix.contains($0.ix) && piece.iy.contains($0.iy) }
        }
        lastViews.keep(cells, for: key, ifStill: generation, range: (ix, iy))
        return cells
    }

    /// The WGS 84 box holding cells `ix` × `iy` whole (a hair wider for rounding: the caller keeps
    /// only the range's keys): west, south, east, north.
    static func cellBox(ix: ClosedRange<UInt64>, iy: ClosedRange<UInt64>, unit cu: Double) -> (Double, Double, Double, Double) {
        let eps = 1e-9
        let west = ix.lowerBound == 0 ? -180 : WebMercator.longitude(x: Double(ix.lowerBound) * cu) - eps
        let east = min(180, WebMercator.longitude(x: Double(ix.upperBound + 1) * cu) + eps)
        let north = iy.lowerBound == 0 ? 90 : min(90, WebMercator.latitude(y: Double(iy.lowerBound) * cu) + eps)
        let south = Double(iy.upperBound + 1) * cu >= 1 ? -90 : max(-90, WebMercator.latitude(y: Double(iy.upperBound + 1) * cu) - eps)
        return (west, south, east, north)
    }

    /// Where two key ranges overlap, or nil.
    static func overlap(_ a: ClosedRange<UInt64>, _ b: ClosedRange<UInt64>) -> ClosedRange<UInt64>? {
        a.overlaps(b) ? max(a.lowerBound, b.lowerBound)...min(a.upperBound, b.upperBound) : nil
    }

    /// The rectangle `r` without `inner` (inside it): the rows above and below it across the whole
    /// width, then the columns left and right of it beside it; none overlap.
    static func pieces(of r: (ix: ClosedRange<UInt64>, iy: ClosedRange<UInt64>), outside inner: (ix: ClosedRange<UInt64>, iy: ClosedRange<UInt64>))
        -> [(ix: ClosedRange<UInt64>, iy: ClosedRange<UInt64>)] {
        var out: [(ix: ClosedRange<UInt64>, iy: ClosedRange<UInt64>)] = []
        if inner.iy.lowerBound > r.iy.lowerBound { out.append((r.ix, r.iy.lowerBound...(inner.iy.lowerBound - 1))) }
        if inner.iy.upperBound < r.iy.upperBound { out.append((r.ix, (inner.iy.upperBound + 1)...r.iy.upperBound)) }
        if inner.ix.lowerBound > r.ix.lowerBound { out.append((r.ix.lowerBound...(inner.ix.lowerBound - 1), inner.iy)) }
        if inner.ix.upperBound < r.ix.upperBound { out.append(((inner.ix.upperBound + 1)...r.ix.upperBound, inner.iy)) }
        return out
    }
}
