import CGDAL

/// GDAL's functions, from libgdal loaded on first use (`cgdal.h` says why it is not linked).
/// Every path into GDAL goes through `GDALReader.register(for:)` first, which checks
/// `GDALLibrary.isAvailable`.
let gdal: CMGDALFunctions = cm_gdal(nil).pointee

enum GDALLibrary {
    /// Whether libgdal and every function ClusterMap uses were found.
    static let isAvailable: Bool = {
        var loaded: Int32 = 0
        _ = cm_gdal(&loaded)
        return loaded != 0
    }()
}

/// A C string GDAL returned, as text ("" for NULL).
func gdalText(_ p: UnsafePointer<CChar>?) -> String {
    p.map { String(cString: $0) } ?? ""
}
