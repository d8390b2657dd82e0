/// Bubbles splitting and merging between two frames (SPEC §5.2: "the bubble's children appear
/// where it was and move to their places"; zooming out merges them back the same way).
///
/// Give it the items drawn before and after a change of index zoom, with links: for each new item
/// the old item it split from (`origins`), and for each old item the new item it merged into
/// (`destinations`). Items with the same id in both frames stay (and glide if they moved).
/// `sprites(at:)` gives what to draw at a clock time: positions eased from old to new, and
/// alphas for items that appear or leave. With reduced motion nothing moves: leaving items fade
/// out where they were and arriving ones fade in where they are.
///
/// Positions may be in any plane shared by both frames; zoom-0 world pixels or unit Mercator are
/// best (they follow the camera if it moves meanwhile). Pass that plane's width as `wrapWidth`
/// so motion near 180° takes the short way.
public struct TransitionModel<ID: Hashable & Sendable>: Sendable {
    /// Default length of a split or merge.
    public static var defaultDurationSeconds: Double { 0.3 }

    /// An item in one frame.
    public struct Item: Sendable, Equatable {
        public var id: ID
        public var position: ScreenPoint
        public var count: Int
        public init(id: ID, position: ScreenPoint, count: Int) {
            self.id = id; self.position = position; self.count = count
        }
    }

    /// What happens to an item during the transition.
    public enum Role: Sendable, Equatable {
        /// In both frames.
        case staying
        /// New, coming out of an old item.
        case splitting
        /// New, with no origin (or the merge target that its children converge into).
        case appearing
        /// Old, moving into the new item it merged into.
        case merging
        /// Old, gone (split into children, or dropped).
        case leaving
    }

    /// One thing to draw at some time.
    public struct Sprite: Sendable, Equatable {
        public var id: ID
        public var position: ScreenPoint
        /// 0 (invisible) … 1 (opaque).
        public var alpha: Double
        public var count: Int
        public var role: Role
        /// Size factor (1: as is): new items of a live update pop up from small.
        public var scale: Double = 1
        /// Whether this is an item of the old frame (draw these beneath the new ones).
        public var isOld: Bool { role == .merging || role == .leaving }
    }

    /// Clock time at which the transition started.
    public let startTime: Double
    /// Seconds it lasts.
    public let duration: Double
    /// Whether motion is reduced (fades only).
    public let reducedMotion: Bool
    /// Whether appearing items pop (grow from small with a slight overshoot) instead of fading in.
    public let popIn: Bool
    /// How long a pop takes.
    public static var popSeconds: Double { 0.2 }
    private let wrapWidth: Double?
    private let oldSprites: [(item: Item, to: ScreenPoint?, hidden: Bool)]
    private let newSprites: [(item: Item, from: ScreenPoint?, role: Role)]

    /// Pairs the two frames. `origins[newID]` is the old item a new one split from;
    /// `destinations[oldID]` the new item an old one merged into.
    public init(previous: [Item], current: [Item], origins: [ID: ID] = [:], destinations: [ID: ID] = [:],
                startTime: Double, reducedMotion: Bool,
                duration: Double = TransitionModel.defaultDurationSeconds, wrapWidth: Double? = nil, popIn: Bool = false) {
        self.startTime = startTime
        self.popIn = popIn
        self.duration = max(0, duration)
        self.reducedMotion = reducedMotion
        self.wrapWidth = wrapWidth
        var oldByID: [ID: Item] = [:]
        for o in previous { oldByID[o.id] = o }
        var newByID: [ID: Item] = [:]
        for n in current { newByID[n.id] = n }

        var usedAsOrigin = Set<ID>()
        var news: [(Item, ScreenPoint?, Role)] = []
        for n in current {
            if let o = origins[n.id].flatMap({ oldByID[$0] }), o.id != n.id {
                news.append((n, o.position, .splitting)); usedAsOrigin.insert(o.id)
            } else if let same = oldByID[n.id] {
                news.append((n, same.position, .staying))
            } else {
                news.append((n, nil, .appearing))
            }
        }
        var olds: [(Item, ScreenPoint?, Bool)] = []
        for o in previous where newByID[o.id] == nil {
            let dest = destinations[o.id].flatMap { newByID[$0] }
            // A split parent is hidden at once while moving (its children start where it was);
            // with reduced motion it fades out like anything else that leaves.
            olds.append((o, dest?.position, usedAsOrigin.contains(o.id)))
        }
        oldSprites = olds.map { (item: $0.0, to: $0.1, hidden: $0.2) }
        newSprites = news.map { (item: $0.0, from: $0.1, role: $0.2) }
    }

    /// Whether it is over at `now`.
    public func isFinished(at now: Double) -> Bool { now - startTime >= duration }

    /// What to draw at clock time `now`: old items first (beneath), then new ones. Once finished,
    /// exactly the new items at their positions, opaque.
    public func sprites(at now: Double) -> [Sprite] {
        let linear = duration > 0 ? min(1, max(0, (now - startTime) / duration)) : 1
        let p = Easing.easeOut(linear)
        var out: [Sprite] = []
        out.reserveCapacity(oldSprites.count + newSprites.count)
        if linear < 1 {
            for o in oldSprites {
                if o.hidden && !reducedMotion { continue }
                var pos = o.item.position
                var role = Role.leaving
                if let to = o.to {
                    role = .merging
                    if !reducedMotion { pos = lerp(o.item.position, to, p) }
                }
                out.append(Sprite(id: o.item.id, position: pos, alpha: 1 - linear, count: o.item.count, role: role))
            }
        }
        for n in newSprites {
            var pos = n.item.position
            var alpha = 1.0, scale = 1.0
            switch n.role {
            case .appearing where popIn && !reducedMotion:
                let t = (now - startTime) / Self.popSeconds
                alpha = min(1, max(0, 2.5 * t))
                scale = Self.popScale(t)
            case .appearing:
                alpha = linear
            case .splitting where reducedMotion:
                alpha = linear
            default:
                // Staying items glide too (reduced motion: they are simply where they are).
                if let from = n.from, !reducedMotion { pos = lerp(from, n.item.position, p) }
            }
            out.append(Sprite(id: n.item.id, position: pos, alpha: alpha, count: n.item.count, role: n.role, scale: scale))
        }
        return out
    }

    /// The size of a popping item at `t` (0…1 of the pop): from 0.3 up past 1 (about 1.07 at
    /// t ≈ 0.6, an ease-out-back) and settling at exactly 1.
    public static func popScale(_ t: Double) -> Double {
        guard t < 1 else { return 1 }
        let u = max(0, t) - 1, c1 = 1.70158, c3 = c1 + 1
        return 0.3 + 0.7 * (1 + c3 * u * u * u + c1 * u * u)
    }

    private func lerp(_ a: ScreenPoint, _ b: ScreenPoint, _ t: Double) -> ScreenPoint {
        var dx = b.x - a.x
        if let w = wrapWidth, w > 0 { dx -= (dx / w).rounded() * w }
        return ScreenPoint(x: a.x + dx * t, y: a.y + (b.y - a.y) * t)
    }
}
