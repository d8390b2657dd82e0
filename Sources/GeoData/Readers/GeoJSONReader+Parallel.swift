// Putting the chunks of a parallel scan (`ParallelScan`) back together in file order.
extension GeoJSONReader {
    /// Reads the `features` array (from `pos`, its first element) in chunks on every core, then
    /// merges them as if read front to back: a chunk counts only if the one before it ended
    /// exactly where it starts; one that doesn't is read again here.
    mutating func parseFeaturesInParallel(_ scan: ParallelScan, chunks starts: [Int]) throws {
        let chunks = scan.run(p, end: end, starts: starts)
        var index = 0
        for chunk in chunks {
            if pos == chunk.start && chunk.isUsable {
                if let e = chunk.error { throw GeoJSONReader.shifted(e, by: index) }
                if let b = chunk.builder { builder.append(b, positionBase: index) }
                if let r = chunk.report { report.append(r, positionBase: index) }
                chunk.builder = nil   // its memory goes as soon as it has been copied
                index += chunk.count
                pos = chunk.end
                if chunk.closed { break }
                ticker.skip(to: pos)
            } else {
                // A cut that was not a feature boundary (or a chunk dropped after a failure that
                // this turns out to precede): read on from here to the next chunk's start.
                chunk.builder = nil
                let run = try parseFeatureRun(firstIndex: index, stopAt: chunk.stop)
                index += run.count
                if run.closed { break }
            }
        }
        report.itemsRead += index
    }

    /// A chunk's error, with its feature number counted from the start of the array.
    static func shifted(_ error: Error, by base: Int) -> Error {
        guard var e = error as? GeoDataError, let i = e.featureIndex else { return error }
        e.featureIndex = i + base
        return e
    }
}
