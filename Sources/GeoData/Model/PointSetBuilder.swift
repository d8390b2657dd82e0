import ClusterCore

/// Accumulates points while a reader scans; produces a `PointSet`.
///
/// Per point it keeps only the coordinate and the byte offset of the point's record (its GeoJSON
/// feature or CSV row), from which everything else about the place is decoded when asked for.
/// The feature/row number, category and numeric value cost memory only when the file has them
/// (`Int32Column`; the numeric column only when asked for).
struct PointSetBuilder {
    var coordinates: [GeoCoordinate] = []
    /// Byte offset of each point's record: the feature's `{`, or the CSV row's first byte.
    var offsets: [UInt32] = []
    /// Feature index (GeoJSON) or data-row index (CSV) of each point.
    var sourcePositions = Int32Column.identity
    /// Index into `categories.names`, or −1.
    var categoryIndices = Int32Column.constant(-1)
    var numericValues: [Double] = []
    /// Which optional fields some record has (so "no names at all" needs no look at the records).
    var fields = PointSet.FieldsPresent()

    var categories = CategoryInterner()
    let wantsNumeric: Bool

    init(wantsNumeric: Bool, capacityHint: Int) {
        self.wantsNumeric = wantsNumeric
        coordinates.reserveCapacity(capacityHint)
        offsets.reserveCapacity(capacityHint)
        if wantsNumeric { numericValues.reserveCapacity(capacityHint) }
    }

    /// Adds one point whose record starts at byte `offset`.
    @inline(__always)
    mutating func addPoint(_ c: GeoCoordinate, offset: Int, position: Int, category: Int32, numeric: Double) {
        coordinates.append(c)
        offsets.append(UInt32(truncatingIfNeeded: offset))
        sourcePositions.append(Int32(truncatingIfNeeded: position))
        categoryIndices.append(category)
        if wantsNumeric { numericValues.append(numeric) }
    }

    /// Makes room for `count` points in all (nothing when there is room already).
    mutating func reserve(_ count: Int) {
        guard count > coordinates.capacity else { return }
        coordinates.reserveCapacity(count)
        offsets.reserveCapacity(count)
        if wantsNumeric { numericValues.reserveCapacity(count) }
    }

    /// Empties the builder, keeping the arrays' storage for the next points.
    mutating func removeAll() {
        coordinates.removeAll(keepingCapacity: true)
        offsets.removeAll(keepingCapacity: true)
        numericValues.removeAll(keepingCapacity: true)
        sourcePositions = .identity
        categoryIndices = .constant(-1)
        categories = CategoryInterner()
        fields = []
    }

    /// Appends the points another builder read from a later part of the same file; its record
    /// positions count from `positionBase`.
    mutating func append(_ other: PointSetBuilder, positionBase: Int) {
        coordinates.append(contentsOf: other.coordinates)
        offsets.append(contentsOf: other.offsets)
        sourcePositions.append(other.sourcePositions, adding: Int32(truncatingIfNeeded: positionBase))
        if other.categories.names.isEmpty {
            categoryIndices.append(other.categoryIndices, adding: 0)   // all −1
        } else {
            let table = other.categories.names.map { categories.index($0) }
            var mapped = Int32Column.constant(-1)
            for c in other.categoryIndices { mapped.append(c < 0 ? -1 : table[Int(c)]) }
            categoryIndices.append(mapped, adding: 0)
        }
        if wantsNumeric { numericValues.append(contentsOf: other.numericValues) }
        fields.formUnion(other.fields)
    }
}
