import Foundation
import ClusterCore

/// Space along the view's edges that controls cover (a header, a legend, a side panel), in
/// logical pixels: a framed view keeps its data out of it.
public struct ScreenInsets: Sendable, Equatable {
    public var top: Double, left: Double, bottom: Double, right: Double
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    public static let zero = ScreenInsets()
}

extension Camera {
    /// An opening view is never held shallower than this by the cap below (a single place, or
    /// places on one spot, open here: a street-level view of the town around them).
    public static let openingZoomFloor = 14.0

    /// The deepest zoom an opening view of data may take: one level past `splitZoom`, the zoom at
    /// which the data's last bubble has split (`nil`: unknown), and at least `openingZoomFloor`.
    /// Why one past: at the split zoom the last places to part are just a bubble's radius apart,
    /// too close for their price capsules or names; a level deeper they are twice as far.
    public static func openingZoomCap(splitZoom: Int?) -> Double {
        max(openingZoomFloor, splitZoom.map { Double($0) + 1 } ?? openingZoomFloor)
    }

    /// The view that opens on data inside `bounds`: centred on them in the part of the view the
    /// `insets` leave free, at the zoom where they fit with `paddingPixels` around them, but no
    /// deeper than where the data stops splitting (`openingZoomCap(splitZoom:)`) nor than the
    /// camera's limit, and never so shallow that the world repeats side by side. (A fixed cap of
    /// zoom 14 opened the six Lisbon stays at 14, four of them in two "2" bubbles in the middle
    /// fifth of the window; they fit at about 16.)
    public func framing(_ bounds: GeoBounds, splitZoom: Int?, paddingPixels: Double = 60,
                        insets: ScreenInsets = .zero) -> Camera {
        var free = self
        free.viewportSize = ScreenSize(width: max(1, viewportSize.width - insets.left - insets.right),
                                       height: max(1, viewportSize.height - insets.top - insets.bottom))
        let fit = free.zoomToFit(bounds, paddingPixels: paddingPixels)
        let z = min(max(fit, zoomFillingWidth), Camera.openingZoomCap(splitZoom: splitZoom), maxZoom)
        var c = self
        c.setZoom(z)
        // The data's middle in the middle of the free part.
        c.put(Camera.center(of: bounds), under: ScreenPoint(x: insets.left + free.viewportSize.width / 2,
                                                            y: insets.top + free.viewportSize.height / 2))
        return c
    }
}
