#if canImport(Glibc)
import Glibc
#endif

/// Which files go to GDAL (issue 30 item 1): our own GeoJSON/NDJSON/CSV readers stay the default
/// for those formats (they are faster); everything else GDAL recognises goes to it.
public enum GDALFormats {
    /// Extensions of the formats read through GDAL (also the file chooser's filter).
    public static let suffixes = ["gpkg", "shp", "shz", "zip", "kml", "kmz", "gpx", "fgb", "gml", "gdb", "tab", "mif",
                                  "sqlite", "spatialite", "db", "gpkg.zip", "dbf", "xml", "osm", "ods", "xlsx",
                                  "mapml", "gmt", "vrt", "jml", "svg", "gtm", "gxt", "ntf", "e00", "dxf", "dgn"]

    /// Extensions our own readers take (`PointSetLoader.format`).
    static let ownSuffixes = ["geojson", "json", "geojsons", "geojsonl", "geojsonseq", "ndjson", "jsonl", "csv", "tsv"]

    /// Whether `path` is read through GDAL: a `.gdb` folder (File Geodatabase), a GDAL extension, or
    /// contents that start like a SQLite database, zip, FlatGeobuf, shapefile or XML document.
    public static func readsThroughGDAL(_ path: String) -> Bool {
        guard path != "-" else { return false }
        let ext = fileExtension(path)
        if ownSuffixes.contains(ext) { return false }
        var st = stat()
        guard stat(path, &st) == 0 else { return suffixes.contains(ext) }
        // A File Geodatabase is a folder; any other folder is not a file (our reader says so).
        if st.st_mode & S_IFMT == S_IFDIR { return ext == "gdb" }
        if suffixes.contains(ext) || path.lowercased().hasSuffix(".shp.zip") { return true }
        guard st.st_mode & S_IFMT == S_IFREG else { return false }
        return startsLikeGDALFile(path)
    }

    /// Whether a file's first bytes are those of a format only GDAL reads here.
    static func startsLikeGDALFile(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 64)
        let n = read(fd, &head, head.count)
        guard n >= 4 else { return false }
        let h = Array(head[0..<n])
        func starts(_ s: [UInt8]) -> Bool { h.count >= s.count && Array(h[0..<s.count]) == s }
        if starts(Array("SQLite format 3".utf8)) || starts([0x50, 0x4B, 0x03, 0x04]) || starts([0x66, 0x67, 0x62, 0x03])
            || starts([0x00, 0x00, 0x27, 0x0A]) { return true }
        var i = 0
        if starts([0xEF, 0xBB, 0xBF]) { i = 3 }
        while i < h.count && (h[i] == 32 || h[i] == 9 || h[i] == 10 || h[i] == 13) { i += 1 }
        return i < h.count && h[i] == UInt8(ascii: "<")
    }

    /// Whether our CSV reader found no latitude/longitude columns in a file GDAL may read as
    /// CSV with a WKT geometry column (the text holds a WKT keyword near its start).
    static func mayHoldWKT(_ path: String) -> Bool {
        guard path != "-", isDelimitedText(path) else { return false }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 65536)
        let n = read(fd, &head, head.count)
        guard n > 0 else { return false }
        let text = String(decoding: head[0..<n], as: UTF8.self).uppercased()
        return ["POINT", "LINESTRING", "POLYGON", "MULTIPOINT", "MULTIPOLYGON", "MULTILINESTRING"].contains { text.contains($0 + " (") || text.contains($0 + "(") || text.contains($0 + " Z") }
    }

    /// Whether a zip file's first entry is encrypted (general-purpose flag bit 0): GDAL then sees
    /// no layers, and the honest message is that the file is protected by a password.
    static func isEncryptedZip(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 8)
        guard read(fd, &head, 8) == 8, head[0..<4] == [0x50, 0x4B, 0x03, 0x04] else { return false }
        return head[6] & 1 == 1
    }

    /// The sidecar files a shapefile needs beside it that are missing (".dbf"), checked in both cases.
    static func missingShapefileSidecars(_ path: String) -> [String] {
        guard fileExtension(path) == "shp" else { return [] }
        let stem = String(path.dropLast(4))
        return ["dbf"].filter { ext in
            access(stem + "." + ext, F_OK) != 0 && access(stem + "." + ext.uppercased(), F_OK) != 0
        }.map { "." + $0 }
    }

    /// Whether `path` is a regular file (not standard input, a pipe or a folder) whose text starts
    /// with a JSON object: JSON that is not GeoJSON may be TopoJSON or Esri JSON. (Random bytes
    /// named .geojson are not: they must not load GDAL for nothing.)
    static func startsLikeJSONObject(_ path: String) -> Bool {
        var st = stat()
        guard path != "-", stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return false }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 256)
        let n = read(fd, &head, head.count)
        var i = n >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF ? 3 : 0
        while i < n && (head[i] == 32 || head[i] == 9 || head[i] == 10 || head[i] == 13) { i += 1 }
        return i < n && head[i] == UInt8(ascii: "{")
    }

    /// Whether a path names delimited text (CSV/TSV).
    static func isDelimitedText(_ path: String) -> Bool {
        let ext = fileExtension(path)
        return ext == "csv" || ext == "tsv"
    }

    /// The name GDAL opens: a zip through its virtual file system (`/vsizip/`), others as they are.
    static func gdalPath(_ path: String) -> String {
        let lower = path.lowercased()
        if lower.hasSuffix(".zip") && !lower.hasSuffix(".shp.zip") && !lower.hasSuffix(".gpkg.zip") {
            return "/vsizip/" + path
        }
        return path
    }

    static func fileExtension(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...]).lowercased()
    }
}
