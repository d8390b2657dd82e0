/// What a button on a place's callout card does (SPEC §7: a close button, "Copy coordinates",
/// and "More" for the internal ids); a bubble's card adds "Zoom In" and "List Places".
public enum CalloutAction: String, Sendable, Equatable, Hashable {
    case close, copyCoordinates, more, less
    case zoomIn, listPlaces
}

/// A button on the callout card; `frame` is relative to the card's top-left corner.
public struct CalloutButton: Sendable, Equatable {
    public var action: CalloutAction
    /// Its text ("" for the close button, drawn as ×).
    public var title: String
    public var frame: ScreenRect
    public init(action: CalloutAction, title: String, frame: ScreenRect) {
        self.action = action; self.title = title; self.frame = frame
    }
}

/// Where the card's buttons go: the close button in the top-right corner, the others as a row of
/// links along the bottom (the measurer gives their text widths).
public enum CalloutCardLayout {
    /// Side of the close button's square (a 24-px target, SPEC §7).
    public static let closeSize = 24.0
    /// Inset of the close button from the card's top and right edges.
    public static let closeInset = 3.0
    /// Height of the row of links at the bottom.
    public static let footerHeight = 28.0
    /// Space between two links.
    public static let footerGap = 14.0
    /// Default upper bound on a card's height; longer content is cut with "…".
    public static let defaultMaxHeight = 220.0

    /// The close button of a card of `size`.
    public static func closeButton(in size: ScreenSize) -> CalloutButton {
        CalloutButton(action: .close, title: "",
                      frame: ScreenRect(x: size.width - closeInset - closeSize, y: closeInset,
                                        width: closeSize, height: closeSize))
    }

    /// The footer links of a card of `size`, left to right from `paddingX`, each as wide as its
    /// text plus a little room to hit.
    public static func footerButtons(_ items: [(action: CalloutAction, title: String, textWidth: Double)],
                                     in size: ScreenSize, paddingX: Double) -> [CalloutButton] {
        var x = paddingX - 4
        let y = size.height - footerHeight
        return items.map { item in
            let w = item.textWidth + 8
            defer { x += w + footerGap - 8 }
            return CalloutButton(action: item.action, title: item.title,
                                 frame: ScreenRect(x: x, y: y + 2, width: w, height: footerHeight - 4))
        }
    }
}
