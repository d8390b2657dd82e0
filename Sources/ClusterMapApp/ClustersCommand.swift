import Foundation
// Placeholder: replaced by the ClusterCore work (`clustermap clusters FILE --zoom Z …`).
func runClustersCommand(_ args: [String]) -> Int32 {
    FileHandle.standardError.write("clustermap clusters: not implemented yet\n".data(using: .utf8)!)
    return 2
}
