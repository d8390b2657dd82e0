/// A batch of changes to a live index's points: applied together, so the clusters they touch are
/// redone once (see `LiveClusterIndex.apply(_:)` and `LiveGridClusterer.apply(_:)`).
public struct PointChanges: Sendable, Equatable {
    /// New points, in order; each gets the next point id.
    public var additions: [GeoCoordinate]
    /// Ids of points to remove (unknown or already removed ids are ignored).
    public var removals: [Int]
    /// Points to move: id and new coordinate (an invalid coordinate removes nothing and is ignored).
    public var moves: [(id: Int, to: GeoCoordinate)]

    public init(additions: [GeoCoordinate] = [], removals: [Int] = [], moves: [(id: Int, to: GeoCoordinate)] = []) {
        self.additions = additions
        self.removals = removals
        self.moves = moves
    }

    /// Whether there is nothing to do.
    public var isEmpty: Bool { additions.isEmpty && removals.isEmpty && moves.isEmpty }

    public static func == (a: PointChanges, b: PointChanges) -> Bool {
        a.additions == b.additions && a.removals == b.removals
            && a.moves.count == b.moves.count && zip(a.moves, b.moves).allSatisfy { $0.id == $1.id && $0.to == $1.to }
    }
}

/// What a batch of changes did: the ids of the points it added, and how many points were
/// removed and moved.
public struct PointChangeResult: Sendable, Equatable {
    /// Ids given to the added points, in the order they were given (invalid coordinates get an
    /// id too, but are skipped and counted like invalid input).
    public var addedIDs: [Int]
    /// How many points were removed.
    public var removed: Int
    /// How many points were moved.
    public var moved: Int

    public init(addedIDs: [Int] = [], removed: Int = 0, moved: Int = 0) {
        self.addedIDs = addedIDs
        self.removed = removed
        self.moved = moved
    }
}
