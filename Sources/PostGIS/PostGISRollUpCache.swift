import Foundation

/// The whole-world grid cells of one fine zoom, kept per rows key (filters, total, cell size) so
/// that coarser views are summed from them instead of asking the server again. Holds at most a few
/// keys of at most (2^zoom · 4)² cells each: its size follows the cells, never the table. A change
/// of the data (`forget`) drops everything, and a pass that started before the change is not kept.
final class PostGISRollUpCache: @unchecked Sendable {
    private let lock = NSLock()
    private var cells: [String: [PostGISGridCell]] = [:]
    private var order: [String] = []
    private var ranges: [String: (ix: ClosedRange<UInt64>, iy: ClosedRange<UInt64>)] = [:]
    private var currentGeneration = 0
    /// Most keys kept (a few filters or totals tried in turn).
    let capacity = 4

    /// The generation a pass starts in (hand it back to `keep`).
    var generation: Int { lock.withLock { currentGeneration } }

    /// The kept cells of a key, if any.
    func cells(for key: String) -> [PostGISGridCell]? { lock.withLock { cells[key] } }

    /// Keeps a pass's cells unless the data changed since it started; `range` is the key range
    /// (columns, rows) they cover completely, when not the whole world.
    func keep(_ new: [PostGISGridCell], for key: String, ifStill generation: Int,
              range: (ix: ClosedRange<UInt64>, iy: ClosedRange<UInt64>)? = nil) {
        lock.withLock {
            guard generation == currentGeneration else { return }
            if cells[key] == nil { order.append(key) }
            cells[key] = new
            ranges[key] = range
            while order.count > capacity {
                let old = order.removeFirst()
                cells[old] = nil
                ranges[old] = nil
            }
        }
    }

    /// The kept cells of a key with the key range they cover.
    func cellsInRange(for key: String) -> (cells: [PostGISGridCell], ix: ClosedRange<UInt64>, iy: ClosedRange<UInt64>)? {
        lock.withLock {
            guard let c = cells[key], let r = ranges[key] else { return nil }
            return (c, r.ix, r.iy)
        }
    }

    /// Drops every kept pass (the table changed).
    func forget() {
        lock.withLock {
            currentGeneration += 1
            cells.removeAll()
            ranges.removeAll()
            order.removeAll()
        }
    }

    /// Number of keys kept (for tests).
    var count: Int { lock.withLock { cells.count } }
}
