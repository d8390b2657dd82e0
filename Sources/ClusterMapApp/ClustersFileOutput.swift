// Before Foundation (which re-exports Glibc): `stdout` is a C global Swift 6 can't check; the
// commands name it on the main thread only.
@preconcurrency import Glibc
import Foundation
import GeoData

// `clustermap clusters … --output FILE`: the clusters (and points) of the box and zoom saved to a
// file instead of printed, as GeoJSON, CSV or GeoPackage by the file's extension (issue 30 item 7).
//
// Kept out of ClustersCommand.swift (one hook line there): the command writes its GeoJSON to
// standard output, so for the run it is pointed at a temporary file beside the output, which is
// then renamed (GeoJSON) or translated by GDAL (CSV, GeoPackage). The output appears whole or not
// at all.

/// Runs `clusters` with `--output FILE` (nil when there is no `--output`: the command prints).
enum ClustersFileOutput {
    static func intercept(_ args: [String]) -> Int32? {
        guard let k = args.firstIndex(of: "--output") else { return nil }
        guard k + 1 < args.count else { return fail("--output needs a FILE", status: 2) }
        let output = args[k + 1]
        guard let format = GDALExport.Format(path: output) else {
            return fail("--output: '\(MessageText.excerpt(output))' must end in .geojson, .csv or .gpkg", status: 2)
        }
        var rest = args
        rest.removeSubrange(k...(k + 1))
        if rest.contains("--output") { return fail("one --output only", status: 2) }

        let folder = (output as NSString).deletingLastPathComponent
        let temporary = (folder.isEmpty ? "." : folder) + "/.clustermap-\(getpid()).geojson"
        defer { unlink(temporary) }
        // Standard output goes to the temporary file for the command's run.
        fflush(stdout)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            return fail("\(MessageText.excerpt(output)): cannot write the file: \(String(cString: strerror(errno)))", status: 1)
        }
        let saved = dup(STDOUT_FILENO)
        dup2(fd, STDOUT_FILENO)
        close(fd)
        let status = runClustersCommand(rest)
        fflush(stdout)
        dup2(saved, STDOUT_FILENO)
        close(saved)
        guard status == 0 else { return status }
        do {
            let layer = (PointSetLoader.displayName(of: output) as NSString).deletingPathExtension
            try GDALExport.translate(geoJSON: temporary, to: output, format: format, layerName: layer.isEmpty ? "clusters" : layer)
        } catch {
            return fail("\(error)", status: 1)
        }
        return 0
    }

    private static func fail(_ message: String, status: Int32) -> Int32 {
        ErrorOutput.write("clustermap clusters", message)
        return status
    }
}
