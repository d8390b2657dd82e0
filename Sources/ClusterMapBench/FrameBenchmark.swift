// Placeholder: replaced by the MapRender work.
func runFrameBenchmark(_ args: [String]) { print("frame: not yet") }
func runBaseMapBenchmark(_ args: [String]) { print("basemap: not yet") }
