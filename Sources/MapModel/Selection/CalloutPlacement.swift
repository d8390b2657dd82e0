/// Where the callout goes and how far the camera must ease to show it (SPEC §5.3).
public enum CalloutPlacement {
    /// Gap between the pin and the arrow tip, and the arrow's height.
    public static let arrowHeight: Double = 10
    public static let pinClearance: Double = 8
    /// Margin kept between the callout (or pin) and the viewport edges after easing.
    public static let viewportMargin: Double = 12

    /// The callout frame for content of `size`, centred above the pin with its arrow pointing at it.
    public static func frame(above pin: ScreenPoint, size: ScreenSize) -> ScreenRect {
        ScreenRect(x: pin.x - size.width / 2, y: pin.y - pinClearance - arrowHeight - size.height,
                   width: size.width, height: size.height)
    }

    /// The smallest screen shift (dx, dy) that brings both the callout and the pin fully into the
    /// viewport with a margin; (0, 0) if they already are. Pan the camera by this delta (content
    /// moves by it), without changing zoom. When the callout is wider or taller than the viewport
    /// the pin wins: its side stays visible.
    public static func revealShift(callout: ScreenRect, pin: ScreenPoint, pinRadius: Double,
                                   viewport: ScreenSize) -> (dx: Double, dy: Double) {
        let m = viewportMargin
        let minX = min(callout.minX, pin.x - pinRadius), maxX = max(callout.maxX, pin.x + pinRadius)
        let minY = min(callout.minY, pin.y - pinRadius), maxY = max(callout.maxY, pin.y + pinRadius)
        func shift(_ lo: Double, _ hi: Double, _ size: Double) -> Double {
            if hi - lo > size - 2 * m { return m - lo } // too big: align the start edge
            if lo < m { return m - lo }
            if hi > size - m { return (size - m) - hi }
            return 0
        }
        return (shift(minX, maxX, viewport.width), shift(minY, maxY, viewport.height))
    }
}
