// Putting the chunks of a parallel scan (`ParallelScan`) back together in file order.
extension GeoJSONReader {
    /// Reads the `features` array (from `pos`, its first element) in chunks on every core, then
    /// merges them as if read front to back: a chunk counts only if the one before it ended
    /// exactly where it starts; one that doesn't is read again here.
    mutating func parseFeaturesInParallel(_ scan: ParallelScan, chunks starts: [Int]) throws {
        let run = scan.start(p, end: end, starts: starts)
        defer { run.finish() }
        let arrayStart = pos
        var chunkReader: GeoJSONReader?
        var index = 0
        for k in run.chunks.indices {
            let chunk = run.waitFor(k, reader: &chunkReader)
            if pos == chunk.start && chunk.isUsable {
                if let cut = chunk.error as? Truncation {
                    // The last chunk ends in the cut: its whole features count, as read in one go.
                    if chunk.builder != nil { builder.append(chunk.builder!, positionBase: index) }
                    if let r = chunk.report { report.append(r, positionBase: index) }
                    run.recycle(&chunk.builder)
                    throw cut.shifted(by: index)
                }
                if let e = chunk.error { throw GeoJSONReader.shifted(e, by: index) }
                if k == 1 { reserveForArray(from: arrayStart, readTo: pos) }
                if chunk.builder != nil { builder.append(chunk.builder!, positionBase: index) }
                if let r = chunk.report { report.append(r, positionBase: index) }
                run.recycle(&chunk.builder)
                index += chunk.count
                pos = chunk.end
                if chunk.closed { break }
                ticker.skip(to: pos)
            } else {
                // A cut that was not a feature boundary (or a chunk dropped after a failure that
                // this turns out to precede): read on from here to the next chunk's start.
                run.recycle(&chunk.builder)
                let run = try parseFeatureRun(firstIndex: index, stopAt: chunk.stop)
                index += run.count
                if run.closed { break }
            }
        }
        report.itemsRead += index
    }

    /// Makes room for all the array's points once the first chunk has shown how many points its
    /// bytes hold, so that merging never reallocates (a copy of everything merged so far). The
    /// room beyond what is filled is never touched, so it costs address space, not memory.
    mutating func reserveForArray(from start: Int, readTo position: Int) {
        guard position > start else { return }
        let perByte = Double(builder.coordinates.count) / Double(position - start)
        let expected = perByte * Double(end - start) * 1.25 + 1024
        builder.reserve(Int(min(expected, 2e9)))
    }

    /// A chunk's error, with its feature number counted from the start of the array.
    static func shifted(_ error: Error, by base: Int) -> Error {
        guard var e = error as? GeoDataError, let i = e.featureIndex else { return error }
        e.featureIndex = i + base
        return e
    }
}
