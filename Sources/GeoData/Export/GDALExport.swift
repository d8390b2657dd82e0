import CGDAL
#if canImport(Glibc)
import Glibc
#endif

/// Saving places out in the formats GDAL writes (issue 30 item 7): a GeoJSON file ClusterMap
/// wrote is translated by GDAL's `ogr2ogr` library call into a GeoPackage or CSV.
public enum GDALExport {
    /// The formats places can be saved as, by the output's extension.
    public enum Format: String, Sendable, CaseIterable {
        case geoJSON, csv, geoPackage

        /// The format a file name asks for (`.geojson`/`.json`, `.csv`, `.gpkg`), or nil.
        public init?(path: String) {
            switch GDALFormats.fileExtension(path) {
            case "geojson", "json": self = .geoJSON
            case "csv": self = .csv
            case "gpkg": self = .geoPackage
            default: return nil
            }
        }
    }

    /// Writes the GeoJSON FeatureCollection at `geoJSONPath` as `format` to `outputPath`
    /// (replaced if it exists). CSV gets X/Y columns (longitude, latitude), which ClusterMap's CSV
    /// reader reads back; a GeoPackage gets a table named `layerName` in EPSG:4326.
    /// - Throws: `GeoDataError` naming the output file.
    public static func translate(geoJSON geoJSONPath: String, to outputPath: String, format: Format,
                                 layerName: String) throws {
        let name = PointSetLoader.displayName(of: outputPath)
        guard format != .geoJSON else {
            guard rename(geoJSONPath, outputPath) == 0 else {
                throw GeoDataError(kind: .unreadable, fileName: name, message: "cannot write the file: \(String(cString: strerror(errno)))")
            }
            return
        }
        try GDALReader.register(for: name)
        try GDALMessages.capturing { messages in
            guard let source = gdal.GDALOpenEx!(geoJSONPath, UInt32(GDAL_OF_VECTOR | GDAL_OF_READONLY), nil, nil, nil) else {
                throw GeoDataError(kind: .unreadable, fileName: name, message: "cannot read what was to be saved")
            }
            defer { gdal.GDALClose!(source) }
            var args: [String] = ["-overwrite", "-nln", layerName]
            switch format {
            case .csv: args += ["-f", "CSV", "-lco", "GEOMETRY=AS_XY"]
            case .geoPackage: args += ["-f", "GPKG"]
            case .geoJSON: break
            }
            // The output is replaced whole (a CSV can't be overwritten in place by the driver).
            unlink(outputPath)
            var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
            for a in args { list = gdal.CSLAddString!(list, a) }
            defer { gdal.CSLDestroy!(list) }
            guard let options = gdal.GDALVectorTranslateOptionsNew!(list, nil) else {
                throw GeoDataError(kind: .unreadable, fileName: name, message: "cannot be written")
            }
            defer { gdal.GDALVectorTranslateOptionsFree!(options) }
            var sources: [GDALDatasetH?] = [source]
            var usageError: Int32 = 0
            guard let written = gdal.GDALVectorTranslate!(outputPath, nil, 1, &sources, options, &usageError) else {
                let why = messages.lastFailure.map { $0.replacingPath(outputPath, with: name) } ?? "GDAL could not write it"
                throw GeoDataError(kind: .unreadable, fileName: name, message: "cannot be written: \(MessageText.excerpt(why, limit: 160))")
            }
            gdal.GDALClose!(written)
        }
    }
}
