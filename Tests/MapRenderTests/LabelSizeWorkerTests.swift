import MapModel
@testable import MapRender
import XCTest

/// Label texts measured off the drawing thread (in motion) have exactly the sizes measured on it.
final class LabelSizeWorkerTests: XCTestCase {
    func testSizesMeasuredInTheBackgroundEqualThoseMeasuredOnTheDrawingThread() {
        let texts: [(String, MapLabelKind)] = [
            ("Lisboa", .capital), ("Porto", .city), ("Vila Nova de Gaia", .town), ("Évora", .village),
            ("ATLANTIC OCEAN", .ocean), ("Mar Mediterráneo", .sea), ("PORTUGAL", .country), ("Tejo", .river),
            ("København", .city), ("Αθήνα", .capital), ("Москва", .capital), ("北京", .capital),
        ]
        let moving = MapLabelRenderer(), direct = MapLabelRenderer()
        // Not measured yet: nil, and wanted.
        for (t, k) in texts { XCTAssertNil(moving.sizeIfMeasured(of: t, kind: k)) }
        let revision = moving.sizeRevision
        moving.requestSizes()
        let deadline = Date().addingTimeInterval(20)
        var missing = texts.count
        while missing > 0 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
            moving.takeMeasuredSizes()
            missing = texts.filter { moving.sizeIfMeasured(of: $0.0, kind: $0.1) == nil }.count
        }
        XCTAssertEqual(missing, 0, "the background thread measured every text")
        XCTAssertNotEqual(moving.sizeRevision, revision, "taking in sizes changes the revision")
        for (t, k) in texts {
            let a = moving.sizeIfMeasured(of: t, kind: k), b = direct.size(of: t, kind: k)
            XCTAssertEqual(a, b, "\(t) (\(k))")
            XCTAssertGreaterThan(b.width, 0)
        }
    }
}
