import ClusterCore

extension PostGISSource {
    /// The zoom whose whole-world cells are kept for coarser views: 64 × 64 cells of 64 px. The
    /// pass's cost grows with its cells (PostgreSQL's hash table) and the first world view pays it;
    /// with cells found by their edges (`PostGISCellBuckets`) the step from zoom 3 to 4 is small
    /// (10M rows, one process: 4.2 s → 4.6–5.3 s CPU; 2 workers at load 10–11 within the noise,
    /// 4.5–7.1 s against 6.0–6.6 s), while a zoom-4 view's own box took 3.9–5.0 s at load 12
    /// (a user's session, `clustermap-bench postgis --session`): zoom 4 is now free after the
    /// first world view. Zoom 5 (16k cells) costs +28–49 %.
    static let rollUpZoom = 4

    /// Drops the kept whole-world cells (the table's rows changed): the next views ask the server.
    public func forgetAggregates() {
        rollUps.forget()
        lastViews.forget()
    }

    /// A zoom's cells summed from the kept whole-world cells of `rollUpZoom` — counted first when
    /// none are kept and the view's key range is at least a quarter of the world's cells (a world
    /// view: one table pass then answers every coarser view, at any place). Nil when the view
    /// should ask the server for its own box: deeper zooms, small views with nothing kept, or cell
    /// units that don't nest (each exactly 2^levels times the finer one, as with one cell size at
    /// every zoom: then a key one zoom up is the finer key halved, bit for bit).
    func rolledUpCells(zoom z: Int, ix: ClosedRange<UInt64>, iy: ClosedRange<UInt64>, options o: PostGISViewOptions,
                       sql: ViewSQL) throws -> [PostGISGridCell]? {
        guard let (key, fine) = rollUpKey(zoom: z, options: o, sql: sql) else { return nil }
        if let kept = rollUps.cells(for: key) { return PostGISGridCell.exactlyRolledUp(kept, levels: fine - z) }
        let unit = Self.gridCell(zoom: z, options: o).unit
        let (fineUnit, fineWidth) = Self.gridCell(zoom: fine, options: o)
        let side = Double(UInt64(1 / unit) + 1)
        guard Double(ix.count) * Double(iy.count) * 4 >= side * side else { return nil }
        let generation = rollUps.generation
        let r = try connection.query(sql.bucketed(o, unit: fineUnit, width: fineWidth, ix: 0...(fineWidth - 1), iy: 0...(fineWidth - 1)).gridSQL(), ViewSQL.boxValues(-180, -90, 180, 90) + sql.filterValues + ["\(fineUnit)", "\(fineWidth)"],
                                     settings: ViewSQL.gridSettings)
        let cells = PostGISGridCell.cells(of: r, width: fineWidth)
        rollUps.keep(cells, for: key, ifStill: generation)
        return PostGISGridCell.exactlyRolledUp(cells, levels: fine - z)
    }

    /// The kept pass's key and zoom for a view at zoom `z` (after the grid's zoom limits), or nil
    /// when its cells can't be summed from one (rolling up off, deeper zooms, units that don't nest).
    func rollUpKey(zoom z: Int, options o: PostGISViewOptions, sql: ViewSQL) -> (key: String, zoom: Int)? {
        let fine = min(Self.rollUpZoom, min(max(o.gridMaxZoom, 0), 30))
        guard o.rollsUp, z >= 0, z <= fine else { return nil }
        guard Self.gridCell(zoom: fine, options: o).unit * Double(1 << (fine - z)) == Self.gridCell(zoom: z, options: o).unit else { return nil }
        return ("\(o.cellSize)\u{0}\(fine)\u{0}" + sql.rowsKey, fine)
    }

    /// Whether a kept pass answers a grid view at `zoom` without asking the server.
    func hasKeptCells(_ o: PostGISViewOptions, zoom: Double, sql: ViewSQL) -> Bool {
        guard !zoom.isNaN, pyramid == nil || !usesPyramid(o, zoom: zoom) else { return false }
        let maxZoom = min(max(o.gridMaxZoom, 0), 30), minZoom = min(max(o.gridMinZoom, 0), maxZoom)
        let z = zoom <= Double(minZoom) ? minZoom : (zoom >= Double(maxZoom + 1) ? maxZoom + 1 : Int(zoom.rounded(.down)))
        return rollUpKey(zoom: z, options: o, sql: sql).map { rollUps.cells(for: $0.key) != nil } ?? false
    }
}
