import MapModel

/// The label renderer measures for composition (`MapPresentation` places names and sizes the
/// callout card through this): its sprites and the card's Pango layouts know the sizes.
extension MapLabelRenderer: MapTextMeasuring {
    public func calloutCard(title: String, lines: [String], links: [(action: CalloutAction, title: String)],
                            maxHeight: Double) -> (size: ScreenSize, buttons: [CalloutButton]) {
        CalloutMeasurer.card(title: title, lines: lines, links: links, maxHeight: maxHeight)
    }
}
