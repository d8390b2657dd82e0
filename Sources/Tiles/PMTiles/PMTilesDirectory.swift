/// A decoded PMTiles v3 directory: entries sorted by tile id, each pointing at tile data (a run of
/// `runLength` consecutive ids sharing one blob) or, with run length 0, at a leaf directory.
struct PMTilesDirectory: Sendable {
    struct Entry: Sendable, Hashable {
        var tileID: UInt64
        var offset: UInt64
        var length: UInt32
        var runLength: UInt32
    }

    enum DirectoryError: Error, Equatable, CustomStringConvertible {
        case truncated, tooManyEntries, badEntry

        var description: String {
            switch self {
            case .truncated: return "a directory is cut short"
            case .tooManyEntries: return "a directory claims more than \(PMTilesDirectory.maxEntries) entries"
            case .badEntry: return "a directory entry is out of range"
            }
        }
    }

    let entries: [Entry]

    /// Largest entry count accepted. PMTiles writers size leaves so that the root fits in 16 KB:
    /// even a planet's leaves hold some tens of thousands of entries. A 39 KB file whose gzipped
    /// directory claimed 10 million took 565 MB; a million entries decode into 24 MB.
    static let maxEntries = 1_000_000

    init(entries: [Entry]) { self.entries = entries }

    /// Decodes the varint columns: count, id deltas, run lengths, lengths, offsets — straight into
    /// the entries (no column arrays beside them).
    init(decoding bytes: [UInt8]) throws {
        var reader = VarintReader(bytes)
        let count64 = try reader.next()
        // Each entry needs at least one byte in each of its four columns.
        guard count64 <= UInt64(Self.maxEntries), count64 <= UInt64(bytes.count / 4 + 1) else {
            throw DirectoryError.tooManyEntries
        }
        let count = Int(count64)
        var result = [Entry](repeating: Entry(tileID: 0, offset: 0, length: 0, runLength: 0), count: count)
        var last: UInt64 = 0
        for i in 0..<count {
            let (sum, overflow) = last.addingReportingOverflow(try reader.next())
            guard !overflow else { throw DirectoryError.badEntry }
            last = sum
            result[i].tileID = last
        }
        for i in 0..<count {
            let v = try reader.next()
            guard v <= UInt64(UInt32.max) else { throw DirectoryError.badEntry }
            result[i].runLength = UInt32(v)
        }
        for i in 0..<count {
            let v = try reader.next()
            guard v <= UInt64(UInt32.max) else { throw DirectoryError.badEntry }
            result[i].length = UInt32(v)
        }
        for i in 0..<count {
            let v = try reader.next()
            if v == 0 && i > 0 {
                // 0 means "right after the previous entry's data" (clustered archives).
                let (sum, overflow) = result[i - 1].offset.addingReportingOverflow(UInt64(result[i - 1].length))
                guard !overflow else { throw DirectoryError.badEntry }
                result[i].offset = sum
            } else {
                guard v > 0 else { throw DirectoryError.badEntry }
                result[i].offset = v - 1
            }
        }
        entries = result
    }

    /// The entry covering `id`: a tile entry whose run contains it, or the leaf directory entry
    /// whose range may contain it; nil if none.
    func entry(for id: UInt64) -> Entry? {
        // Binary search for the last entry with tileID <= id.
        var lo = 0, hi = entries.count - 1
        var found = -1
        while lo <= hi {
            let mid = (lo + hi) / 2
            if entries[mid].tileID <= id { found = mid; lo = mid + 1 } else { hi = mid - 1 }
        }
        guard found >= 0 else { return nil }
        let e = entries[found]
        if e.runLength == 0 { return e }
        return id - e.tileID < UInt64(e.runLength) ? e : nil
    }
}

/// Reads unsigned LEB128 varints, throwing on truncation or overlong encodings.
struct VarintReader {
    private let bytes: [UInt8]
    private(set) var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func next() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < bytes.count else { throw PMTilesDirectory.DirectoryError.truncated }
            let b = bytes[position]
            position += 1
            guard shift < 64 else { throw PMTilesDirectory.DirectoryError.badEntry }
            result |= UInt64(b & 0x7f) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
        }
    }
}
