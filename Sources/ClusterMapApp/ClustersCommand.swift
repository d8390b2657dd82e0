// Placeholder: replaced by the ClusterCore work (`clustermap clusters FILE --zoom Z …`).
func runClustersCommand(_ args: [String]) -> Int32 {
    FileHandleStderr.write("clustermap clusters: not implemented yet\n")
    return 2
}
