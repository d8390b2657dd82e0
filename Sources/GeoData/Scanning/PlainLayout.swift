/// A `FeatureLayout` with no property the reader keeps (no name, label, category, numeric
/// value, …), compiled for the fastest read: a list of pieces, each "these fixed bytes, then
/// one value". Generated point files (`{"type":"Feature","properties":{"id":7},"geometry":…}`)
/// are like this, and at ten million features every instruction per feature counts (issue 14):
/// such a feature needs no `FeatureState` at all, only its two coordinates.
///
/// Reading by it (`GeoJSONReader.readPlainRun`) accepts exactly what reading by the layout's
/// steps accepts; it only drops what the layout's steps record for later (where `properties`
/// and `id` lie), which a plain feature's record doesn't need while loading.
struct PlainLayout {
    /// What follows a piece's fixed bytes.
    enum Value: UInt8 {
        /// Element 0 / 1 of the position; a later element, read and ignored.
        case longitude, latitude, otherCoordinate
        /// Any JSON value, validated and skipped, at the piece's `depth`.
        case skip
        /// Nothing: the feature's last piece.
        case end
    }

    /// Fixed bytes `fixed[offset..<offset + count]`, then a value.
    struct Piece {
        var offset: Int32
        var count: Int32
        var value: Value
        var depth: Int8
        /// `count` as whole 8-byte words and a mask of the bytes left in the word after them,
        /// so that comparing the bytes takes no loop exit or mask computation per word.
        var words: Int32
        var tailMask: UInt64

        init(offset: Int32, count: Int32, value: Value, depth: Int8) {
            self.offset = offset
            self.count = count
            self.value = value
            self.depth = depth
            words = count / 8
            let tail = UInt64(count % 8)
            tailMask = tail == 0 ? 0 : (1 << (8 * tail)) - 1
        }

        /// Whether the `count` bytes at `a` are the piece's bytes at `fixed + offset` (both
        /// readable a word past the end): every word compared, the differences or-ed together.
        @inline(__always)
        func matches(_ a: UnsafePointer<UInt8>, fixed: UnsafePointer<UInt8>) -> Bool {
            let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(fixed + Int(offset))
            var difference: UInt64 = 0
            var k = 0
            let end = Int(words) * 8
            while k < end {
                difference |= ra.loadUnaligned(fromByteOffset: k, as: UInt64.self) ^ rb.loadUnaligned(fromByteOffset: k, as: UInt64.self)
                k += 8
            }
            difference |= (ra.loadUnaligned(fromByteOffset: k, as: UInt64.self) ^ rb.loadUnaligned(fromByteOffset: k, as: UInt64.self)) & tailMask
            return difference == 0
        }
    }

    let pieces: UnsafeMutableBufferPointer<Piece>

    /// The pieces of `steps`, or nil when a step keeps a property value (the layout is not plain)
    /// or the steps don't end with fixed bytes.
    init?(steps: UnsafeMutableBufferPointer<FeatureLayout.Step>) {
        var out: [Piece] = []
        var offset: Int32 = -1, count: Int32 = 0
        func emit(_ value: Value, depth: Int8 = 0) {
            out.append(Piece(offset: max(offset, 0), count: count, value: value, depth: depth))
            offset = -1
            count = 0
        }
        for step in steps {
            switch step {
            case let .fixed(o, n):
                // Fixed runs split only by markers are contiguous in the fixed bytes too.
                if offset < 0 { offset = o } else if offset + count != o { return nil }
                count += n
            case let .coordinate(index):
                emit(index == 0 ? .longitude : index == 1 ? .latitude : .otherCoordinate)
            case .propertyValue:
                return nil
            case let .skip(depth):
                emit(.skip, depth: depth)
            case .id:
                emit(.skip, depth: 3)
            case .propertiesStart, .propertiesEnd:
                break
            }
        }
        guard count > 0 else { return nil }
        emit(.end)
        pieces = .allocate(capacity: out.count)
        _ = pieces.initialize(from: out)
    }

    func deallocate() { pieces.deallocate() }
}
