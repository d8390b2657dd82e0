import MapModel

/// How the window's chrome makes room for the data (issue 32 items 5, 6, 10): pure rules the
/// GTK side applies, so they are tested without a display.
public enum ChromeLayout {
    /// Below this map width the legend card starts collapsed (its title only): on a narrow window
    /// an open card would cover a third of the map.
    public static let legendCollapseWidth = 700.0
    /// The legend card's distance from the map's top-left corner (its CSS margins).
    public static let legendMargin = 12.0
    /// Room kept between the legend card and the framed data.
    public static let legendGap = 8.0

    /// Below this window width the header bar goes compact (an icon for the dataset button, only
    /// a close button in the title bar): its full content needs about 400 px.
    public static let narrowHeaderWidth = 520.0

    /// Whether the header bar should be compact in a window `width` pixels wide.
    public static func headerIsNarrow(windowWidth width: Double) -> Bool { width < narrowHeaderWidth }

    /// Whether the legend should be collapsed for a map `width` pixels wide.
    public static func legendCollapses(mapWidth width: Double) -> Bool { width < legendCollapseWidth }

    /// Extra room on the right of an opening view: places' names are drawn to the right of their
    /// marks (a capsule and a name reach ~130 px past the mark), and the 60-px fit padding cut
    /// the rightmost stays' names at a 360-px window's edge.
    public static let nameRoom = 70.0

    /// `openingInsets(legendCard:viewport:)` plus `nameRoom` on the right.
    public static func openingInsetsWithNames(legendCard card: ScreenSize?, viewport: ScreenSize) -> ScreenInsets {
        var i = openingInsets(legendCard: card, viewport: viewport)
        i.right += nameRoom
        return i
    }

    /// The insets an opening view leaves for a legend card of `card` size in the top-left corner
    /// of a `viewport`: a band along the top, or a column along the left, whichever keeps more
    /// of the map free (a short wide card takes the band, a tall narrow one the column). Zero
    /// when there is no card.
    public static func openingInsets(legendCard card: ScreenSize?, viewport: ScreenSize) -> ScreenInsets {
        guard let card, card.width > 0, card.height > 0, viewport.width > 0, viewport.height > 0 else { return .zero }
        let top = legendMargin + card.height + legendGap
        let left = legendMargin + card.width + legendGap
        // Area lost either way; a side that would leave less than half the view is never chosen.
        let bandLoss = top * viewport.width, columnLoss = left * viewport.height
        let bandFits = top < viewport.height / 2, columnFits = left < viewport.width / 2
        switch (bandFits, columnFits) {
        case (true, true): return bandLoss <= columnLoss ? ScreenInsets(top: top) : ScreenInsets(left: left)
        case (true, false): return ScreenInsets(top: top)
        case (false, true): return ScreenInsets(left: left)
        case (false, false): return .zero
        }
    }

    /// Where the banner's top-centre card would be on a map `mapWidth` wide (12 px down).
    public static func bannerFrame(size: ScreenSize, mapWidth: Double) -> ScreenRect {
        ScreenRect(x: (mapWidth - size.width) / 2, y: 12, width: size.width, height: size.height)
    }

    /// Whether the banner goes to the bottom of the map: when at the top it would cover the open
    /// callout card (a live feed's "12 new places" slid over the card being read).
    public static func bannerMovesDown(callout: ScreenRect?, bannerSize: ScreenSize, mapWidth: Double) -> Bool {
        guard let c = callout else { return false }
        let b = bannerFrame(size: bannerSize, mapWidth: mapWidth)
        return c.x < b.x + b.width && b.x < c.x + c.width && c.y < b.y + b.height && b.y < c.y + c.height
    }
}

