/// Measures what the map writes: base-map names for placement and the callout card. The renderer's
/// sprites know the sizes (Pango); whoever composes a scene without drawing (`MapPresentation`)
/// asks through this, so composing needs no renderer module. Used on the drawing thread only.
public protocol MapTextMeasuring: AnyObject {
    /// Changes whenever sizes measured off the drawing thread were taken in.
    var sizeRevision: Int { get }
    /// Logical size of a label's text block (what placement keeps clear), measured now if needed.
    func size(of text: String, kind: MapLabelKind) -> MapLabelSize
    /// The size placement uses for label `id`: measured now if `measureNow`, else nil until a
    /// background thread has measured it (see `requestSizes`).
    func placementSize(id: Int, of text: String, kind: MapLabelKind, measureNow: Bool) -> MapLabelSize?
    /// Takes in sizes measured off the drawing thread (in motion only every few frames).
    func takeMeasuredSizes(inMotion: Bool)
    /// Hands the texts wanted since the last call to the background thread.
    func requestSizes()
    /// A callout card's size and its buttons placed on it (SPEC §7).
    func calloutCard(title: String, lines: [String], links: [(action: CalloutAction, title: String)],
                     maxHeight: Double) -> (size: ScreenSize, buttons: [CalloutButton])
}

extension MapLabelLayout {
    /// The base-map labels for `camera`, their texts measured by `measurer`: at rest every text
    /// is measured here; in motion texts not measured yet are left to a background thread and
    /// placed in a later frame. The window and the frame benchmark both place names through this.
    /// In motion, the sizes measured meanwhile are taken in every few frames.
    public func labels(for camera: Camera, isAnimating: Bool, measuredBy measurer: any MapTextMeasuring) -> [SceneLabel] {
        measurer.takeMeasuredSizes(inMotion: isAnimating)
        defer { measurer.requestSizes() }
        return labels(for: camera, isAnimating: isAnimating, sizeRevision: measurer.sizeRevision) { id, c in
            measurer.placementSize(id: id, of: c.text, kind: c.kind, measureNow: !isAnimating)
        }
    }
}
