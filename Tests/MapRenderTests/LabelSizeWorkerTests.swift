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

    /// In motion, sizes finished by the background thread are taken in (a new `sizeRevision`, so
    /// names are placed again) at most every `motionSizeInterval` frames; at rest at once; none lost.
    func testSizesAreTakenInEveryFewFramesInMotion() {
        let renderer = MapLabelRenderer()
        XCTAssertEqual(renderer.motionSizeInterval, 4)
        let texts = (0..<120).map { "Place \($0) \(String(repeating: "x", count: $0 % 7))" }
        var changes: [Int] = []
        var revision = renderer.sizeRevision
        var frame = 0
        let deadline = Date().addingTimeInterval(30)
        // As frames in motion do: a few more names come into reach every frame, every name not
        // measured yet is wanted again, and sizes are taken in at the start of the next frame.
        while Date() < deadline {
            renderer.takeMeasuredSizes(inMotion: true)
            if renderer.sizeRevision != revision {
                changes.append(frame)
                revision = renderer.sizeRevision
            }
            let reach = min(texts.count, 4 * (frame + 1))
            let missing = texts.prefix(reach).filter { renderer.sizeIfMeasured(of: $0, kind: .town) == nil }
            if missing.isEmpty && reach == texts.count { break }
            renderer.requestSizes()
            Thread.sleep(forTimeInterval: 0.004)
            frame += 1
        }
        XCTAssertTrue(texts.allSatisfy { renderer.sizeIfMeasured(of: $0, kind: .town) != nil }, "every name measured")
        XCTAssertGreaterThan(changes.count, 1)
        for (a, b) in zip(changes, changes.dropFirst()) {
            XCTAssertGreaterThanOrEqual(b - a, renderer.motionSizeInterval, "sizes taken in at frames \(changes)")
        }
        // At rest: taken in by the first frame after they are finished, even right after a frame
        // in motion took some in (which would hold them back for a few frames in motion).
        XCTAssertNil(renderer.sizeIfMeasured(of: "Rest", kind: .town))
        XCTAssertNil(renderer.sizeIfMeasured(of: "Rest 2", kind: .town))
        renderer.requestSizes()
        let restDeadline = Date().addingTimeInterval(20)
        var last = renderer.sizeRevision
        while renderer.sizeRevision == last && Date() < restDeadline {
            Thread.sleep(forTimeInterval: 0.005)
            renderer.takeMeasuredSizes(inMotion: true)
        }
        // Just taken in, in motion: the next sizes wait in motion, not at rest.
        XCTAssertNil(renderer.sizeIfMeasured(of: "Rest 3", kind: .town))
        renderer.requestSizes()
        Thread.sleep(forTimeInterval: 1)
        last = renderer.sizeRevision
        renderer.takeMeasuredSizes(inMotion: true)
        XCTAssertEqual(renderer.sizeRevision, last, "in motion, the frame after a take takes nothing in")
        let before = renderer.sizeRevision
        renderer.takeMeasuredSizes(inMotion: false)
        XCTAssertNotEqual(renderer.sizeRevision, before, "at rest, sizes are taken in at once")
        XCTAssertNotNil(renderer.sizeIfMeasured(of: "Rest 3", kind: .town))
    }

    /// Sizes for a placement, kept by id: an id is only a shortcut, checked against the text and
    /// kind (another text under the same id gets its own size), and unknown texts in motion are
    /// wanted, not measured.
    func testPlacementSizesByIDAreCheckedAgainstTheText() {
        let r = MapLabelRenderer(), direct = MapLabelRenderer()
        XCTAssertNil(r.placementSize(id: -5, of: "Via Roma", kind: .road, measureNow: false), "in motion: wanted, not measured")
        let roma = r.placementSize(id: -5, of: "Via Roma", kind: .road, measureNow: true)
        XCTAssertEqual(roma, direct.size(of: "Via Roma", kind: .road))
        // The same id for a longer text (ids of another overlay): its own size, not the one kept.
        let long = r.placementSize(id: -5, of: "Via dei Calzaiuoli", kind: .road, measureNow: true)
        XCTAssertEqual(long, direct.size(of: "Via dei Calzaiuoli", kind: .road))
        XCTAssertNotEqual(long, roma)
        // Same text, another kind: its own size too.
        XCTAssertEqual(r.placementSize(id: -5, of: "Via dei Calzaiuoli", kind: .country, measureNow: true),
                       direct.size(of: "Via dei Calzaiuoli", kind: .country))
        // Known by text under a new id, also in motion.
        XCTAssertEqual(r.placementSize(id: 77, of: "Via Roma", kind: .road, measureNow: false), roma)
        // Non-ASCII text with the same bytes built anew (other storage): still known by id.
        let a = "Città" + String("di Castello".reversed().reversed())
        XCTAssertEqual(r.placementSize(id: 9, of: a, kind: .town, measureNow: true), direct.size(of: a, kind: .town))
        XCTAssertEqual(r.placementSize(id: 9, of: "Cittàdi Castello", kind: .town, measureNow: false), direct.size(of: a, kind: .town))
    }
}
