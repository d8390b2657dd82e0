import Foundation
import PostGIS

// `clustermap pyramid 'postgresql://…?table=…' [--radius CELL_PIXELS] [--max-zoom M] [--total sum:COLUMN]…` (default: the deepest zoom with at most a quarter as many cells as rows)
//
// Builds (or refreshes) the per-zoom aggregate table `<table>_clustermap_pyramid` inside the
// database, with an index, so every later view of the table is one index range scan. Views use it
// automatically when it fits (unfiltered, same cell size, and a total only when the pyramid was
// built with its column: `--total sum:damage` — or mean/min/max, the same columns — keeps each
// cell's count, sum, lowest and highest of `damage`; give it once per column).

/// Runs `clustermap pyramid …`; returns the exit status.
func runPyramidCommand(_ args: [String]) -> Int32 {
    let program = "clustermap pyramid"
    var address: String?
    var cell = 64.0
    var maxZoom: Int?
    var totals: [String] = []
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
        case "--total":
            guard i + 1 < args.count else { ErrorOutput.write(program, "--total needs KIND:COLUMN (sum, mean, min or max)"); return 2 }
            i += 1
            switch pyramidTotalColumn(args[i]) {
            case .success(let column): totals.append(column)
            case .failure(let problem): ErrorOutput.write(program, "--total \(args[i]): \(problem.message)"); return 2
            }
        case "-h", "--help":
            print("usage: clustermap pyramid 'postgresql://…?table=schema.name' [--radius CELL_PIXELS] [--max-zoom M] [--total sum:COLUMN]…")
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
        for column in totals {
            // The table's own words, without the window's "the bubbles show counts".
            if let problem = source.table.totalProblem(kind: .sum, column: column) {
                ErrorOutput.write(program, problem.replacingOccurrences(of: "; the bubbles show counts", with: ""))
                return 2
            }
        }
        let start = Date()
        let cells = try PostGISPyramid.build(for: source, cellSize: cell, maxZoom: maxZoom, totals: totals)
        ErrorOutput.write(program, "\(source.table.displayName): pyramid of \(cells.reduce(0, +)) cells over zooms 0–\(cells.count - 1) "
                          + (totals.isEmpty ? "" : "with totals of \(totals.joined(separator: ", ")) ")
                          + String(format: "built in %.1f s", Date().timeIntervalSince(start)))
        return 0
    } catch {
        ErrorOutput.write(program, "\(error)")
        return 1
    }
}

/// Why a `--total` can't go into a pyramid.
struct PyramidTotalProblem: Error { let message: String }

/// The column of a pyramid's `--total KIND:COLUMN` (sum, mean, min and max keep the same columns;
/// a bare column name is its sum).
func pyramidTotalColumn(_ text: String) -> Result<String, PyramidTotalProblem> {
    guard let colon = text.firstIndex(of: ":") else {
        return text.isEmpty ? .failure(PyramidTotalProblem(message: "no column")) : .success(text)
    }
    let kind = String(text[..<colon]), column = String(text[text.index(after: colon)...])
    guard !column.isEmpty else { return .failure(PyramidTotalProblem(message: "no column after '\(kind):'")) }
    guard ["sum", "mean", "min", "max"].contains(kind) else {
        return .failure(PyramidTotalProblem(message: kind == "most-common"
            ? "a pyramid keeps no most common values (views with it are counted from the table)" : "'\(kind)' is not sum, mean, min or max"))
    }
    return .success(column)
}
