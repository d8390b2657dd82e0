#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Reads the `features` array of a big GeoJSON file on every core (issue 14).
///
/// The array is cut into chunks at places that look like the start of a feature (`}` `,` `{`),
/// and each chunk is read by its own `GeoJSONReader` into its own builder, on as many threads
/// as there are cores (the caller's included). Whether a cut really was a feature boundary is
/// only known once the chunk before it has been read: it must end exactly there. The merge
/// (`GeoJSONReader.parseFeaturesInParallel`) takes the chunks in file order, accepts the ones
/// that line up, and reads any that don't (a cut inside a string or a nested object) again on
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
        /// The smallest chunk; there are at most four chunks per thread.
        var chunkBytes = 256 << 10

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
        // A few chunks per thread, so a thread that gets less CPU on a busy machine holds
        // nobody up for long.
        let k = max(2, min(threads * 4, length / max(split.chunkBytes, 1)))
        var starts = [start]
        for j in 1..<k {
            let t = start + length / k * j
            guard t > starts[starts.count - 1], let c = ParallelScan.featureStart(p, from: t, end: end),
                  c > starts[starts.count - 1] else { continue }
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
        /// Not read at all (a chunk before it failed).
        var skipped = false

        init(start: Int, stop: Int) {
            self.start = start
            self.stop = stop
        }

        /// Whether the chunk was read to its end or to a real error.
        var isUsable: Bool { !skipped && !(error is Abandoned) }
    }

    /// Reads every chunk (`starts` from `chunks`) of the array in `p[..<end]`.
    func run(_ p: UnsafePointer<UInt8>, end: Int, starts: [Int]) -> [Chunk] {
        let chunks = starts.indices.map { Chunk(start: starts[$0], stop: $0 + 1 < starts.count ? starts[$0 + 1] : Int.max) }
        let queue = WorkQueue(count: chunks.count)
        let bytes = BytesBox(p)
        let work: @Sendable () -> Void = { [self] in
            while let k = queue.take() {
                let chunk = chunks[k]
                if queue.hasFailed(before: k) { chunk.skipped = true; continue }
                var ticker = ProgressTicker(sink: sink, buffer: buffer, start: chunk.start)
                ticker.isAbandoned = { queue.hasFailed(before: k) }
                var reader = GeoJSONReader(bytes: bytes.p, count: end, fileName: fileName, options: options, ticker: ticker,
                                           expectedBytes: min(end, chunk.stop) - chunk.start)
                reader.pos = chunk.start
                do {
                    let r = try reader.parseFeatureRun(firstIndex: 0, stopAt: chunk.stop)
                    chunk.count = r.count
                    chunk.closed = r.closed
                    chunk.end = reader.pos
                } catch {
                    chunk.error = error
                    if !(error is Abandoned) { queue.fail(k) }
                }
                chunk.builder = reader.builder
                chunk.report = reader.report
            }
        }
        let helpers = min(threads, chunks.count) - 1
        let group = DispatchGroup()
        for _ in 0..<helpers {
            group.enter()
            // Threads of our own (not the dispatch pool's) inherit the loader's lowered priority.
            Thread.detachNewThread {
                work()
                group.leave()
            }
        }
        work()
        group.wait()
        return chunks
    }

    /// Hands out chunk numbers in order and remembers the first that failed.
    private final class WorkQueue: @unchecked Sendable {
        private let lock = NSLock()
        private var next = 0
        private var firstFailed = Int.max
        let count: Int

        init(count: Int) { self.count = count }

        func take() -> Int? {
            lock.lock(); defer { lock.unlock() }
            guard next < count else { return nil }
            next += 1
            return next - 1
        }

        func fail(_ k: Int) {
            lock.lock(); firstFailed = min(firstFailed, k); lock.unlock()
        }

        func hasFailed(before k: Int) -> Bool {
            lock.lock(); defer { lock.unlock() }
            return firstFailed < k
        }
    }

    /// The file's bytes, shared read-only by the threads.
    private struct BytesBox: @unchecked Sendable {
        let p: UnsafePointer<UInt8>
        init(_ p: UnsafePointer<UInt8>) { self.p = p }
    }
}
