@testable import MapRender
import XCTest

final class ScaleBarTests: XCTestCase {
    func testRoundLengths() {
        XCTAssertEqual(ScaleBar.choose(metersPerPixel: 1, maxPixels: 100)?.meters, 100)
        XCTAssertEqual(ScaleBar.choose(metersPerPixel: 1.5, maxPixels: 100)?.meters, 100)
        XCTAssertEqual(ScaleBar.choose(metersPerPixel: 2.1, maxPixels: 100)?.meters, 200)
        XCTAssertEqual(ScaleBar.choose(metersPerPixel: 6, maxPixels: 100)?.meters, 500)
        XCTAssertEqual(ScaleBar.choose(metersPerPixel: 0.011, maxPixels: 100)?.meters, 1)
        XCTAssertEqual(ScaleBar.choose(metersPerPixel: 78_271.5, maxPixels: 100)?.meters, 5_000_000)
        XCTAssertNil(ScaleBar.choose(metersPerPixel: 0))
        XCTAssertNil(ScaleBar.choose(metersPerPixel: .nan))
    }

    func testBarFitsAndIsAtLeastHalfTheSpace() {
        var mpp = 0.003
        while mpp < 200_000 {
            let bar = ScaleBar.choose(metersPerPixel: mpp, maxPixels: 120)!
            XCTAssertLessThanOrEqual(bar.pixels, 120 + 1e-6)
            XCTAssertGreaterThanOrEqual(bar.pixels, 120 * 0.4 - 1e-6, "mpp \(mpp)")
            let leading = bar.meters / pow(10, log10(bar.meters).rounded(.down))
            XCTAssertTrue([1, 2, 5].contains(leading.rounded()), "\(bar.meters)")
            mpp *= 1.37
        }
    }

    func testLabels() {
        XCTAssertEqual(ScaleBar(meters: 500, pixels: 1).label, "500 m")
        XCTAssertEqual(ScaleBar(meters: 2000, pixels: 1).label, "2 km")
        XCTAssertEqual(ScaleBar(meters: 5_000_000, pixels: 1).label, "5000 km")
        XCTAssertEqual(ScaleBar(meters: 0.5, pixels: 1).label, "0.5 m")
    }
}
