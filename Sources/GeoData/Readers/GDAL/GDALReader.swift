import CGDAL
#if canImport(Glibc)
import Glibc
#endif

/// Opens a file GDAL/OGR reads (GeoPackage, Shapefile, KML/KMZ, GPX, FlatGeobuf, GML, File
/// Geodatabase, MapInfo, SpatiaLite, CSV with WKT…) in process and reads each of its layers
/// that has features into a `PointSet` of its own (issue 30). GDAL's messages are captured
/// (`GDALMessages`), never printed. Synchronous: called on the loader's thread.
enum GDALReader {
    /// GDAL's drivers, registered once (thread-safe lazy global).
    private static let registration: Void = {
        // No PROJ network access, no GDAL debug output.
        gdal.CPLSetConfigOption!("PROJ_NETWORK", "OFF")
        gdal.CPLSetConfigOption!("CPL_DEBUG", "OFF")
        gdal.GDALAllRegister!()
    }()

    /// Loads libgdal and registers its drivers (once).
    /// - Throws: `GeoDataError` naming `fileName` when libgdal is not installed.
    static func register(for fileName: String) throws {
        guard GDALLibrary.isAvailable else {
            throw GeoDataError(kind: .unreadable, fileName: fileName,
                               message: "needs GDAL to be read, and its library (libgdal32) is not installed")
        }
        _ = registration
    }

    /// Reads every layer with features. Several layers: each set is named "file · layer".
    /// - Throws: `GeoDataError` naming the file and what is wrong; `CancellationError`.
    static func load(path: String, name: String, options: LoadOptions,
                     progress: (@Sendable (Double) -> Void)?, isCancelled: (@Sendable () -> Bool)?) throws -> [PointSet] {
        try register(for: name)
        return try GDALMessages.capturing { messages in
            let dataset = try open(path, name: name, messages: messages)
            defer { gdal.GDALClose!(dataset) }
            let layerCount = Int(gdal.GDALDatasetGetLayerCount!(dataset))
            guard layerCount > 0 else {
                if GDALFormats.isEncryptedZip(path) {
                    throw GeoDataError(kind: .unreadable, fileName: name, message: "is protected by a password: ClusterMap can't open encrypted zip files")
                }
                throw GeoDataError(kind: .empty, fileName: name, message: "holds no vector layers")
            }
            var sets: [PointSet] = []
            var anyFeatures = false
            for k in 0..<layerCount {
                guard let layer = gdal.GDALDatasetGetLayer!(dataset, Int32(k)) else { continue }
                let layerName = gdalText(gdal.OGR_L_GetName!(layer))
                var reader = GDALLayerReader(layer: layer, fileName: name, setName: "\(name) · \(layerName)", options: options,
                                             progress: { f in progress?((Double(k) + f) / Double(layerCount)) },
                                             isCancelled: { isCancelled?() ?? false })
                let set = try reader.read()
                if set.report.itemsRead > 0 { anyFeatures = true }
                if set.report.itemsRead > 0 { sets.append(set) }
            }
            guard anyFeatures else {
                throw GeoDataError(kind: .empty, fileName: name, message: "has no features in \(layerCount == 1 ? "its layer" : "any of its \(layerCount) layers")")
            }
            // One layer with features: it is the file (no layer name in its title).
            if sets.count == 1 { sets[0].sourceName = name }
            for missing in GDALFormats.missingShapefileSidecars(path) {
                sets[0].appendWarning("no \(missing) file beside it: the places have no attributes")
            }
            if messages.warningCount > 0, let first = messages.warnings.first {
                let more = messages.warningCount > 1 ? " (and \(formatCount(messages.warningCount - 1)) more)" : ""
                sets[0].appendWarning("GDAL: \(first)\(more)")
            }
            progress?(1)
            return sets
        }
    }

    /// Opens the dataset read-only, or says why it can't.
    private static func open(_ path: String, name: String, messages: GDALMessages) throws -> GDALDatasetH {
        var st = stat()
        guard stat(path, &st) == 0 else {
            throw GeoDataError(kind: .unreadable, fileName: name, message: "cannot open the file: \(String(cString: strerror(errno)))")
        }
        if st.st_mode & S_IFMT == S_IFREG && access(path, R_OK) != 0 {
            throw GeoDataError(kind: .unreadable, fileName: name, message: "cannot open the file: \(String(cString: strerror(errno)))")
        }
        var openOptions: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        defer { gdal.CSLDestroy!(openOptions) }
        if GDALFormats.isDelimitedText(path) {
            // A WKT column under any of its usual names; typed columns like our own CSV reader's.
            openOptions = gdal.CSLAddString!(openOptions, "GEOM_POSSIBLE_NAMES=wkt,wkt_geom,geometry,geom,the_geom,shape")
            openOptions = gdal.CSLAddString!(openOptions, "KEEP_GEOM_COLUMNS=NO")
            openOptions = gdal.CSLAddString!(openOptions, "AUTODETECT_TYPE=YES")
        }
        let flags = UInt32(GDAL_OF_VECTOR | GDAL_OF_READONLY | GDAL_OF_VERBOSE_ERROR)
        let options = UnsafeRawPointer(openOptions).map { $0.assumingMemoryBound(to: UnsafePointer<CChar>?.self) }
        if let ds = gdal.GDALOpenEx!(GDALFormats.gdalPath(path), flags, nil, options, nil) { return ds }
        throw openFailure(path, name: name, messages: messages)
    }

    /// Why GDAL could not open the file, in words about the file (GDAL's own message after).
    private static func openFailure(_ path: String, name: String, messages: GDALMessages) -> GeoDataError {
        let gdal = messages.lastFailure.map { MessageText.excerpt($0.replacingPath(path, with: name), limit: 160) }
        let lower = path.lowercased()
        let what: String
        if gdal == nil || gdal!.contains("not recognized as a supported file format") || gdal!.contains("not recognised") {
            if lower.hasSuffix(".kmz") {
                what = "is a KMZ that holds no KML document"
            } else if lower.hasSuffix(".zip") {
                what = "is a zip file that holds no map data GDAL reads (no shapefile, GeoPackage, KML…)"
            } else {
                what = "is not a map data file ClusterMap reads (GeoJSON, CSV, or a vector format GDAL reads: GeoPackage, Shapefile, KML, GPX, FlatGeobuf…)"
            }
            return GeoDataError(kind: .notGeoJSON, fileName: name, message: what)
        }
        let text = gdal!
        if text.contains("Unable to open") && text.lowercased().contains(".shx") {
            what = "is missing its .shx file (the shapefile's index), which must be beside it"
        } else if text.lowercased().contains("encrypt") || text.lowercased().contains("password") {
            what = "is protected by a password (GDAL: \(text))"
        } else if text.contains("malformed") || text.contains("not a database") || text.contains("truncated") {
            what = "is damaged or truncated (GDAL: \(text))"
        } else {
            what = "cannot be read (GDAL: \(text))"
        }
        return GeoDataError(kind: .syntax, fileName: name, message: what)
    }
}

extension String {
    /// The text with a full path replaced by the file's name (GDAL quotes paths in messages).
    func replacingPath(_ path: String, with name: String) -> String {
        guard !path.isEmpty else { return self }
        var out = self
        for p in [GDALFormats.gdalPath(path), path] {
            while let r = out.range(of: p) { out.replaceSubrange(r, with: name) }
        }
        // Sibling files (a shapefile's .shx) by their names only.
        if let slash = path.lastIndex(of: "/") {
            let folder = String(path[...slash])
            while let r = out.range(of: folder) { out.removeSubrange(r) }
        }
        return out
    }
}
