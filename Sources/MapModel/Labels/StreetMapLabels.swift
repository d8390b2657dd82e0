/// A street map drawn over the built-in one, as the composition of a scene sees it: the names its
/// tiles offer (placed before the built-in names) and its credit line. The tile layer that draws
/// it conforms; composing a scene needs no renderer module.
public protocol StreetMapLabels: AnyObject {
    /// The street map's names around `camera` (`margin` pixels beyond the view), or nil for none.
    func labelOverlay(for camera: Camera, margin: Double) -> MapLabelOverlay?
    /// The source's credit line (plain text), if it has one.
    var attribution: String? { get }
    /// Whether a frame for `camera` shows any of the street map's tiles: the credits name it only
    /// then (not offline before any tile arrived, nor outside a tile file's area).
    func showsTiles(camera: Camera) -> Bool
}
