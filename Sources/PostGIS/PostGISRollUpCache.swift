import Foundation

/// The whole-world grid cells of one fine zoom, kept per rows key (filters, total, cell size) so
/// that coarser views are summed from them instead of asking the server again. Holds at most a few
/// keys of at most (2^zoom · 4)² cells each: its size follows the cells, never the table. A change
/// of the data (`forget`) drops everything, and a pass that started before the change is not kept.
final class PostGISRollUpCache: @unchecked Sendable {
    private let lock = NSLock()
    private var cells: [String: [PostGISGridCell]] = [:]
    private var order: [String] = []
    private var currentGeneration = 0
    /// Most keys kept (a few filters or totals tried in turn).
    let capacity = 4

    /// The generation a pass starts in (hand it back to `keep`).
    var generation: Int { lock.withLock { currentGeneration } }

    /// The kept cells of a key, if any.
    func cells(for key: String) -> [PostGISGridCell]? { lock.withLock { cells[key] } }

    /// Keeps a pass's cells unless the data changed since it started.
    func keep(_ new: [PostGISGridCell], for key: String, ifStill generation: Int) {
        lock.withLock {
            guard generation == currentGeneration else { return }
            if cells[key] == nil { order.append(key) }
            cells[key] = new
            while order.count > capacity { cells[order.removeFirst()] = nil }
        }
    }

    /// Drops every kept pass (the table changed).
    func forget() {
        lock.withLock {
            currentGeneration += 1
            cells.removeAll()
            order.removeAll()
        }
    }

    /// Number of keys kept (for tests).
    var count: Int { lock.withLock { cells.count } }
}
