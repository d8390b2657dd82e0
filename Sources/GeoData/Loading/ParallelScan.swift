#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Reads the `features` array of a big GeoJSON file on every core (issue 14).
///
/// The array is cut into chunks at places that look like the start of a feature (`}` `,` `{`),
/// and each chunk is read into a builder of its own, on as many threads as there are cores (the
/// caller's included). Whether a cut really was a feature boundary is only known once the chunk
/// before it has been read: it must end exactly there. The merge
/// (`GeoJSONReader.parseFeaturesInParallel`) takes the chunks in file order as they finish,
/// accepts the ones that line up, and reads any that don't (a cut inside a string or a nested object) again on
/// the caller's thread — so the points, the skips and the first error (with its position and
/// feature number) are exactly those of one reader going front to back.
///
/// A chunk that fails makes the threads drop the chunks after it (they can't matter unless
/// that error turns out to come from a bad cut), so a file broken early stops early.
final class ParallelScan: @unchecked Sendable {
    /// Thrown inside a chunk that is no longer needed.
    struct Abandoned: Error {}

    /// How a scan is split (tests split small inputs finely).
    struct Options: Sendable {
        /// Threads reading, the caller's included (1: no parallel scan).
        var threads = ProcessInfo.processInfo.activeProcessorCount
        /// Feature arrays smaller than this are read by one thread.
        var minimumBytes = 8 << 20
        /// About how long a chunk is: small enough that its points stay in the cache until
        /// they are merged and that no thread waits long for another, big enough that cutting
        /// and starting chunks costs nothing.
        var chunkBytes = 4 << 20

        static var standard: Options { Options() }
    }

    let buffer: FileBuffer
    let options: LoadOptions
    let sink: ProgressSink
    let fileName: String
    let split: Options

    init(buffer: FileBuffer, options: LoadOptions, sink: ProgressSink, fileName: String, split: Options) {
        self.buffer = buffer
        self.options = options
        self.sink = sink
        self.fileName = fileName
        self.split = split
    }

    var threads: Int { split.threads }

    /// Where the chunks of the array elements in `start..<end` begin (the first at `start`), or
    /// nil when the array is too small to be worth splitting or no cut was found.
    func chunks(_ p: UnsafePointer<UInt8>, from start: Int, to end: Int) -> [Int]? {
        let length = end - start
        guard threads > 1, length >= max(split.minimumBytes, 2) else { return nil }
        let k = max(2, length / max(split.chunkBytes, 1))
        var starts = [start]
        for j in 1..<k {
            let t = start + length / k * j
            let found = ParallelScan.featureStart(p, from: t, end: end)
            // The pages searched go back at once: in a file with long stretches that hold no
            // cut (a huge file broken early, mostly zeros), a search per chunk would otherwise
            // make hundreds of megabytes of it resident.
            buffer.release(from: t, to: found ?? min(end, t + ParallelScan.searchBytes))
            guard t > starts[starts.count - 1], let c = found, c > starts[starts.count - 1] else { continue }
            starts.append(c)
        }
        return starts.count > 1 ? starts : nil
    }

    /// How far past a chosen place a cut is looked for.
    static let searchBytes = 1 << 20

    /// The first `{` at or after `from` that follows `}` and `,` (white space between them
    /// allowed): the start of an element after a feature, unless it is inside a string or a
    /// nested value, which the merge finds out.
    static func featureStart(_ p: UnsafePointer<UInt8>, from: Int, end: Int) -> Int? {
        var i = from
        let limit = min(end, from + searchBytes)
        while i < limit {
            guard let hit = memchr(p + i, Int32(UInt8(ascii: "{")), limit - i) else { return nil }
            i = UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - p
            var j = i - 1
            while j > from && isBlank(p[j]) { j -= 1 }
            if j > from && p[j] == UInt8(ascii: ",") {
                j -= 1
                while j > from && isBlank(p[j]) { j -= 1 }
                if j >= from && p[j] == UInt8(ascii: "}") { return i }
            }
            i += 1
        }
        return nil
    }

    @inline(__always)
    private static func isBlank(_ c: UInt8) -> Bool { c == 32 || c == 10 || c == 13 || c == 9 }

    /// One chunk's result.
    final class Chunk: @unchecked Sendable {
        let start: Int
        /// Where the next chunk starts (`Int.max` for the last).
        let stop: Int
        var builder: PointSetBuilder?
        var report: LoadReport?
        var count = 0
        var closed = false
        var end = 0
        var error: Error?
        /// Not read at all (a chunk before it failed, or the scan was stopped).
        var skipped = false
        /// Read (or skipped); set under the run's lock.
        var done = false

        init(start: Int, stop: Int) {
            self.start = start
            self.stop = stop
        }

        /// Whether the chunk was read to its end or to a real error.
        var isUsable: Bool { !skipped && !(error is Abandoned) }
    }

    /// Starts reading the chunks (`starts` from `chunks`) of the array in `p[..<end]` on the
    /// helper threads; the caller takes them in order with `Run.waitFor`, reading chunks itself
    /// while it waits, and must call `Run.finish`.
    func start(_ p: UnsafePointer<UInt8>, end: Int, starts: [Int]) -> Run {
        let run = Run(scan: self, bytes: BytesBox(p), end: end, starts: starts)
        let helpers = min(threads, starts.count) - 1
        for _ in 0..<helpers {
            run.group.enter()
            // Threads of our own (not the dispatch pool's) inherit the loader's lowered priority.
            Thread.detachNewThread {
                var reader = run.makeReader()
                while let k = run.take() { run.read(k, with: &reader) }
                run.group.leave()
            }
        }
        return run
    }

    /// A scan under way. Chunks are handed out in file order; each is read by one reader (kept
    /// per thread, so a layout learnt in one chunk serves the next) into a builder from a small
    /// pool. The caller merges the chunks in order as they finish, so their points are copied
    /// while they are still in the cache, the builders go back to the pool at once, and no copy
    /// of all the points is left for the end (issue 14: at 10M points that copy was a tenth of
    /// the load, on one core, into freshly zeroed pages).
    final class Run: @unchecked Sendable {
        let chunks: [Chunk]
        let group = DispatchGroup()
        private let scan: ParallelScan
        private let bytes: BytesBox
        private let end: Int
        private let condition = NSCondition()
        private var next = 0
        private var firstFailed = Int.max
        private var stopped = false
        private var spare: [PointSetBuilder] = []

        fileprivate init(scan: ParallelScan, bytes: BytesBox, end: Int, starts: [Int]) {
            self.scan = scan
            self.bytes = bytes
            self.end = end
            chunks = starts.indices.map { Chunk(start: starts[$0], stop: $0 + 1 < starts.count ? starts[$0 + 1] : Int.max) }
        }

        /// Chunk `k`, once it has been read; the caller reads other chunks while it waits.
        func waitFor(_ k: Int, reader: inout GeoJSONReader?) -> Chunk {
            condition.lock()
            while !chunks[k].done {
                if next < chunks.count {
                    let j = next
                    next += 1
                    condition.unlock()
                    if reader == nil { reader = makeReader() }
                    read(j, with: &reader!)
                    condition.lock()
                } else {
                    condition.wait()
                }
            }
            condition.unlock()
            return chunks[k]
        }

        /// Stops handing out chunks, abandons those being read, and waits for the helpers.
        func finish() {
            condition.lock()
            stopped = true
            condition.unlock()
            group.wait()
        }

        /// Gives a merged chunk's builder back for the next chunk.
        func recycle(_ builder: inout PointSetBuilder?) {
            guard var b = builder else { return }
            builder = nil
            b.removeAll()
            condition.lock()
            spare.append(b)
            condition.unlock()
        }

        fileprivate func take() -> Int? {
            condition.lock()
            defer { condition.unlock() }
            guard next < chunks.count, !stopped else { return nil }
            next += 1
            return next - 1
        }

        private func isAbandoned(_ k: Int) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            return stopped || firstFailed < k
        }

        fileprivate func makeReader() -> GeoJSONReader {
            GeoJSONReader(bytes: bytes.p, count: end, fileName: scan.fileName, options: scan.options, ticker: .none,
                          expectedBytes: 0)
        }

        private func spareBuilder() -> PointSetBuilder {
            condition.lock()
            defer { condition.unlock() }
            if let b = spare.popLast() { return b }
            let bytes = chunks.count > 1 ? chunks[1].start - chunks[0].start : scan.split.chunkBytes
            return PointSetBuilder(wantsNumeric: scan.options.numericProperty != nil, capacityHint: bytes / 100 + 16)
        }

        /// Reads chunk `k` with `reader` and marks it done.
        fileprivate func read(_ k: Int, with reader: inout GeoJSONReader) {
            let chunk = chunks[k]
            if isAbandoned(k) {
                chunk.skipped = true
            } else {
                var ticker = ProgressTicker(sink: scan.sink, buffer: scan.buffer, start: chunk.start)
                ticker.isAbandoned = { [unowned self] in self.isAbandoned(k) }
                reader.ticker = ticker
                reader.builder = spareBuilder()
                reader.report = LoadReport(unit: .features)
                reader.pos = chunk.start
                do {
                    let r = try reader.parseFeatureRun(firstIndex: 0, stopAt: chunk.stop)
                    chunk.count = r.count
                    chunk.closed = r.closed
                    chunk.end = reader.pos
                    // Progress and the pages behind the chunk, which may be shorter than a tick.
                    try reader.ticker.flush(reader.pos)
                } catch {
                    chunk.error = error
                }
                chunk.builder = reader.builder
                chunk.report = reader.report
                reader.builder = PointSetBuilder(wantsNumeric: false, capacityHint: 0)
            }
            condition.lock()
            if let e = chunk.error, !(e is Abandoned) { firstFailed = min(firstFailed, k) }
            chunk.done = true
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The file's bytes, shared read-only by the threads.
    fileprivate struct BytesBox: @unchecked Sendable {
        let p: UnsafePointer<UInt8>
        init(_ p: UnsafePointer<UInt8>) { self.p = p }
    }
}
