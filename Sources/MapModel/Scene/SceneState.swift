import ClusterCore

/// What the person has done that changes how items are drawn: selection, hover, keyboard focus,
/// an open same-spot fan. Pure value, owned by the app and fed to `SceneBuilder`.
public struct SceneState: Sendable, Equatable {
    /// The selected place (index in the point set), if any.
    public var selectedPoint: Int?
    /// The item under the pointer.
    public var hovered: SceneItemID?
    /// The item with keyboard focus.
    public var focused: SceneItemID?
    /// Coordinates of the hovered bubble's members (for the hull outline).
    public var hoverMembers: [GeoCoordinate] = []
    /// An open fan: the bubble it belongs to, its centre and the members fanned out around it.
    public var fan: Fan?
    /// The selected place's callout text and measured size (shown above its pin).
    public var callout: CalloutContent?
    /// A bubble's open card (issue 29 item 5); never open together with a place's callout.
    public var bubbleCard: BubbleCard?
    /// Callout appearance 0…1, and whether it fades (reduced motion) rather than grows.
    public var calloutProgress: Double = 1
    public var calloutFades = false

    /// What the callout says and how big it is (measured by the renderer's text engine).
    public struct CalloutContent: Sendable, Equatable {
        public var pointIndex: Int
        public var title: String
        public var lines: [String]
        public var size: ScreenSize
        /// The close button and the footer links, placed on the card (relative to its corner).
        public var buttons: [CalloutButton]
        public init(pointIndex: Int, title: String, lines: [String], size: ScreenSize, buttons: [CalloutButton] = []) {
            self.pointIndex = pointIndex; self.title = title; self.lines = lines; self.size = size; self.buttons = buttons
        }
    }

    /// A same-spot bubble fanned out (SPEC §5.4).
    public struct Fan: Sendable, Equatable {
        public var cluster: SceneItemID
        public var center: GeoCoordinate
        public var members: [Int]
        public init(cluster: SceneItemID, center: GeoCoordinate, members: [Int]) {
            self.cluster = cluster; self.center = center; self.members = members
        }
    }

    public init() {}
}

/// What the scene needs to know about places: their names, labels and colours.
public protocol PlaceDirectory {
    /// Display name of a place (never empty: fall back to something like "Place 12").
    func name(of point: Int) -> String
    /// Short text for the pin's capsule (e.g. a price), if any.
    func label(of point: Int) -> String?
    /// Pin colour as 0xRRGGBB.
    func color(of point: Int) -> UInt32
    /// Coordinate of a place.
    func coordinate(of point: Int) -> GeoCoordinate
}

/// A clustered item placed for drawing: where (it may be between two positions during a split
/// or merge) and how opaque.
public struct PlacedItem: Sendable, Equatable {
    public var item: ClusterItem
    /// Position to draw at (usually the item's own coordinate).
    public var coordinate: GeoCoordinate
    public var alpha: Double
    /// Size factor (1: as is); a new place of a live update pops up from small.
    public var scale: Double

    public init(item: ClusterItem, coordinate: GeoCoordinate? = nil, alpha: Double = 1, scale: Double = 1) {
        self.item = item
        self.coordinate = coordinate ?? item.coordinate
        self.alpha = alpha
        self.scale = scale
    }

    /// The scene id of the item.
    public var id: SceneItemID { SceneItemID(item) }
}

extension SceneItemID {
    /// The scene id of a clustered item.
    public init(_ item: ClusterItem) {
        switch item.kind {
        case .point(let i): self = .point(i)
        case .cluster(let id): self = .cluster(id.rawValue)
        }
    }
}
