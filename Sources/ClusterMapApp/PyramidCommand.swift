import Foundation
import PostGIS

// `clustermap pyramid 'postgresql://…?table=…' [--radius CELL_PIXELS] [--max-zoom M]` (default: the deepest zoom with at most a quarter as many cells as rows)
//
// Builds (or refreshes) the per-zoom aggregate table `<table>_clustermap_pyramid` inside the
// database, with an index, so every later view of the table is one index range scan. Views use it
// automatically when it fits (unfiltered, same cell size).

/// Runs `clustermap pyramid …`; returns the exit status.
func runPyramidCommand(_ args: [String]) -> Int32 {
    let program = "clustermap pyramid"
    var address: String?
    var cell = 64.0
    var maxZoom: Int?
    var i = 0
    while i < args.count {
        let a = args[i]
        switch a {
        case "--radius", "--max-zoom":
            guard i + 1 < args.count else { ErrorOutput.write(program, "\(a) needs a value"); return 2 }
            i += 1
            if a == "--radius" {
                guard let v = Double(args[i]), v > 0, v.isFinite else { ErrorOutput.write(program, "--radius: '\(args[i])' is not a positive number"); return 2 }
                cell = v
            } else {
                guard let v = Int(args[i]), (0...24).contains(v) else { ErrorOutput.write(program, "--max-zoom: '\(args[i])' is not 0…24"); return 2 }
                maxZoom = v
            }
        case "-h", "--help":
            print("usage: clustermap pyramid 'postgresql://…?table=schema.name' [--radius CELL_PIXELS] [--max-zoom M]")
            return 0
        default:
            guard PostGISAddress.looksLikeAddress(a), address == nil else {
                ErrorOutput.write(program, "'\(a)' is not one postgresql:// address")
                return 2
            }
            address = a
        }
        i += 1
    }
    guard let address else { ErrorOutput.write(program, "no postgresql:// address given"); return 2 }
    do {
        let source = try openPostGISSource(address, statementTimeout: 0, program: program)
        let start = Date()
        let cells = try PostGISPyramid.build(for: source, cellSize: cell, maxZoom: maxZoom)
        ErrorOutput.write(program, "\(source.table.displayName): pyramid of \(cells.reduce(0, +)) cells over zooms 0–\(cells.count - 1) "
                          + String(format: "built in %.1f s", Date().timeIntervalSince(start)))
        return 0
    } catch {
        ErrorOutput.write(program, "\(error)")
        return 1
    }
}
