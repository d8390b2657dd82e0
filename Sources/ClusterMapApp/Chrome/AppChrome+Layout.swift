import AppSupport
import MapModel

/// The chrome making room for the data (issue 32 items 5 and 6): the legend collapses on a
/// narrow map, and an opening view frames the data beside the legend card, not under it.
extension AppChrome {
    func mapSizeDidChange(_ size: ScreenSize) {
        legend.fit(mapWidth: size.width)
    }

    var openingInsets: ScreenInsets {
        ChromeLayout.openingInsets(legendCard: legend.cardSize, viewport: controller.camera.viewportSize)
    }
}
