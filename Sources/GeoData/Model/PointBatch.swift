import ClusterCore

/// Points read by the plain path (`GeoJSONReader.readPlainRun`), gathered so that they go into
/// a `PointSetBuilder` a few dozen at a time: one uniqueness and capacity check per array per
/// batch instead of per point (issue 14: at ten million points those checks were a tenth of the
/// instructions of a feature).
final class PointBatch {
    static let capacity = 64

    let coordinates = UnsafeMutablePointer<GeoCoordinate>.allocate(capacity: PointBatch.capacity)
    let offsets = UnsafeMutablePointer<UInt32>.allocate(capacity: PointBatch.capacity)
    /// Record positions (feature numbers), increasing.
    let positions = UnsafeMutablePointer<Int32>.allocate(capacity: PointBatch.capacity)
    private(set) var count = 0

    deinit {
        coordinates.deallocate()
        offsets.deallocate()
        positions.deallocate()
    }

    /// Adds a point; true when the batch is then full (and must be handed over).
    @inline(__always)
    func add(_ c: GeoCoordinate, offset: Int, position: Int) -> Bool {
        (coordinates + count).initialize(to: c)
        offsets[count] = UInt32(truncatingIfNeeded: offset)
        positions[count] = Int32(truncatingIfNeeded: position)
        count += 1
        return count == PointBatch.capacity
    }

    /// Empties the batch (after its points were appended).
    func removeAll() { count = 0 }
}

extension PointSetBuilder {
    /// Appends the batch's points (no category, no numeric value) and empties it.
    mutating func append(_ batch: PointBatch) {
        let n = batch.count
        guard n > 0 else { return }
        coordinates.append(contentsOf: UnsafeBufferPointer(start: batch.coordinates, count: n))
        offsets.append(contentsOf: UnsafeBufferPointer(start: batch.offsets, count: n))
        sourcePositions.append(contentsOf: UnsafeBufferPointer(start: batch.positions, count: n))
        categoryIndices.append(repeating: -1, count: n)
        if wantsNumeric { numericValues.append(contentsOf: repeatElement(.nan, count: n)) }
        batch.removeAll()
    }
}
