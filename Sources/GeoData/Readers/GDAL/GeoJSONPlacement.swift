import CGDAL

/// Where a GeoJSON feature's non-point geometry (LineString, Polygon, MultiPolygon,
/// GeometryCollection…) is shown: OGR reads the geometry's JSON text and `WKBPlacement` places
/// it by the same rule as a geometry read through GDAL (a line's middle, a point inside a
/// polygon), so a polygon shows at the same spot from a .geojson as from a GeoPackage.
enum GeoJSONPlacement {
    /// Appends the placement point(s) of the geometry object in `p[start..<end]`; nil when GDAL is
    /// not installed (the feature is then skipped as a geometry that can't be placed).
    static func place(_ p: UnsafePointer<UInt8>, from start: Int, to end: Int,
                      xs: inout [Double], ys: inout [Double]) -> WKBPlacement.Kind? {
        guard GDALLibrary.isAvailable, end > start else { return nil }
        var text = [CChar](repeating: 0, count: end - start + 1)
        text.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(start: p + start, count: end - start)) }
        // GDAL's complaints about a geometry it can't build stay out of stderr: the skip is counted.
        return GDALMessages.capturing { _ -> WKBPlacement.Kind in
            // OGR builds no geometry without usable coordinates (a Polygon with none, rings of one position).
            guard let g = gdal.OGR_G_CreateGeometryFromJson!(text) else { return .empty }
            defer { gdal.OGR_G_DestroyGeometry!(g) }
            if gdal.OGR_G_IsEmpty!(g) != 0 { return .empty }
            var wkb = [UInt8](repeating: 0, count: Int(gdal.OGR_G_WkbSize!(g)))
            guard gdal.OGR_G_ExportToIsoWkb!(g, wkbNDR, &wkb) == OGRERR_NONE else { return .invalid }
            return wkb.withUnsafeBytes { WKBPlacement.place($0, xs: &xs, ys: &ys) }
        }
    }
}
