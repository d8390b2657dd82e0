import MapModel

/// Whether the legend card is open (issue 32 item 5, "the legend never covers data"): a pure
/// rule the GTK side applies. The card folds to its title when the map is narrow or when a
/// bubble or place at rest lies under the open card (after a pan, or world cities' whole-world
/// opening view), and opens again once the map is wide and clear. The user's own choice wins:
/// a card they closed stays closed; one they opened over data stays open until nothing asks
/// for it to fold (then the rule applies again the next time something does).
public struct LegendFold: Equatable, Sendable {
    /// The user's last choice (open until they close it).
    public private(set) var userOpen = true
    /// The user opened the card while a reason to fold applied.
    public private(set) var userOverride = false
    /// The map is narrower than `ChromeLayout.legendCollapseWidth`.
    public private(set) var narrow = false
    /// A mark lies under the open card.
    public private(set) var covers = false

    public init() {}

    /// Whether the card shows its content.
    public var isExpanded: Bool { userOpen && (userOverride || !(narrow || covers)) }

    /// The map's width changed.
    public mutating func set(narrow: Bool) { self.narrow = narrow; settle() }

    /// The scene at rest changed: whether a mark lies under the open card.
    public mutating func set(covers: Bool) { self.covers = covers; settle() }

    /// The user opened or closed the card.
    public mutating func userToggled(expanded: Bool) {
        userOpen = expanded
        userOverride = expanded && (narrow || covers)
    }

    /// An override lasts while a reason to fold does; once none does, it is spent.
    private mutating func settle() { if !(narrow || covers) { userOverride = false } }

    /// The open card's rectangle on the map: `ChromeLayout.legendMargin` from the top-left corner,
    /// `ChromeLayout.legendGap` around it kept clear too.
    public static func cardRect(size: ScreenSize) -> ScreenRect {
        let m = ChromeLayout.legendMargin, g = ChromeLayout.legendGap
        return ScreenRect(x: m - g, y: m - g, width: size.width + 2 * g, height: size.height + 2 * g)
    }

    /// Whether any bubble, place or price capsule of `scene` lies under `card` (bubbles as the
    /// circles they are, places as their pin's disc, capsules as their rectangle). Faded-out
    /// marks (a transition's leftovers) do not count.
    public static func covers(card: ScreenRect, scene: Scene, style: BubbleStyle = BubbleStyle()) -> Bool {
        for b in scene.bubbles where b.alpha > 0.05 {
            if circle(b.center, b.radius * max(b.scale, 1), touches: card) { return true }
        }
        for p in scene.pins where p.alpha > 0.05 {
            if circle(p.center, style.pinRadius, touches: card) { return true }
            if let text = p.label, SceneHitTester.labelRect(for: p.center, text: text, style: style).intersects(card) { return true }
        }
        return false
    }

    /// Whether a circle overlaps a rectangle (the nearest point of the rectangle is inside it).
    static func circle(_ c: ScreenPoint, _ r: Double, touches rect: ScreenRect) -> Bool {
        let nx = min(max(c.x, rect.minX), rect.maxX), ny = min(max(c.y, rect.minY), rect.maxY)
        let dx = c.x - nx, dy = c.y - ny
        return dx * dx + dy * dy < r * r
    }
}
