#if canImport(Glibc)
import Glibc
#endif

/// Saves loaded places (issue 30 item 7, SPEC §4.1) as GeoJSON, CSV or GeoPackage by the output's
/// extension: one Point feature per place with its properties (its file's or layer's name in
/// `source` when several are shown together), written as GeoJSON by us and translated by GDAL.
public enum PlacesExport {
    /// Writes the places of `sets` that `includes(set, point)` admits (all when nil) to `path`.
    /// The file appears whole or not at all (written beside it, then renamed or translated).
    /// - Returns: how many places were written.
    /// - Throws: `GeoDataError` naming the output file (an unknown extension, an unwritable folder).
    @discardableResult
    public static func write(_ sets: [PointSet], to path: String, includes: ((Int, Int) -> Bool)? = nil) throws -> Int {
        let name = PointSetLoader.displayName(of: path)
        guard let format = GDALExport.Format(path: path) else {
            throw GeoDataError(kind: .unreadable, fileName: name, message: "can only be saved as .geojson, .csv or .gpkg")
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? "./"
        let temporary = folder + ".clustermap-save-\(getpid()).geojson"
        defer { unlink(temporary) }
        guard let file = fopen(temporary, "w") else {
            throw GeoDataError(kind: .unreadable, fileName: name, message: "cannot write the file: \(String(cString: strerror(errno)))")
        }
        var written = 0
        var out = "{\"type\":\"FeatureCollection\",\"features\":["
        func flush() {
            _ = out.withCString { fputs($0, file) }
            out.removeAll(keepingCapacity: true)
        }
        for (s, set) in sets.enumerated() {
            var source = ""
            if sets.count > 1 { JSONStringDecoder.appendJSONString(set.sourceName, to: &source) }
            for i in 0..<set.count where includes?(s, i) ?? true {
                out += written == 0 ? "\n" : ",\n"
                var props = set.propertiesJSON(at: i)
                if !source.isEmpty {
                    props = props == "{}" ? "{\"source\":\(source)}" : "{\"source\":\(source)," + props.dropFirst()
                }
                let c = set.coordinates[i]
                out += "{\"type\":\"Feature\",\"properties\":\(props),\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(c.longitude),\(c.latitude)]}}"
                written += 1
                if out.utf8.count > 1 << 20 { flush() }
            }
        }
        out += "\n]}\n"
        flush()
        guard fclose(file) == 0 else {
            throw GeoDataError(kind: .unreadable, fileName: name, message: "cannot write the file: \(String(cString: strerror(errno)))")
        }
        let stem = String(name.split(separator: ".").first ?? "places")
        try GDALExport.translate(geoJSON: temporary, to: path, format: format, layerName: stem.isEmpty ? "places" : stem)
        return written
    }
}
