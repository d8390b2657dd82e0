import Foundation

/// The `basemap/` folder inside a data directory (found with `DataDirectory.locate`).
public enum BaseMapLocation {
    /// `dataDirectory/basemap` when it exists, otherwise `dataDirectory` itself (so callers may
    /// pass either folder).
    public static func basemapFolder(in dataDirectory: URL) -> URL {
        let sub = dataDirectory.appendingPathComponent("basemap")
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: sub.path, isDirectory: &isDir), isDir.boolValue { return sub }
        return dataDirectory
    }

    /// Whether `dir` holds the base map (directly or in `basemap/`).
    public static func holdsBaseMap(_ dir: URL) -> Bool {
        let probe = basemapFolder(in: dir)
            .appendingPathComponent(BaseMap.fileName(layer: "land", level: .coarse))
        return FileManager.default.fileExists(atPath: probe.path)
    }
}
