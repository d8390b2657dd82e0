import CGDAL

// The feature-by-feature path, for drivers without a fast Arrow stream (KML, GPX, GML,
// Shapefile in GDAL 3.6, MapInfo…): each feature's fields by type, its geometry as ISO WKB.
extension GDALLayerReader {
    mutating func readFeatures(_ crs: GDALCoordinates) throws {
        gdal.OGR_L_ResetReading!(layer)
        let defn = gdal.OGR_L_GetLayerDefn!(layer)
        var kinds: [(field: Int32, column: Int)] = []
        for i in 0..<gdal.OGR_FD_GetFieldCount!(defn) {
            guard let fd = gdal.OGR_FD_GetFieldDefn!(defn, i) else { continue }
            let type = gdal.OGR_Fld_GetType!(fd)
            let kind: AttributeTable.Kind
            switch type {
            case OFTInteger: kind = gdal.OGR_Fld_GetSubType!(fd) == OFSTBoolean ? .bool : .integer
            case OFTInteger64: kind = .integer
            case OFTReal: kind = .real
            case OFTString, OFTWideString: kind = .text
            case OFTDate: kind = .date
            case OFTDateTime: kind = .dateTime
            case OFTTime: kind = .time
            case OFTIntegerList, OFTInteger64List, OFTRealList, OFTStringList, OFTWideStringList: kind = .list
            default: continue   // binary
            }
            kinds.append((i, table.columns.count))
            table.columns.append(AttributeTable.Column(name: gdalText(gdal.OGR_Fld_GetNameRef!(fd)), kind: kind))
        }
        var wkb = [UInt8](repeating: 0, count: 256)
        while let f = gdal.OGR_L_GetNextFeature!(layer) {
            defer { gdal.OGR_F_Destroy!(f) }
            let row = table.rowCount
            if row & 4095 == 0 { try checkpoint() }
            for (field, c) in kinds {
                guard gdal.OGR_F_IsFieldSetAndNotNull!(f, field) != 0 else { table.columns[c].appendNull(); continue }
                GDALLayerReader.appendField(f, field, to: &table.columns[c])
            }
            if let g = gdal.OGR_F_GetGeometryRef!(f) {
                let size = Int(gdal.OGR_G_WkbSize!(g))
                if wkb.count < size { wkb = [UInt8](repeating: 0, count: size) }
                if gdal.OGR_G_ExportToIsoWkb!(g, wkbNDR, &wkb) == OGRERR_NONE {
                    wkb.withUnsafeBytes { place(UnsafeRawBufferPointer(rebasing: $0[0..<size]), row: row) }
                } else {
                    report.skip(.notANumber, at: row)
                }
            } else {
                place(nil, row: row)
            }
            table.rowCount += 1
        }
        // A read that stopped on an error (a truncated file) is an error, not the end of the layer.
        if gdal.CPLGetLastErrorType!() == CE_Failure, let text = gdal.CPLGetLastErrorMsg!().map({ String(cString: $0) }), !text.isEmpty {
            gdal.CPLErrorReset!()
            throw GeoDataError(kind: .syntax, fileName: fileName,
                               message: "cannot read layer \(layerText) after \(formatCount(table.rowCount)) features: \(MessageText.line(text, limit: 200))")
        }
    }

    /// Static, not a method: a call on `self` would copy the reader (and its columns) while a
    /// column is borrowed inout, and each append would then copy the whole column.
    private static func appendField(_ f: OGRFeatureH, _ i: Int32, to col: inout AttributeTable.Column) {
        switch col.kind {
        case .integer, .bool: col.append(int: gdal.OGR_F_GetFieldAsInteger64!(f, i))
        case .real: col.append(real: gdal.OGR_F_GetFieldAsDouble!(f, i))
        case .text: col.append(text: gdalText(gdal.OGR_F_GetFieldAsString!(f, i)))
        case .date, .dateTime, .time:
            var y: Int32 = 0, m: Int32 = 0, d: Int32 = 0, h: Int32 = 0, mi: Int32 = 0, tz: Int32 = 0
            var s: Float = 0
            guard gdal.OGR_F_GetFieldAsDateTimeEx!(f, i, &y, &m, &d, &h, &mi, &s, &tz) != 0 else { col.appendNull(); return }
            let days = CivilDate.days(year: Int64(y), month: Int64(m), day: Int64(d))
            var ms = Int64(h) * 3_600_000 + Int64(mi) * 60_000 + Int64((Double(s) * 1000).rounded())
            switch col.kind {
            case .date: col.append(int: days)
            case .time: col.append(text: ArrowColumns.timeText(ms))
            default:
                // OGR's zone flag: 100 = UTC, 100 ± n = n quarter hours east/west; 0/1 unknown/local.
                if tz >= 100 {
                    ms -= Int64(tz - 100) * 15 * 60_000
                    col.hasTimeZone = true
                }
                col.append(int: days * 86_400_000 + ms)
            }
        case .list:
            col.append(text: listJSON(f, i, gdal.OGR_Fld_GetType!(gdal.OGR_F_GetFieldDefnRef!(f, i))))
        }
    }

    private static func listJSON(_ f: OGRFeatureH, _ i: Int32, _ type: OGRFieldType) -> String {
        var n: Int32 = 0
        var items: [String] = []
        switch type {
        case OFTIntegerList:
            if let p = gdal.OGR_F_GetFieldAsIntegerList!(f, i, &n) { items = (0..<Int(n)).map { String(p[$0]) } }
        case OFTInteger64List:
            if let p = gdal.OGR_F_GetFieldAsInteger64List!(f, i, &n) { items = (0..<Int(n)).map { String(p[$0]) } }
        case OFTRealList:
            if let p = gdal.OGR_F_GetFieldAsDoubleList!(f, i, &n) {
                items = (0..<Int(n)).map { p[$0].isFinite ? PropertyValue.plainText(p[$0]) : "null" }
            }
        default:
            if let list = gdal.OGR_F_GetFieldAsStringList!(f, i) {
                var k = 0
                while let s = list[k] {
                    var out = ""
                    JSONStringDecoder.appendJSONString(String(cString: s), to: &out)
                    items.append(out)
                    k += 1
                }
            }
        }
        return "[" + items.joined(separator: ",") + "]"
    }
}
