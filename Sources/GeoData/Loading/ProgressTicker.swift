#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Where the readers of one load report the bytes they have scanned: it adds up what every
/// scanning thread reports, calls `progress` with the fraction done (never going back), and
/// polls for cancellation.
final class ProgressSink: @unchecked Sendable {
    let total: Int
    let progress: (@Sendable (Double) -> Void)?
    let isCancelled: (@Sendable () -> Bool)?
    private let lock = NSLock()
    private var done = 0
    private var shown = 0.0

    init(total: Int, progress: (@Sendable (Double) -> Void)?, isCancelled: (@Sendable () -> Bool)?) {
        self.total = max(total, 1)
        self.progress = progress
        self.isCancelled = isCancelled
    }

    /// Whether anyone listens (else the readers tick only to give back pages).
    var isObserved: Bool { progress != nil || isCancelled != nil }

    /// Adds `bytes` scanned; throws `CancellationError` when the load was cancelled.
    func add(_ bytes: Int) throws {
        if isCancelled?() == true { throw CancellationError() }
        guard let progress else { return }
        lock.lock()
        defer { lock.unlock() }
        done += bytes
        let f = min(1, Double(done) / Double(total))
        if f >= shown {   // under the lock, so the fractions reported never go back
            shown = f
            progress(f)
        }
    }

    /// The load is complete.
    func finish() { progress?(1) }
}

/// A reader's view of the progress: every ~1% of the file it hands the bytes scanned since the
/// last step to the `ProgressSink`, and gives the mapped pages behind it back to the page cache.
struct ProgressTicker {
    let step: Int
    var next: Int
    /// Position up to which scanned bytes were reported.
    private var reported: Int
    let sink: ProgressSink?
    /// A mapped file, whose pages behind the scan are given back.
    private let buffer: FileBuffer?
    private var released: Int
    /// Set by a parallel scan: true when this reader's work is no longer needed.
    var isAbandoned: (@Sendable () -> Bool)?

    /// A ticker for a reader starting at byte `start` (a chunk of a parallel scan starts later).
    init(sink: ProgressSink, buffer: FileBuffer, start: Int = 0) {
        step = max(sink.total / 100, 4096)
        self.sink = sink
        self.buffer = buffer.isMapped ? buffer : nil
        reported = start
        released = start
        next = (sink.isObserved || buffer.isMapped) ? start + step : Int.max
    }

    /// A ticker that reports nothing (reading one record again).
    static var none: ProgressTicker { ProgressTicker() }

    private init() {
        step = Int.max
        next = Int.max
        reported = 0
        sink = nil
        buffer = nil
        released = 0
    }

    /// Call often; cheap unless a step boundary was crossed.
    @inline(__always)
    mutating func tick(_ position: Int) throws {
        if position >= next { try report(position) }
    }

    mutating func report(_ position: Int) throws {
        while next <= position { next += step }
        if isAbandoned?() == true { throw ParallelScan.Abandoned() }
        try sink?.add(position - reported)
        reported = position
        if let buffer, position - released >= ProgressTicker.releaseBytes {
            // A little behind the scan: readers may look back a few bytes.
            let upTo = position - ProgressTicker.releaseMargin
            buffer.release(from: released, to: upTo)
            released = upTo
        }
    }

    /// Reports everything up to `position` and gives back all the pages before it: the reader's
    /// part of the file (a chunk of a parallel scan, often shorter than a step) is done.
    mutating func flush(_ position: Int) throws {
        if sink != nil && position > reported {
            try sink?.add(position - reported)
            reported = position
        }
        if let buffer, position > released {
            buffer.release(from: released, to: position)
            released = position
        }
    }

    /// Moves on to `position` without reporting: the bytes before it were reported (and their
    /// pages given back) by another reader (a chunk of a parallel scan).
    mutating func skip(to position: Int) {
        reported = max(reported, position)
        released = max(released, position)
        while next <= position { next += step }
    }

    /// How much scanned file is let resident before it is given back, and how far behind.
    static let releaseBytes = 4 << 20
    static let releaseMargin = 1 << 20
}
