/// The parts of the map view that controls drawn over it cover (zoom buttons, scale bar,
/// attribution), where a base-map name at rest would be hidden: names placed there are left out.
///
/// Defaults follow the window's layout: the zoom buttons' card in the top-right corner (two
/// 36-px buttons, 12 px from the edges), the scale bar in the bottom-left corner (at most 110 px
/// long, 8 px in) and the attribution along the bottom edge (one line of small text; its width
/// depends on the credits, so the whole bottom strip is kept clear).
public struct MapChromeAreas: Sendable, Equatable {
    /// Size of the top-right area (zoom buttons with their margin and shadow), logical pixels.
    public var topRight: ScreenSize
    /// Size of the bottom-left area (the scale bar with its margin).
    public var bottomLeft: ScreenSize
    /// Height of the strip along the bottom edge (the attribution).
    public var bottomStrip: Double

    public init(topRight: ScreenSize, bottomLeft: ScreenSize, bottomStrip: Double) {
        self.topRight = topRight; self.bottomLeft = bottomLeft; self.bottomStrip = bottomStrip
    }

    /// The window's controls (see the type's summary).
    public static let standard = MapChromeAreas(topRight: ScreenSize(width: 12 + 36 + 8, height: 12 + 73 + 8),
                                                bottomLeft: ScreenSize(width: 8 + 118 + 6, height: 8 + 26 + 4),
                                                bottomStrip: 20)
    /// Nothing covered (a picture without controls, tests of placement alone).
    public static let none = MapChromeAreas(topRight: ScreenSize(width: 0, height: 0),
                                            bottomLeft: ScreenSize(width: 0, height: 0), bottomStrip: 0)

    /// The covered rectangles in a view of `width` × `height` (empty ones left out).
    public func rects(width: Double, height: Double) -> [ScreenRect] {
        [ScreenRect(x: width - topRight.width, y: 0, width: topRight.width, height: topRight.height),
         ScreenRect(x: 0, y: height - bottomLeft.height, width: bottomLeft.width, height: bottomLeft.height),
         ScreenRect(x: 0, y: height - bottomStrip, width: width, height: bottomStrip)]
            .filter { $0.width > 0 && $0.height > 0 }
    }
}
