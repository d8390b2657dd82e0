// Placeholder: replaced by the ClusterCore work.
func runIndexBenchmark(_ args: [String]) { print("index: not yet") }
func runGenerateCommand(_ args: [String]) { print("generate: not yet") }
