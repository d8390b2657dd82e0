/// Compaction in the background (SPEC §3.4: when the data and the camera rest, the index
/// compacts and then equals a fresh build bit for bit). `compact()` does it in one call on the
/// owning thread; an app can't stop drawing for a full build (~0.3 s at 1M points), so the build
/// is split: `compaction()` takes a snapshot of the points on the owning thread (array copies
/// that share storage until the index changes them), `Compaction.build()` makes the full build
/// on any thread, and `finish(_:)` installs it back on the owning thread — unless the index
/// changed meanwhile, when the build no longer fits and is dropped (the next rest starts another).
extension LiveClusterIndex {
    /// A compaction under way: the points as they were when it started, and then its build.
    public final class Compaction: @unchecked Sendable {
        /// The index's `changeGeneration` when the snapshot was taken.
        public let generation: Int
        let coordinates: [GeoCoordinate], alive: [Bool], categories: [Int32], values: [Double]
        let options: Options
        /// The full build, once `build()` has run.
        var built: HierarchicalClusterer?
        /// What `finish` replaced (the old base and repair state: at 1M points, tens of MB in
        /// a few hundred thousand allocations), kept so it is freed where `releaseRetired` runs.
        var retired: [Any] = []

        init(_ index: LiveClusterIndex) {
            generation = index.changeGeneration
            coordinates = index.coordinates
            alive = index.pAlive
            categories = index.categories
            values = index.values
            options = index.options
        }

        /// Makes the full build (call off the owning thread; it reads only the snapshot).
        /// - Complexity: a full `HierarchicalClusterer` build.
        public func build() {
            guard built == nil else { return }
            built = LiveClusterIndex.buildBase(coordinates, alive, categories, values, options)
        }

        /// Frees the state `finish` replaced (call off the owning thread: freeing it takes
        /// a while, and nothing reads it any more).
        public func releaseRetired() { retired = [] }
    }

    /// A snapshot of the points to compact in the background, nil when there is nothing to
    /// compact (no change since the last full build).
    /// - Complexity: O(1) (the arrays are shared until the index changes them).
    public func compaction() -> Compaction? {
        guard changedSinceBuild else { return nil }
        return Compaction(self)
    }

    /// Installs a built compaction when the index hasn't changed since its snapshot; returns
    /// whether it did. Afterwards the index equals `compact()`'s result exactly.
    /// - Complexity: O(1) beyond releasing the old state.
    @discardableResult
    public func finish(_ compaction: Compaction) -> Bool {
        guard compaction.generation == changeGeneration, let built = compaction.built,
              compaction.coordinates.count == coordinates.count else { return false }
        changeGeneration &+= 1
        compaction.retired = [base, pNode, cNode, overlay, madeChildren, madeAggregates, baseBlocks] as [Any]
        install(built)
        return true
    }
}
