import ClusterCore
import CGDAL

/// Reads one OGR layer into a `PointSet`: columnar through the layer's Arrow stream where the
/// driver has a fast one (GeoPackage, FlatGeobuf…), feature by feature otherwise
/// (`GDALLayerReader+Features.swift`). Each feature becomes a row of typed attributes and its
/// geometry one point (a MultiPoint several) placed by `WKBPlacement`, converted to WGS 84.
struct GDALLayerReader {
    let layer: OGRLayerH
    /// The file's name, for messages.
    let fileName: String
    /// What the point set is called: the file, or "file · layer" when the file has several.
    let setName: String
    let options: LoadOptions
    /// Called with the fraction of this layer read.
    let progress: (Double) -> Void
    let isCancelled: () -> Bool

    var table = AttributeTable()
    /// Placement points in the layer's CRS, and each one's row (feature index).
    var xs: [Double] = []
    var ys: [Double] = []
    var rows: [Int32] = []
    /// What each placement point stands for (a line, a polygon…): counted once the point is kept.
    var kinds: [WKBPlacement.Kind] = []
    var report = LoadReport(unit: .features)
    /// Expected number of features (−1 when the driver can't tell quickly).
    var expected = -1

    init(layer: OGRLayerH, fileName: String, setName: String, options: LoadOptions,
         progress: @escaping (Double) -> Void, isCancelled: @escaping () -> Bool) {
        self.layer = layer
        self.fileName = fileName
        self.setName = setName
        self.options = options
        self.progress = progress
        self.isCancelled = isCancelled
    }

    /// Whether the layer is read through its Arrow stream.
    var usesArrowStream: Bool { gdal.OGR_L_TestCapability!(layer, "FastGetArrowStream") != 0 }

    mutating func read() throws -> PointSet {
        expected = Int(gdal.OGR_L_GetFeatureCount!(layer, 0))
        let crs = try GDALCoordinates(layer: layer, fileName: fileName)
        if usesArrowStream { try readArrow(crs) } else { try readFeatures(crs) }
        return try finish(crs)
    }

    /// Places one feature's geometry (nil WKB: no geometry) as row `row`.
    mutating func place(_ wkb: UnsafeRawBufferPointer?, row: Int) {
        guard let wkb, wkb.count > 0 else { report.skip(.nullGeometry, at: row); return }
        let before = xs.count
        let kind = WKBPlacement.place(wkb, xs: &xs, ys: &ys)
        switch kind {
        case .point, .line, .polygon, .other: break
        case .empty: report.skip(.noCoordinates, at: row)
        case .invalid: report.skip(.notANumber, at: row)
        }
        for _ in before..<xs.count {
            rows.append(Int32(truncatingIfNeeded: row))
            kinds.append(kind)
        }
    }

    /// Reports progress and stops when cancelled (between batches / every few thousand features).
    func checkpoint() throws {
        if isCancelled() { throw CancellationError() }
        if expected > 0 { progress(min(1, Double(table.rowCount) / Double(expected))) }
    }

    // MARK: Arrow stream

    private mutating func readArrow(_ crs: GDALCoordinates) throws {
        var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        list = gdal.CSLAddString!(list, "GEOMETRY_ENCODING=WKB")
        // The feature id column is asked for and left out here: GDAL 3.6's GeoPackage stream with
        // INCLUDE_FID=NO and no attribute columns gives empty geometries.
        defer { gdal.CSLDestroy!(list) }
        var stream = ArrowArrayStream()
        guard gdal.OGR_L_GetArrowStream!(layer, &stream, list) else { try readFeatures(crs); return }
        defer { stream.release?(&stream) }
        var schema = ArrowSchema()
        guard stream.get_schema(&stream, &schema) == 0 else { throw streamFailure(&stream) }
        defer { schema.release?(&schema) }
        let geometryName = gdal.OGR_L_GetGeometryColumn!(layer).map { String(cString: $0) } ?? ""
        let fidName = gdal.OGR_L_GetFIDColumn!(layer).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "OGC_FID"
        // Which child is the geometry, and which become attribute columns.
        var geometryChild = -1
        var columnOfChild: [Int?] = []
        for c in 0..<Int(schema.n_children) {
            let child = schema.children[c]!
            if geometryChild < 0 && ArrowColumns.isGeometry(child, geometryName: geometryName) {
                geometryChild = c
                columnOfChild.append(nil)
                continue
            }
            let format = String(cString: child.pointee.format)
            if c == 0 && String(cString: child.pointee.name) == fidName { columnOfChild.append(nil); continue }
            guard let kind = ArrowColumns.kind(format: format) else { columnOfChild.append(nil); continue }
            var column = AttributeTable.Column(name: String(cString: child.pointee.name), kind: kind)
            if kind == .dateTime, let colon = format.firstIndex(of: ":") { column.hasTimeZone = format[format.index(after: colon)...] != "" }
            columnOfChild.append(table.columns.count)
            table.columns.append(column)
        }
        markUTCDateTimes()
        while true {
            try checkpoint()
            var batch = ArrowArray()
            guard stream.get_next(&stream, &batch) == 0 else { throw streamFailure(&stream) }
            guard batch.release != nil else { break }
            defer { batch.release?(&batch) }
            let n = Int(batch.length)
            for c in 0..<Int(batch.n_children) {
                guard c < columnOfChild.count, let t = columnOfChild[c] else { continue }
                ArrowColumns.append(schema.children[c]!, batch.children[c]!, to: &table.columns[t])
            }
            let base = table.rowCount
            if geometryChild >= 0 {
                let g = batch.children[geometryChild]!.pointee
                let large = String(cString: schema.children[geometryChild]!.pointee.format) == "Z"
                for i in 0..<n {
                    place(ArrowColumns.isValid(g, i) ? ArrowColumns.bytes(g, i, large: large) : nil, row: base + i)
                }
            } else {
                for i in 0..<n { report.skip(.nullGeometry, at: base + i) }
            }
            table.rowCount += n
        }
    }

    /// GDAL 3.6's Arrow stream gives date-times without their zone (`tsm:`); the first features
    /// that have one say whether the column's values are UTC (GeoPackage's always are, FlatGeobuf's
    /// may be), and then they are marked so ("…Z").
    private mutating func markUTCDateTimes() {
        let defn = gdal.OGR_L_GetLayerDefn!(layer)
        let unmarked = table.columns.indices.filter { table.columns[$0].kind == .dateTime && !table.columns[$0].hasTimeZone }
        guard !unmarked.isEmpty else { return }
        gdal.OGR_L_ResetReading!(layer)
        defer { gdal.OGR_L_ResetReading!(layer) }
        var decided = Set<Int>()
        for _ in 0..<16 {
            guard let f = gdal.OGR_L_GetNextFeature!(layer) else { break }
            defer { gdal.OGR_F_Destroy!(f) }
            for c in unmarked where !decided.contains(c) {
                let field = gdal.OGR_FD_GetFieldIndex!(defn, table.columns[c].name)
                guard field >= 0, gdal.OGR_F_IsFieldSetAndNotNull!(f, field) != 0 else { continue }
                var y: Int32 = 0, m: Int32 = 0, d: Int32 = 0, h: Int32 = 0, mi: Int32 = 0, tz: Int32 = 0
                var sec: Float = 0
                if gdal.OGR_F_GetFieldAsDateTimeEx!(f, field, &y, &m, &d, &h, &mi, &sec, &tz) != 0 {
                    table.columns[c].hasTimeZone = tz == 100
                    decided.insert(c)
                }
            }
            if decided.count == unmarked.count { break }
        }
    }

    private func streamFailure(_ stream: inout ArrowArrayStream) -> GeoDataError {
        let text = stream.get_last_error?(&stream).map { String(cString: $0) } ?? "reading stopped"
        return GeoDataError(kind: .syntax, fileName: fileName,
                            message: "cannot read layer \(layerText): \(MessageText.line(text, limit: 200))")
    }

    /// The layer's name in quotes for messages.
    var layerText: String { "'" + MessageText.excerpt(gdalText(gdal.OGR_L_GetName!(layer))) + "'" }

    // MARK: Points

    /// Converts the placement points to WGS 84 and builds the point set.
    private mutating func finish(_ crs: GDALCoordinates) throws -> PointSet {
        report.itemsRead = table.rowCount
        crs.transform(&xs, &ys)
        if crs.isUndeclared, let example = firstOutOfRange() {
            throw GeoDataError(kind: .notGeoJSON, fileName: fileName,
                               message: "layer \(layerText) declares no coordinate system and its coordinates are not longitude/latitude degrees (e.g. \(example)); add its coordinate system (a .prj file for a shapefile)")
        }
        let categoryColumn = table.column(named: [options.categoryProperty?.lowercased(), "category", "marker-symbol"].compactMap { $0 })
        let numericColumn = options.numericProperty.flatMap { table.column(named: [$0.lowercased()]) }
        var b = PointSetBuilder(wantsNumeric: options.numericProperty != nil, capacityHint: xs.count)
        for i in 0..<xs.count {
            let row = Int(rows[i])
            let x = xs[i], y = ys[i]
            if x.isNaN || y.isNaN { report.skip(.notANumber, at: row); continue }
            guard x >= -180 && x <= 180 && y >= -90 && y <= 90 else { report.skip(.outOfRange, at: row); continue }
            report.placed.count(kinds[i])
            var category: Int32 = -1
            if let text = table.text(row: row, column: categoryColumn) {
                category = b.categories.index(options.categoryLabels[text] ?? text)
            }
            var numeric = Double.nan
            if let c = numericColumn, let v = table.columns[c].value(row).number { numeric = v }
            b.addPoint(GeoCoordinate(latitude: y, longitude: x), offset: row, position: row, category: category, numeric: numeric)
        }
        report.pointsLoaded = b.coordinates.count
        report.warnings += summary(crs)
        let special = AttributeTable.SpecialColumns(table)
        if special.name != nil { b.fields.insert(.name) }
        if special.label != nil { b.fields.insert(.label) }
        if special.description != nil { b.fields.insert(.description) }
        if special.markerColor != nil { b.fields.insert(.markerColor) }
        return PointSet(sourceName: setName, gdal: b, numericPropertyName: options.numericProperty, report: report,
                        table: table, special: special)
    }

    /// The first converted point outside longitude/latitude range, as text.
    private func firstOutOfRange() -> String? {
        var inRange = 0
        var example: String?
        for i in 0..<xs.count where !xs[i].isNaN && !ys[i].isNaN {
            if xs[i] >= -180 && xs[i] <= 180 && ys[i] >= -90 && ys[i] <= 90 { inRange += 1 } else if example == nil {
                example = "\(PropertyFormatting.short(xs[i])), \(PropertyFormatting.short(ys[i]))"
            }
        }
        // Most points out of range: not degrees (a few stray ones are just skipped).
        return example != nil && inRange * 2 < xs.count ? example : nil
    }

    /// What the load summary says about this layer: its CRS (how non-points are shown is said
    /// by `report.placed`, in the same words for GeoJSON).
    private func summary(_ crs: GDALCoordinates) -> [String] {
        crs.summary.map { [$0] } ?? []
    }
}

/// Numbers in messages: integral ones with separators, others with two decimals.
enum PropertyFormatting {
    static func short(_ d: Double) -> String {
        guard d.isFinite else { return "\(d)" }
        if abs(d) >= 1000 { return formatCount(Int(d.rounded())) }
        return String((d * 100).rounded() / 100)
    }
}
