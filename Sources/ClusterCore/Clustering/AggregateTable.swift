/// Per-point aggregate inputs, with categories renumbered densely for fast counting.
struct PointAttributes: Sendable {
    /// Dense category per input point (−1: none); `categoryValues[dense]` is the caller's number.
    let denseCategory: [Int32]
    let categoryValues: [Int32]
    /// Numeric value per input point (NaN: none); empty when no values were given.
    let values: [Double]

    var hasCategories: Bool { !categoryValues.isEmpty }
    var hasValues: Bool { !values.isEmpty }
    var isEmpty: Bool { !hasCategories && !hasValues }

    /// `categories` and `values` are either empty or one per input point.
    init(count: Int, categories: [Int32], values: [Double]) {
        precondition(categories.isEmpty || categories.count == count, "one category per point (or none)")
        precondition(values.isEmpty || values.count == count, "one value per point (or none)")
        let distinct = Set(categories.lazy.filter { $0 >= 0 }).sorted()
        if distinct.isEmpty {
            denseCategory = []
            categoryValues = []
        } else {
            var dense: [Int32: Int32] = [:]
            for (i, c) in distinct.enumerated() { dense[c] = Int32(i) }
            denseCategory = categories.map { $0 >= 0 ? dense[$0]! : -1 }
            categoryValues = distinct
        }
        self.values = values.contains(where: { !$0.isNaN }) ? values : []
    }

    func aggregates(ofPoint i: Int) -> ClusterAggregates {
        let category: Int32 = hasCategories && denseCategory[i] >= 0 ? categoryValues[Int(denseCategory[i])] : -1
        return .single(category: category, value: hasValues ? values[i] : .nan)
    }
}

/// Aggregates of every cluster of an index, one row per cluster, in flat arrays.
struct AggregateTable: Sendable {
    private(set) var categoryStart: [UInt32] = [0]
    private(set) var poolCategory: [Int32] = []
    private(set) var poolCount: [UInt32] = []
    private(set) var valueMin: [Double] = []
    private(set) var valueMax: [Double] = []
    private(set) var valueSum: [Double] = []
    private(set) var valueCount: [UInt32] = []

    func aggregates(ofRow row: Int, count: Int, attributes: PointAttributes) -> ClusterAggregates {
        var result = ClusterAggregates(count: count)
        if attributes.hasCategories {
            let a = Int(categoryStart[row]), b = Int(categoryStart[row + 1])
            result.categoryCounts = (a..<b).map {
                CategoryCount(category: attributes.categoryValues[Int(poolCategory[$0])], count: Int(poolCount[$0]))
            }
            result.categoryCounts.sort { $0.count != $1.count ? $0.count > $1.count : $0.category < $1.category }
        }
        if attributes.hasValues {
            let n = Int(valueCount[row])
            result.valueCount = n
            if n > 0 {
                result.minimum = valueMin[row]
                result.maximum = valueMax[row]
                result.sum = valueSum[row]
            }
        }
        return result
    }

    /// Collects one new row from points and existing rows, then `commit`s it.
    struct Builder {
        private var scratch: [UInt32]
        private var touched: [Int32] = []
        private var vmin = Double.infinity, vmax = -Double.infinity, vsum = 0.0, vcount: UInt32 = 0
        let attributes: PointAttributes

        init(attributes: PointAttributes) {
            self.attributes = attributes
            scratch = [UInt32](repeating: 0, count: attributes.categoryValues.count)
        }

        @inline(__always) private mutating func addCategory(_ c: Int32, _ n: UInt32) {
            if scratch[Int(c)] == 0 { touched.append(c) }
            scratch[Int(c)] &+= n
        }

        @inline(__always) private mutating func addValues(min: Double, max: Double, sum: Double, count: UInt32) {
            guard count > 0 else { return }
            if min < vmin { vmin = min }
            if max > vmax { vmax = max }
            vsum += sum
            vcount &+= count
        }

        mutating func addPoint(_ i: Int) {
            if attributes.hasCategories {
                let c = attributes.denseCategory[i]
                if c >= 0 { addCategory(c, 1) }
            }
            if attributes.hasValues {
                let v = attributes.values[i]
                if !v.isNaN { addValues(min: v, max: v, sum: v, count: 1) }
            }
        }

        mutating func addRow(_ row: Int, of table: AggregateTable) {
            if attributes.hasCategories {
                for k in Int(table.categoryStart[row])..<Int(table.categoryStart[row + 1]) {
                    addCategory(table.poolCategory[k], table.poolCount[k])
                }
            }
            if attributes.hasValues {
                addValues(min: table.valueMin[row], max: table.valueMax[row], sum: table.valueSum[row],
                          count: table.valueCount[row])
            }
        }

        mutating func commit(to table: inout AggregateTable) {
            if attributes.hasCategories {
                touched.sort()
                for c in touched {
                    table.poolCategory.append(c)
                    table.poolCount.append(scratch[Int(c)])
                    scratch[Int(c)] = 0
                }
                touched.removeAll(keepingCapacity: true)
                table.categoryStart.append(UInt32(table.poolCategory.count))
            }
            if attributes.hasValues {
                table.valueMin.append(vmin)
                table.valueMax.append(vmax)
                table.valueSum.append(vsum)
                table.valueCount.append(vcount)
                vmin = .infinity; vmax = -.infinity; vsum = 0; vcount = 0
            }
        }
    }
}
