import Foundation
import CGtk

/// Minimal stderr writer (unbuffered).
enum FileHandleStderr {
    static func write(_ s: String) { FileHandle.standardError.write(s.data(using: .utf8)!) }
}

let argv = CommandLine.arguments
if argv.count > 1 && argv[1] == "clusters" {
    exit(runClustersCommand(Array(argv.dropFirst(2))))
}
print("clustermap")
