extension SceneState {
    /// A bubble's open card (issue 29 item 5): its text, measured, and the bubble it belongs to.
    /// It is drawn above the bubble while that bubble is on the map, in the look of a place's
    /// callout; `swatches` colour the first character of their line (a category's dot).
    public struct BubbleCard: Sendable, Equatable {
        public var bubble: SceneItemID
        public var title: String
        public var lines: [String]
        public var swatches: [UInt32?]
        public var size: ScreenSize
        /// The close button and the footer links, placed on the card (relative to its corner).
        public var buttons: [CalloutButton]

        public init(bubble: SceneItemID, title: String, lines: [String], swatches: [UInt32?] = [], size: ScreenSize,
                    buttons: [CalloutButton] = []) {
            self.bubble = bubble; self.title = title; self.lines = lines; self.swatches = swatches
            self.size = size; self.buttons = buttons
        }

        /// The card drawn above `bubble` (centre and radius on screen), pointing at its top.
        public func callout(over bubble: SceneBubble) -> SceneCallout {
            let top = ScreenPoint(x: bubble.center.x, y: bubble.center.y - bubble.radius)
            // `frame(above:)` leaves a pin's clearance under the arrow; a bubble's edge is the tip.
            let frame = CalloutPlacement.frame(above: ScreenPoint(x: top.x, y: top.y + CalloutPlacement.pinClearance), size: size)
            var c = SceneCallout(pointIndex: -1, frame: frame, anchor: top, title: title, lines: lines)
            c.bubble = self.bubble
            c.swatches = swatches
            c.buttons = buttons
            return c
        }
    }
}
