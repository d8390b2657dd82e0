// clustermap-bench: release-mode benchmarks that print one JSON line per run (SPEC §8).
// Each subcommand lives in its own file.
let arguments = Array(CommandLine.arguments.dropFirst())
let usage = """
usage: clustermap-bench index FILE.geojson [--max-zoom M]
       clustermap-bench open FILE…
       clustermap-bench generate N OUT.geojson [--seed S]
       clustermap-bench points FILE.geojson OUT.f64
       clustermap-bench frame [--items N] [--scale S] [--frames F] [--png DIR] [--modes a,b]
                              [--tiles FILE.mbtiles|FILE.pmtiles [--at LAT,LON]]
       clustermap-bench basemap
       clustermap-bench update [--points N] [--changes K] [--runs R]
       clustermap-bench filter [--points N] [--runs R]
       clustermap-bench filter-large [--points N] [--runs R]
       clustermap-bench timebar [--points N] [--frames F]
       clustermap-bench filterlive [--points N] [--changes K] [--runs R]
       clustermap-bench tiles [FILE.mbtiles|FILE.pmtiles] [--tile Z/X/Y] [--runs N] [--png DIR]
       clustermap-bench gdal UNIFORM.geojson DIR
       clustermap-bench postgis 'postgresql://…?table=…' [--build-pyramid]
"""
switch arguments.first {
case "index": runIndexBenchmark(Array(arguments.dropFirst()))
case "open": runOpenBenchmark(Array(arguments.dropFirst()))
case "points": runPointsCommand(Array(arguments.dropFirst()))
case "generate": runGenerateCommand(Array(arguments.dropFirst()))
case "frame": runFrameBenchmark(Array(arguments.dropFirst()))
case "update": runUpdateBenchmark(Array(arguments.dropFirst()))
case "filter": runFilterBenchmark(Array(arguments.dropFirst()))
case "filter-large": runLargeFilterBenchmark(Array(arguments.dropFirst()))  // FilterBenchmark+Large.swift
case "timebar": runTimeBarBenchmark(Array(arguments.dropFirst()))
case "filterlive": runFilterLiveBenchmark(Array(arguments.dropFirst()))
case "basemap": runBaseMapBenchmark(Array(arguments.dropFirst()))
case "tiles": runTileBenchmark(Array(arguments.dropFirst()))
case "gdal": runGDALBenchmark(Array(arguments.dropFirst()))
case "postgis": runPostGISBenchmark(Array(arguments.dropFirst()))
default:
    print(usage)
}
