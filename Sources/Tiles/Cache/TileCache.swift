import Foundation

/// A least-recently-used cache of decoded tiles, bounded by an approximate memory cost in bytes.
///
/// Each entry carries its own cost (e.g. `width × height × 4` for an image, the decoded size for a
/// vector tile). Inserting beyond `byteLimit` evicts the least recently used entries first; an entry
/// bigger than the whole budget is not kept. Thread-safe: loaders insert from background threads
/// while the drawing thread reads.
public final class TileCache<Key: Hashable & Sendable, Value>: @unchecked Sendable {
    private final class Node {
        let key: Key
        var value: Value
        var cost: Int
        var newer: Node?
        weak var older: Node?
        init(key: Key, value: Value, cost: Int) { self.key = key; self.value = value; self.cost = cost }
    }

    private let lock = NSLock()
    private var nodes: [Key: Node] = [:]
    // A doubly linked recency list: strong references run oldest → newest (`newer`), weak ones
    // back, so there are no cycles.
    private var oldest: Node?
    private weak var newest: Node?
    private var totalCost = 0
    private var limit: Int

    /// Creates a cache holding at most `byteLimit` bytes of entries.
    public init(byteLimit: Int) {
        limit = max(0, byteLimit)
    }

    /// The memory budget; lowering it evicts at once.
    public var byteLimit: Int {
        get { lock.withLock { limit } }
        set { lock.withLock { limit = max(0, newValue); evict() } }
    }

    /// The summed cost of the entries held.
    public var cost: Int { lock.withLock { totalCost } }

    /// How many entries are held.
    public var count: Int { lock.withLock { nodes.count } }

    /// The entry for `key`, marking it most recently used.
    public func value(for key: Key) -> Value? {
        lock.withLock {
            guard let node = nodes[key] else { return nil }
            unlink(node)
            link(node)
            return node.value
        }
    }

    /// Whether an entry is held, without changing its recency.
    public func contains(_ key: Key) -> Bool {
        lock.withLock { nodes[key] != nil }
    }

    /// Inserts or replaces an entry costing `cost` bytes, then evicts down to the budget.
    public func insert(_ value: Value, for key: Key, cost: Int) {
        lock.withLock {
            if let old = nodes.removeValue(forKey: key) {
                unlink(old)
                totalCost -= old.cost
            }
            let c = max(0, cost)
            guard c <= limit else { return }
            let node = Node(key: key, value: value, cost: c)
            nodes[key] = node
            link(node)
            totalCost += c
            evict()
        }
    }

    /// Removes an entry.
    public func removeValue(for key: Key) {
        lock.withLock {
            guard let node = nodes.removeValue(forKey: key) else { return }
            unlink(node)
            totalCost -= node.cost
        }
    }

    /// Removes every entry (e.g. when the source or palette changes).
    public func removeAll() {
        lock.withLock {
            // Break the chain iteratively so a long list doesn't recurse in deinit.
            var node = oldest
            while let n = node { node = n.newer; n.newer = nil }
            nodes.removeAll()
            oldest = nil
            newest = nil
            totalCost = 0
        }
    }

    /// Keys from least to most recently used (for tests).
    var keysByRecency: [Key] {
        lock.withLock {
            var keys: [Key] = []
            var node = oldest
            while let n = node { keys.append(n.key); node = n.newer }
            return keys
        }
    }

    // MARK: - List (caller holds the lock)

    private func link(_ node: Node) {
        node.newer = nil
        node.older = newest
        if let n = newest { n.newer = node } else { oldest = node }
        newest = node
    }

    private func unlink(_ node: Node) {
        let older = node.older, newer = node.newer
        if let o = older { o.newer = newer } else { oldest = newer }
        if let n = newer { n.older = older } else { newest = older }
        node.newer = nil
        node.older = nil
    }

    private func evict() {
        while totalCost > limit, let victim = oldest {
            nodes.removeValue(forKey: victim.key)
            unlink(victim)
            totalCost -= victim.cost
        }
    }

    deinit { removeAll() }
}
