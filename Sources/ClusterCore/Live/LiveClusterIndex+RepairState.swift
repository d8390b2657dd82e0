/// The bookkeeping of a `LiveClusterIndex` repair (`LiveClusterIndex+Repair.swift`): what one
/// batch changed, level by level, and the working sets of one level, kept from batch to batch so
/// their storage is reused.
extension LiveClusterIndex {
    /// The state a node had before this batch (recorded the first time the batch changes it).
    struct OldState { var low: Int; var parent: Int }

    /// The bookkeeping of one batch.
    struct Repair {
        /// Nodes this batch changed, and (same positions) the state each had before.
        var oldRefs = RefSet()
        var oldStates: [OldState] = []
        /// Nodes made by this batch (they were on no level before).
        var created = RefSet()
        /// Items of the level above that left it (or moved) / arrived (or moved).
        var gone = RefSet()
        var fresh = RefSet()
        /// Clusters of the level above that stayed but changed in place (position and count).
        var shifted = RefSet()

        mutating func record(_ r: Ref, low: Int, parent: Int) {
            if oldRefs.insert(r) { oldStates.append(OldState(low: low, parent: parent)) }
        }

        /// Points whose searches skip the base's index of the band `clearBand` (nothing of it is
        /// near them), and the points checked for that.
        var clearBand = -1
        var clearOfBase = RefSet()
        var probedBase = RefSet()

        /// Scratch of `repairLevel`, reused by each level.
        var scratch = LevelScratch()

        /// Empties it for the next batch, keeping its storage.
        mutating func removeAll() {
            oldRefs.removeAll(); oldStates.removeAll(keepingCapacity: true)
            created.removeAll(); gone.removeAll(); fresh.removeAll(); shifted.removeAll()
            clearBand = -1; clearOfBase.removeAll(); probedBase.removeAll()
        }

        /// The state r had before this batch, if the batch changed it.
        func old(_ r: Ref) -> OldState? { oldRefs.index(of: r).map { oldStates[$0] } }
    }

    /// The working sets and lists of one level's repair (see `repairLevel`), kept in the batch's
    /// `Repair` so each level reuses their storage instead of growing new ones.
    struct LevelScratch {
        var goneNext = RefSet(), freshNext = RefSet(), shiftedNext = RefSet()
        var free: [Ref] = [], isFree = RefSet()
        /// Clusters of the level whose children changed: checked and updated (or dissolved).
        var touched: [Int] = [], isTouched = RefSet()
        /// Each free item's neighbours (`found[lists[k].start ..< lists[k].end]` for `free[k]`).
        var lists: [(start: Int, end: Int)] = [], found: [Ref] = []
        /// The free items in id order, as `id << 32 | position in free`.
        var order: [UInt64] = []
        var visited = RefSet(), neighbours: [Ref] = [], joined: [Int] = []
        /// A kept cluster's children that drifted out of its radius (`updateInPlace`).
        var far: [Ref] = []

        mutating func clear() {
            goneNext.removeAll(); freshNext.removeAll(); shiftedNext.removeAll()
            free.removeAll(keepingCapacity: true); isFree.removeAll()
            touched.removeAll(keepingCapacity: true); isTouched.removeAll()
            lists.removeAll(keepingCapacity: true); found.removeAll(keepingCapacity: true)
            order.removeAll(keepingCapacity: true); visited.removeAll()
            neighbours.removeAll(keepingCapacity: true); joined.removeAll(keepingCapacity: true)
            far.removeAll(keepingCapacity: true)
        }
    }
}
