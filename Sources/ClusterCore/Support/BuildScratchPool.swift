import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Large scratch blocks (`LargeBuffer`s: a build's slot items, sort buffers and centres) kept
/// between the filtered builds of one data set, so that a build reuses the pages the previous
/// one wrote instead of having the kernel fault in and zero fresh ones (at 10M points about a
/// quarter of a filtered build's CPU went to that).
///
/// The price is memory: while a pool holds blocks they stay resident (builds using it also skip
/// `LargeBuffer.discardContents`). So a pool keeps at most as many idle bytes as its builds had
/// in use at once (`peakBytesInUse`: "sized to what the builds need"), exists only while a filter
/// is in use (`PreparedPoints` owns one: a data change drops it), and `release()` gives every
/// idle block back (the filter engine calls it when the filter is cleared). A full index build
/// never uses one: its peak stays as `LargeBuffer` keeps it.
///
/// Thread-safe: grouped subsets build in parallel from one pool.
public final class BuildScratchPool: @unchecked Sendable {
    private struct Block {
        let pointer: UnsafeMutableRawPointer
        let bytes: Int
    }

    private let lock = NSLock()
    /// Blocks no build is using, ascending by size.
    private var idle: [Block] = []
    /// Blocks in use (by start address) and their sizes.
    private var inUse: [UInt: Int] = [:]
    private var inUseBytes = 0
    private var peakInUse = 0
    /// How many blocks were handed out again rather than made (tests check the pool is used).
    private var reuses = 0
    /// Smaller buffers are ordinary allocations (tests lower it to pool small builds' buffers).
    /// Set before the pool's first use.
    var minimumBytes = LargeBuffer.hugeThreshold

    public init() {}

    deinit {
        for block in idle { Self.freeBlock(block.pointer) }
    }

    /// The bytes held by idle blocks (resident between builds).
    public var idleBytes: Int { lock.withLock { idle.reduce(0) { $0 + $1.bytes } } }

    /// The most bytes builds had in use at once so far.
    public var peakBytesInUse: Int { lock.withLock { peakInUse } }

    /// How many blocks were reused so far.
    public var reuseCount: Int { lock.withLock { reuses } }

    /// Gives every idle block back to the system (blocks in use come back idle when freed).
    public func release() {
        let blocks: [Block] = lock.withLock {
            defer { idle = [] }
            return idle
        }
        for block in blocks { Self.freeBlock(block.pointer) }
    }

    /// Room for `bytes` (2 MB-aligned, huge pages advised): the smallest idle block that holds
    /// them, else a new one. Give it back with `give`.
    func take(bytes: Int) -> UnsafeMutableRawPointer {
        lock.lock()
        if let k = idle.firstIndex(where: { $0.bytes >= bytes }) {
            let block = idle.remove(at: k)
            noteInUse(block)
            reuses += 1
            lock.unlock()
            return block.pointer
        }
        lock.unlock()
        let block = Block(pointer: Self.makeBlock(bytes: bytes), bytes: bytes)
        lock.withLock { noteInUse(block) }
        return block.pointer
    }

    /// Takes back a block from `take` (false, doing nothing, for any other pointer). Idle
    /// blocks past what builds had in use at once are freed, smallest first (the big ones are
    /// what the next build of the data set needs).
    func give(_ pointer: UnsafeMutableRawPointer) -> Bool {
        var surplus: [Block] = []
        lock.lock()
        guard let bytes = inUse.removeValue(forKey: UInt(bitPattern: pointer)) else {
            lock.unlock()
            return false
        }
        inUseBytes -= bytes
        let block = Block(pointer: pointer, bytes: bytes)
        idle.insert(block, at: idle.firstIndex { $0.bytes >= bytes } ?? idle.count)
        var idleBytes = idle.reduce(0) { $0 + $1.bytes }
        while idleBytes > peakInUse, let smallest = idle.first {
            idle.removeFirst()
            idleBytes -= smallest.bytes
            surplus.append(smallest)
        }
        lock.unlock()
        for block in surplus { Self.freeBlock(block.pointer) }
        return true
    }

    /// Overwrites every idle block with `byte` (tests: a build must not depend on what the
    /// previous one left in its scratch).
    func scribbleIdle(_ byte: UInt8) {
        lock.withLock {
            for block in idle { block.pointer.initializeMemory(as: UInt8.self, repeating: byte, count: block.bytes) }
        }
    }

    private func noteInUse(_ block: Block) {
        inUse[UInt(bitPattern: block.pointer)] = block.bytes
        inUseBytes += block.bytes
        peakInUse = max(peakInUse, inUseBytes)
    }

    private static func makeBlock(bytes: Int) -> UnsafeMutableRawPointer {
        #if canImport(Glibc)
        var raw: UnsafeMutableRawPointer?
        let huge = 2 << 20
        if posix_memalign(&raw, huge, bytes) == 0, let raw {
            _ = madvise(raw, (bytes + 4095) / 4096 * 4096, MADV_HUGEPAGE)
            return raw
        }
        #endif
        return UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
    }

    private static func freeBlock(_ pointer: UnsafeMutableRawPointer) {
        #if canImport(Glibc)
        Glibc.free(pointer)
        #else
        pointer.deallocate()
        #endif
    }
}
