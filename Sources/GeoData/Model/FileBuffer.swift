#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's bytes followed by zero padding, so scanners can read a few bytes past the end.
///
/// Two kinds of storage:
/// - **mapped** (`map(fd:size:)`, regular files): the file is mapped read-only, never copied. Its
///   pages come from the page cache as the scanner reaches them, and `release(upTo:)` gives them
///   back behind the scanner, so a 1 GB file costs little resident memory. The bytes stay
///   reachable for decoding properties later (`isUnchanged` says whether that is still safe).
///   A file truncated by another program *while it is being scanned* is still a bus error: that
///   window lasts as long as the scan (seconds for a gigabyte); files below
///   `InputReader.mapThreshold` (live-data files, typically) are copied and never exposed.
/// - **malloc'ed** (streams, bytes in memory): a stream of unknown length grows in place
///   (`realloc`) while it is read.
final class FileBuffer: @unchecked Sendable {
    /// Padding after the content: enough for any look-ahead the scanners do.
    static let padding = 16
    /// Content bytes (excluding padding).
    let count: Int
    private let storage: UnsafeMutablePointer<UInt8>
    /// Mapped storage: the whole region (file pages, then anonymous zero pages), and the file.
    private let mappedLength: Int
    private let file: MappedFile?

    /// What identifies the mapped file's content: if any of it changes, the mapping may no longer
    /// hold the bytes that were scanned (or, truncated, may not be readable at all).
    private struct MappedFile {
        let fd: Int32
        let size: Int
        let modified: timespec
        let inode: UInt
    }

    /// Immutable after `init`, hence Sendable.
    init(count: Int, fill: (UnsafeMutableBufferPointer<UInt8>) throws -> Int) rethrows {
        let s = FileBuffer.allocate(count + FileBuffer.padding)
        do {
            let n = try fill(UnsafeMutableBufferPointer(start: s, count: count))
            self.count = n
            (s + n).initialize(repeating: 0, count: count + FileBuffer.padding - n)
        } catch {
            free(s)
            throw error
        }
        storage = s
        mappedLength = 0
        file = nil
    }

    /// Takes over `storage` (from `allocate` / `realloc`, at least `count + padding` bytes) and
    /// zeroes the padding.
    init(adopting storage: UnsafeMutablePointer<UInt8>, count: Int) {
        (storage + count).initialize(repeating: 0, count: FileBuffer.padding)
        self.storage = storage
        self.count = count
        mappedLength = 0
        file = nil
    }

    private init(mapped region: UnsafeMutablePointer<UInt8>, length: Int, count: Int, file: MappedFile) {
        storage = region
        mappedLength = length
        self.count = count
        self.file = file
    }

    convenience init(bytes: [UInt8]) {
        self.init(count: bytes.count) { dst in
            _ = dst.initialize(from: bytes)
            return bytes.count
        }
    }

    deinit {
        if let file {
            munmap(storage, mappedLength)
            close(file.fd)
        } else {
            free(storage)
        }
    }

    /// Maps the regular file open at `fd` (`size` bytes, from `fstat`), followed by zero padding;
    /// takes over `fd` (closed with the buffer). Nil when the system refuses the mapping (then
    /// `fd` is still the caller's).
    static func map(fd: Int32, size: Int, status st: stat) -> FileBuffer? {
        let page = max(Int(sysconf(Int32(_SC_PAGESIZE))), 4096)
        let length = (size + padding + page - 1) / page * page
        let failed = UnsafeMutableRawPointer(bitPattern: -1)
        // Reserve the whole region as anonymous zero pages, then put the file over its start:
        // the bytes after the end of the file read as zeros (the padding), whatever its size.
        guard let region = mmap(nil, length, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), region != failed else { return nil }
        if size > 0 {
            guard let placed = mmap(region, size, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0), placed == region else {
                munmap(region, length)
                return nil
            }
            // Read ahead generously: the scanners go through the file front to back.
            _ = madvise(region, size, MADV_SEQUENTIAL)
        }
        let file = MappedFile(fd: fd, size: size, modified: st.st_mtim, inode: UInt(st.st_ino))
        return FileBuffer(mapped: region.assumingMemoryBound(to: UInt8.self), length: length, count: size, file: file)
    }

    /// `malloc` that never returns nil (a failed allocation is not recoverable here).
    static func allocate(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        guard let p = malloc(max(n, 1)) else { fatalError("out of memory allocating \(n) bytes") }
        return p.assumingMemoryBound(to: UInt8.self)
    }

    /// Start of the bytes; valid for `count + padding` reads while `self` is alive.
    var base: UnsafePointer<UInt8> { UnsafePointer(storage) }

    /// Whether the bytes come from a mapped file.
    var isMapped: Bool { file != nil }

    func withBytes<R>(_ body: (UnsafePointer<UInt8>) throws -> R) rethrows -> R {
        try withExtendedLifetime(self) { try body(base) }
    }

    /// Gives the mapped pages of `from..<to` back to the page cache (they are read again from it
    /// if touched later), so scanning a big file does not make it all resident. No effect on
    /// malloc'ed storage.
    func release(from: Int, to: Int) {
        guard file != nil else { return }
        let page = 4096
        let start = (max(0, from) + page - 1) / page * page
        let end = min(to, count) / page * page
        if end > start { _ = madvise(storage + start, end - start, MADV_DONTNEED) }
    }

    /// Whether reading the bytes is still safe and gives what was scanned: always for malloc'ed
    /// storage; for a mapped file, while the file on disk keeps its size, inode and modification
    /// time. (A file truncated while it is mapped can no longer be read past its new end.)
    var isUnchanged: Bool {
        guard let file else { return true }
        var st = stat()
        guard fstat(file.fd, &st) == 0 else { return false }
        return Int(st.st_size) == file.size && UInt(st.st_ino) == file.inode
            && st.st_mtim.tv_sec == file.modified.tv_sec && st.st_mtim.tv_nsec == file.modified.tv_nsec
    }
}
