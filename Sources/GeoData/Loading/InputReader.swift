#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file, a pipe, a FIFO or standard input (`-`) into a `FileBuffer`, as a stream: the size
/// is never needed up front (a pipe's is 0), the buffer grows as bytes arrive, and what has
/// arrived is checked at the first megabyte and again at 32 MB, so a file that can't be loaded is
/// rejected without reading (or holding) all of it (issue 15 items 6 and 7). Each check parses
/// the bytes so far again, which is why there are only two, and why the second runs beside the
/// reading: a pipe waits for it at 64 MB (a stream broken in its first 32 MB costs at most 64 MB);
/// a regular file doesn't wait (it is read faster than parsed), and a check still running when the
/// file has been read is dropped.
struct InputReader {
    /// How much is read before `checkStart` looks at it the first time.
    static let checkBytes = 1 << 20
    /// Where `checkStart` looks (bytes read so far).
    static let checkpoints = [checkBytes, 32 << 20]
    /// Bytes per read after the check.
    static let chunkBytes = 8 << 20
    /// Offsets are 32-bit in the point set.
    static let maxBytes = Int(UInt32.max) - 1
    /// How long one wait for a pipe lasts before cancellation is polled again.
    static let pollMilliseconds: Int32 = 100

    let path: String
    let name: String
    /// Called with the bytes read so far while reading a pipe, FIFO or terminal (whose size is
    /// unknown); regular files report progress while they are parsed instead.
    var streamProgress: (@Sendable (Int) -> Void)?
    var isCancelled: (@Sendable () -> Bool)?

    /// The path that means standard input.
    static let standardInputPath = "-"

    /// Looks at a copy of the bytes read so far and throws a fatal error to stop reading.
    typealias Check = @Sendable (_ soFar: FileBuffer, _ isCancelled: @escaping @Sendable () -> Bool) throws -> Void

    /// Regular files from this size on are mapped instead of read (`mapIfRegular`). Smaller ones
    /// are copied (a few milliseconds): their bytes then stay readable whatever happens to the
    /// file on disk, which matters for small files rewritten in place (live data).
    static let mapThreshold = 16 << 20

    /// Maps the input when it is a regular file of at least `threshold` bytes (nil otherwise:
    /// then `read` it). Errors are the ones `read` would report.
    func mapIfRegular(threshold: Int = InputReader.mapThreshold) throws -> FileBuffer? {
        guard path != InputReader.standardInputPath else { return nil }
        let fd = try openInput()
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            close(fd)
            throw failure(.unreadable, "cannot read the file: \(errnoText())")
        }
        let size = Int(st.st_size)
        guard st.st_mode & S_IFMT == S_IFREG, size >= max(threshold, 1) else { close(fd); return nil }
        if size > InputReader.maxBytes { close(fd); throw tooLarge(size) }
        guard let buffer = FileBuffer.map(fd: fd, size: size, status: st) else { close(fd); return nil }
        return buffer
    }

    /// Reads everything. `check` gets a copy of the bytes read so far at each of `checkpoints`
    /// (the first at once, the later ones on another thread) and throws to stop reading.
    func read(check: @escaping Check) throws -> FileBuffer {
        let fd = try openInput()
        defer { if fd != 0 { close(fd) } }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw failure(.unreadable, "cannot read the file: \(errnoText())") }
        let type = st.st_mode & S_IFMT
        if type == S_IFDIR { throw failure(.unreadable, "is a folder, not a file") }
        let isRegular = type == S_IFREG
        let size = isRegular ? Int(st.st_size) : 0
        if size > InputReader.maxBytes { throw tooLarge(size) }

        var capacity = isRegular ? size : InputReader.checkBytes
        var storage = FileBuffer.allocate(capacity + FileBuffer.padding)
        var count = 0
        var nextCheck = 0   // index into `checkpoints`; past the end: no more checks
        var reported = 0
        var background: BackgroundCheck?
        defer { background?.cancel() }
        do {
            while true {
                if isCancelled?() == true { throw CancellationError() }
                if let running = background {
                    if let error = running.failure { throw error }
                    // A pipe doesn't run far ahead of a check that may reject it. A regular file reads
                    // faster than it parses: waiting would add the check to every big load.
                    if !isRegular && count >= 2 * InputReader.checkpoints[nextCheck - 1] {
                        if let error = running.wait() { throw error }
                        background = nil   // passed
                    }
                }
                if nextCheck < InputReader.checkpoints.count && count >= InputReader.checkpoints[nextCheck] {
                    nextCheck += 1
                    // A copy: the buffer may move as it grows.
                    let soFar = FileBuffer(count: count) { dst in
                        dst.baseAddress!.update(from: storage, count: count)
                        return count
                    }
                    if nextCheck == 1 {
                        // A stream that can't be a file at all stops here, whatever the check says.
                        if !isRegular, let e = soFar.withBytes({ StreamStart.problem(in: UnsafeBufferPointer(start: $0, count: count),
                                                                                       fileName: name) }) { throw e }
                        try check(soFar, { false })   // a megabyte: quick
                    } else {
                        background = BackgroundCheck.start { isCancelled in try check(soFar, isCancelled) }
                    }
                    continue
                }
                if count == capacity {
                    // A regular file is usually done here; one small read tells (it may have grown).
                    var probe = [UInt8](repeating: 0, count: 4096)
                    let n = try readSome(fd, &probe, probe.count, waits: !isRegular)
                    if n == 0 { break }
                    if count + n > InputReader.maxBytes { throw tooLarge(count + n) }
                    capacity = min(max(capacity * 2, capacity + n, InputReader.checkBytes), InputReader.maxBytes)
                    storage = try grow(storage, to: capacity + FileBuffer.padding)
                    probe.withUnsafeBytes { (storage + count).update(from: $0.bindMemory(to: UInt8.self).baseAddress!, count: n) }
                    count += n
                    continue
                }
                var want = min(capacity - count, InputReader.chunkBytes)
                // Stop at the next checkpoint (the check above made sure it is ahead).
                if nextCheck < InputReader.checkpoints.count { want = min(want, InputReader.checkpoints[nextCheck] - count) }
                let n = try readSome(fd, storage + count, want, waits: !isRegular)
                if n == 0 { break }
                count += n
                if !isRegular && count - reported >= 1 << 20 {
                    reported = count
                    streamProgress?(count)
                }
            }
        } catch {
            free(storage)
            throw error
        }
        if !isRegular { streamProgress?(count) }
        // A check that already failed decides; one still running is dropped (the full parse that
        // follows finds whatever it would have).
        if let error = background?.failure {
            free(storage)
            throw error
        }
        return FileBuffer(adopting: storage, count: count)
    }

    /// Opens read-only. A FIFO is opened without blocking (no writer yet must not hang the
    /// loader or its cancellation), then read in blocking mode after `poll` says there is data.
    private func openInput() throws -> Int32 {
        if path == InputReader.standardInputPath { return 0 }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw failure(.unreadable, "cannot open the file: \(errnoText())") }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        return fd
    }

    /// Reads up to `n` bytes (0 at the end). For pipes, waits in short polls so that
    /// cancellation is noticed while nothing arrives.
    private func readSome(_ fd: Int32, _ dst: UnsafeMutableRawPointer, _ n: Int, waits: Bool) throws -> Int {
        while true {
            if waits {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let r = poll(&p, 1, InputReader.pollMilliseconds)
                if r == 0 || (r < 0 && errno == EINTR) {
                    if isCancelled?() == true { throw CancellationError() }
                    continue
                }
            }
            let got = Glibc.read(fd, dst, n)
            if got >= 0 { return got }
            if errno == EINTR || errno == EAGAIN { continue }
            throw failure(.unreadable, "cannot read the file: \(errnoText())")
        }
    }

    private func grow(_ p: UnsafeMutablePointer<UInt8>, to n: Int) throws -> UnsafeMutablePointer<UInt8> {
        guard let q = realloc(p, n) else { throw failure(.tooLarge, "not enough memory to read \(formatCount(n / 1_000_000)) MB") }
        return q.assumingMemoryBound(to: UInt8.self)
    }

    private func tooLarge(_ size: Int) -> GeoDataError {
        failure(.tooLarge, "the file is over \(formatCount(size / 1_000_000)) MB; files up to 4 GB can be loaded")
    }

    private func failure(_ kind: GeoDataError.Kind, _ message: String) -> GeoDataError {
        GeoDataError(kind: kind, fileName: name, message: message)
    }

    private func errnoText() -> String { String(cString: strerror(errno)) }
}
