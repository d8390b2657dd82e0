#if canImport(Glibc)
import Glibc
#endif

/// Allocation of large scratch arrays that are read at random (an index build's per-item state
/// and sort buffers): aligned to 2 MB and, on Linux, marked for transparent huge pages, so that
/// random reads across tens of megabytes miss the TLB far less often. Free with
/// `free(_:count:)`, giving the same count (and the same pool).
///
/// With a `BuildScratchPool`, large buffers come from (and go back to) the pool, and
/// `discardContents` keeps their pages: a pool exists to keep them resident between builds.
enum LargeBuffer {
    /// Below this many bytes the buffer is an ordinary allocation.
    static let hugeThreshold = 4 << 20

    /// Uninitialised room for `count` values of `T`.
    static func allocate<T>(_ type: T.Type, count: Int, pool: BuildScratchPool? = nil) -> UnsafeMutablePointer<T> {
        let bytes = max(count, 1) * MemoryLayout<T>.stride
        if let pool, bytes >= pool.minimumBytes {
            return pool.take(bytes: bytes).bindMemory(to: T.self, capacity: max(count, 1))
        }
        #if canImport(Glibc)
        if bytes >= hugeThreshold {
            var raw: UnsafeMutableRawPointer?
            let huge = 2 << 20
            if posix_memalign(&raw, huge, bytes) == 0, let raw {
                _ = madvise(raw, (bytes + 4095) / 4096 * 4096, MADV_HUGEPAGE)
                return raw.bindMemory(to: T.self, capacity: max(count, 1))
            }
        }
        #endif
        return UnsafeMutablePointer<T>.allocate(capacity: max(count, 1))
    }

    /// Gives the physical pages of a large buffer from `allocate` back to the system while keeping
    /// the allocation: its contents become undefined (zero pages on Linux) and the next write
    /// faults fresh pages in. For scratch that a build's later phases don't read, so that it
    /// doesn't add to the peak while other phases run.
    static func discardContents<T>(_ pointer: UnsafeMutablePointer<T>, count: Int, pool: BuildScratchPool? = nil) {
        #if canImport(Glibc)
        if pool != nil { return }
        let bytes = max(count, 1) * MemoryLayout<T>.stride
        // Only whole pages inside the buffer (2 MB-aligned start; allocator headers lie before it).
        if bytes >= hugeThreshold {
            _ = madvise(UnsafeMutableRawPointer(pointer), bytes / 4096 * 4096, MADV_DONTNEED)
        }
        #endif
    }

    /// Gives back the physical pages of elements `from..<to` of a large buffer of `count` from
    /// `allocate` (whole pages inside the range only), keeping the allocation; their contents
    /// become undefined. For the unused tail of a buffer that shrank, or the part of a scratch
    /// buffer a pass has read for the last time.
    static func discardContents<T>(_ pointer: UnsafeMutablePointer<T>, from: Int, to: Int? = nil, count: Int,
                                   pool: BuildScratchPool? = nil) {
        #if canImport(Glibc)
        if pool != nil { return }
        let bytes = max(count, 1) * MemoryLayout<T>.stride
        let to = min(to ?? count, count)
        guard bytes >= hugeThreshold, from < to else { return }
        let first = (from * MemoryLayout<T>.stride + 4095) / 4096 * 4096, end = to * MemoryLayout<T>.stride / 4096 * 4096
        if first < end {
            _ = madvise(UnsafeMutableRawPointer(pointer) + first, end - first, MADV_DONTNEED)
        }
        #endif
    }

    /// Frees a buffer from `allocate` (with its count).
    static func free<T>(_ pointer: UnsafeMutablePointer<T>, count: Int, pool: BuildScratchPool? = nil) {
        if let pool, pool.give(UnsafeMutableRawPointer(pointer)) { return }
        #if canImport(Glibc)
        if max(count, 1) * MemoryLayout<T>.stride >= hugeThreshold {
            Glibc.free(pointer)
            return
        }
        #endif
        pointer.deallocate()
    }
}
