import CGDAL

/// A layer's coordinate system and its conversion to WGS 84 longitude/latitude (issue 30 item 3),
/// through OSR with the traditional GIS axis order (x = longitude / easting) on both sides.
/// Made, used and destroyed on the loading thread.
final class GDALCoordinates {
    private var transformation: OGRCoordinateTransformationH?
    /// Whether the layer declares no CRS at all (its coordinates are taken as degrees, if they can be).
    let isUndeclared: Bool
    /// What the load summary says, e.g. "OSGB36 / British National Grid, EPSG:27700 → WGS 84"; nil for
    /// data already in WGS 84.
    let summary: String?

    init(layer: OGRLayerH, fileName: String) throws {
        guard let declared = gdal.OGR_L_GetSpatialRef!(layer) else {
            isUndeclared = true
            summary = "no coordinate system declared: coordinates read as longitude/latitude"
            return
        }
        isUndeclared = false
        let source = gdal.OSRClone!(declared)!
        let wgs84 = gdal.OSRNewSpatialReference!(nil)!
        defer {
            gdal.OSRDestroySpatialReference!(source)
            gdal.OSRDestroySpatialReference!(wgs84)
        }
        gdal.OSRSetAxisMappingStrategy!(source, OAMS_TRADITIONAL_GIS_ORDER)
        _ = gdal.OSRSetWellKnownGeogCS!(wgs84, "WGS84")
        gdal.OSRSetAxisMappingStrategy!(wgs84, OAMS_TRADITIONAL_GIS_ORDER)
        if gdal.OSRIsSame!(source, wgs84) != 0 {
            summary = nil
            return
        }
        let name = GDALCoordinates.name(of: source)
        guard gdal.OSRIsLocal!(source) == 0, let ct = gdal.OCTNewCoordinateTransformation!(source, wgs84) else {
            throw GeoDataError(kind: .notGeoJSON, fileName: fileName,
                               message: "cannot convert coordinates from \(name) to WGS 84 longitude/latitude")
        }
        transformation = ct
        summary = "\(name) → WGS 84"
    }

    deinit {
        if let transformation { gdal.OCTDestroyCoordinateTransformation!(transformation) }
    }

    /// "OSGB36 / British National Grid, EPSG:27700"; the name alone without an authority code.
    static func name(of srs: OGRSpatialReferenceH) -> String {
        let title = gdal.OSRGetName!(srs).map { MessageText.excerpt(String(cString: $0)) }
        var code: String?
        if let authority = gdal.OSRGetAuthorityName!(srs, nil), let number = gdal.OSRGetAuthorityCode!(srs, nil) {
            code = String(cString: authority) + ":" + String(cString: number)
        }
        switch (title, code) {
        case let (t?, c?): return "\(t), \(c)"
        case let (t?, nil): return t
        case let (nil, c?): return c
        default: return "the file's coordinate system"
        }
    }

    /// Converts points in place; points that can't be converted become NaN.
    func transform(_ xs: inout [Double], _ ys: inout [Double]) {
        guard let ct = transformation, !xs.isEmpty else { return }
        var ok = [Int32](repeating: 0, count: xs.count)
        let chunk = 1 << 20
        xs.withUnsafeMutableBufferPointer { x in
            ys.withUnsafeMutableBufferPointer { y in
                ok.withUnsafeMutableBufferPointer { s in
                    var start = 0
                    while start < x.count {
                        let n = min(chunk, x.count - start)
                        _ = gdal.OCTTransformEx!(ct, Int32(n), x.baseAddress! + start, y.baseAddress! + start, nil, s.baseAddress! + start)
                        start += n
                    }
                }
            }
        }
        for i in 0..<xs.count where ok[i] == 0 || !xs[i].isFinite || !ys[i].isFinite {
            xs[i] = .nan
            ys[i] = .nan
        }
    }
}
