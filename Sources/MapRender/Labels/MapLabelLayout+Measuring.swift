import MapModel

extension MapLabelLayout {
    /// The base-map labels for `camera`, their texts measured by `renderer`: at rest every text
    /// is measured here; in motion texts not measured yet are left to a background thread (see
    /// `MapLabelRenderer.sizeIfMeasured`) and placed in a later frame. The window and the frame
    /// benchmark both place names through this. In motion, the sizes measured meanwhile are taken
    /// in every few frames (`MapLabelRenderer.takeMeasuredSizes(inMotion:)`).
    public func labels(for camera: Camera, isAnimating: Bool, measuredBy renderer: MapLabelRenderer) -> [SceneLabel] {
        renderer.takeMeasuredSizes(inMotion: isAnimating)
        defer { renderer.requestSizes() }
        return labels(for: camera, isAnimating: isAnimating, sizeRevision: renderer.sizeRevision) { id, c in
            renderer.placementSize(id: id, of: c.text, kind: c.kind, measureNow: !isAnimating)
        }
    }
}
