import ClusterCore

/// Accumulates records and points while a reader scans; produces a `PointSet`.
struct PointSetBuilder {
    var coordinates: [GeoCoordinate] = []
    var sourcePositions: [Int32] = []
    var categoryIndices: [Int32] = []
    var numericValues: [Double] = []
    /// Record of each point; empty while it is the identity.
    var pointRecords: [Int32] = []

    /// Byte range of each record's raw text (GeoJSON properties object, CSV row).
    var rawStarts: [Int] = []
    var rawEnds: [Int] = []
    var names = StringColumn()
    var labels = StringColumn()
    var descriptions = StringColumn()
    var markerColors = StringColumn()
    /// Byte range of each record's raw `id` value; empty while no record has one.
    var idStarts: [Int] = []
    var idEnds: [Int] = []

    var categories = CategoryInterner()
    let wantsNumeric: Bool

    init(wantsNumeric: Bool, capacityHint: Int) {
        self.wantsNumeric = wantsNumeric
        coordinates.reserveCapacity(capacityHint)
        sourcePositions.reserveCapacity(capacityHint)
        categoryIndices.reserveCapacity(capacityHint)
        rawStarts.reserveCapacity(capacityHint)
        rawEnds.reserveCapacity(capacityHint)
        if wantsNumeric { numericValues.reserveCapacity(capacityHint) }
    }

    var recordCount: Int { rawStarts.count }

    /// Starts a record; returns its index. Fill the string columns right after.
    @inline(__always)
    mutating func beginRecord(rawStart: Int, rawEnd: Int, idStart: Int = -1, idEnd: Int = -1) -> Int {
        let r = rawStarts.count
        rawStarts.append(rawStart)
        rawEnds.append(rawEnd)
        if idStart >= 0 {
            if idStarts.count < r {
                idStarts.append(contentsOf: repeatElement(-1, count: r - idStarts.count))
                idEnds.append(contentsOf: repeatElement(-1, count: r - idEnds.count))
            }
            idStarts.append(idStart)
            idEnds.append(idEnd)
        } else if !idStarts.isEmpty {
            idStarts.append(-1)
            idEnds.append(-1)
        }
        return r
    }

    /// Adds one point belonging to record `record`.
    @inline(__always)
    mutating func addPoint(_ c: GeoCoordinate, record: Int, position: Int, category: Int32, numeric: Double) {
        let p = coordinates.count
        if p != record && pointRecords.isEmpty {
            pointRecords = (0..<Int32(p)).map { $0 }
        }
        if !pointRecords.isEmpty { pointRecords.append(Int32(record)) }
        coordinates.append(c)
        sourcePositions.append(Int32(truncatingIfNeeded: position))
        categoryIndices.append(category)
        if wantsNumeric { numericValues.append(numeric) }
    }
}
