import Foundation
import GeoData

/// Finds the bundled `data/` folder: `$CLUSTERMAP_DATA_DIR`, the installed
/// `<prefix>/share/clustermap/data` beside `<prefix>/bin`, or a development checkout above the binary.
enum AppDataDirectory {
    static let url: URL? = {
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let exePath = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            .map { URL(fileURLWithPath: $0) } ?? exe
        if ProcessInfo.processInfo.environment[BaseMapLocation.environmentVariable] == nil {
            let installed = exePath.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("share/clustermap/data")
            if BaseMapLocation.holdsBaseMap(installed) { return installed }
        }
        return BaseMapLocation.dataDirectory(searchingUpFrom: exePath)
    }()
}
