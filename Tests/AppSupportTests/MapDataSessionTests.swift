import XCTest
import ClusterCore
import GeoData
import MapModel
@testable import AppSupport

final class MapDataSessionTests: XCTestCase {
    private func session(_ geojson: String) throws -> MapDataSession {
        MapDataSession(pointSets: [try PointSetLoader.load(text: geojson, name: "t.geojson")])
    }

    private let cafes = """
    {"type":"FeatureCollection","features":[
    {"type":"Feature","geometry":{"type":"Point","coordinates":[2.35,48.85]},"properties":{"name":"A","category":"café"}},
    {"type":"Feature","geometry":{"type":"Point","coordinates":[2.3501,48.8501]},"properties":{"name":"B","category":"café"}},
    {"type":"Feature","geometry":{"type":"Point","coordinates":[2.3502,48.8502]},"properties":{"name":"C","category":"bar","label":"$5","description":"Cosy","wifi":true}}
    ]}
    """

    func testSummaryHasExactCountAndTopCategory() throws {
        let s = try session(cafes)
        let items = s.clusterer.clusters(in: .world, zoom: 3)
        XCTAssertEqual(items.count, 1)
        XCTAssertEqual(s.summary(of: items[0]), "3 places, mostly café")
        XCTAssertEqual(s.tooltip(of: items[0], names: 2), "3 places, mostly café\nA, B, …")
    }

    /// One file: the set, the places and the index share one coordinate array (issue 14: 160 MB
    /// at 10M points, once); several files: the places are every file's points in order.
    func testOneFilesCoordinatesAreNotCopied() throws {
        let set = try PointSetLoader.load(text: cafes, name: "t.geojson")
        let s = MapDataSession(pointSets: [set])
        let base = { (a: [GeoCoordinate]) in a.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } }
        XCTAssertEqual(base(s.places.coordinates), base(set.coordinates))
        let two = MapDataSession(pointSets: [set, set])
        XCTAssertEqual(two.places.coordinates.count, 6)
        XCTAssertEqual(two.clusterer.clusters(in: .world, zoom: 3).map(\.count), [6])
    }

    func testThousandsSeparators() {
        XCTAssertEqual(MapDataSession.formatted(1204), "1,204")
        XCTAssertEqual(MapDataSession.formatted(170391), "170,391")
        XCTAssertEqual(MapDataSession.formatted(12), "12")
        XCTAssertEqual(MapDataSession.formatted(1_000_000), "1,000,000")
    }

    func testContainerOfAClusteredPlace() throws {
        let s = try session(cafes)
        let cam = Camera(center: GeoCoordinate(latitude: 48.85, longitude: 2.35), zoom: 5, viewportSize: ScreenSize(width: 800, height: 600))
        let items = s.visibleItems(for: cam)
        XCTAssertEqual(items.count, 1)
        XCTAssertEqual(s.container(of: 2, among: items, camera: cam), items[0].id)
        // Deep enough, the place stands alone: no container.
        let deep = Camera(center: GeoCoordinate(latitude: 48.85, longitude: 2.35), zoom: 18, viewportSize: ScreenSize(width: 800, height: 600))
        XCTAssertNil(s.container(of: 2, among: s.visibleItems(for: deep), camera: deep))
    }

    func testCalloutTextListsLabelDescriptionAndOtherProperties() throws {
        let s = try session(cafes)
        let t = s.calloutText(of: 2)
        XCTAssertEqual(t.title, "C")
        XCTAssertEqual(t.lines, ["$5", "Bar", "Cosy", "Wifi: true"])
    }

    func testLongPropertyListsAreCut() throws {
        let props = (0..<20).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let s = try session("""
        {"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":{"name":"X",\(props)}}]}
        """)
        let t = s.calloutText(of: 0)
        XCTAssertEqual(t.lines.count, CalloutText.maxLines)
        XCTAssertEqual(t.lines.count + t.moreLines.count, 20, "the rest is behind More")
        XCTAssertEqual(t.moreLines.last, "K19: 19")
    }

    func testMarkupIsKeptAsText() throws {
        let s = try session("""
        {"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":{"name":"<b>bold</b> & co"}}]}
        """)
        XCTAssertEqual(s.calloutText(of: 0).title, "<b>bold</b> & co")
        XCTAssertEqual(s.places.name(of: 0), "<b>bold</b> & co")
    }

    func testSeveralFilesGetTheirOwnColours() throws {
        let a = try PointSetLoader.load(text: "lat,lon,name\n1,1,a\n", name: "a.csv")
        let b = try PointSetLoader.load(text: "lat,lon,name\n2,2,b\n", name: "b.csv")
        let s = MapDataSession(pointSets: [a, b])
        XCTAssertEqual(s.pointCount, 2)
        XCTAssertNotEqual(s.places.color(of: 0), s.places.color(of: 1))
        XCTAssertEqual(s.places.name(of: 1), "b")
    }
}

extension MapDataSessionTests {
    func testAttributionIsShortForTheMap() throws {
        let cat = try XCTUnwrap(DatasetCatalog.dataset(id: "airports"))
        let set = try PointSetLoader.load(text: "lat,lon,name\n1,1,a\n", name: "a.csv")
        let s = MapDataSession(pointSets: [set], datasets: [cat])
        XCTAssertEqual(s.attribution, "© Natural Earth · airportsdata (MIT)")
    }
}

final class LabelAttributionTests: XCTestCase {
    func label(_ kind: MapLabelKind) -> SceneLabel {
        SceneLabel(id: 0, text: "x", kind: kind, frame: ScreenRect(x: 0, y: 0, width: 1, height: 1), dot: nil, alpha: 1)
    }

    func testGeoNamesIsCreditedOnlyWhileItsNamesShow() {
        XCTAssertEqual(LabelAttribution.line("© Natural Earth · USGS", labels: [label(.city)]), "© Natural Earth · USGS")
        XCTAssertEqual(LabelAttribution.line("© Natural Earth · USGS", labels: [label(.city), label(.village)]),
                       "© Natural Earth · GeoNames CC BY 4.0 · USGS")
        XCTAssertEqual(LabelAttribution.line("© Natural Earth · GeoNames CC BY 4.0", labels: [label(.village)]),
                       "© Natural Earth · GeoNames CC BY 4.0")
    }

    func testDataCreditsOnlyWhileTheDataIsInView() {
        let base = "© Natural Earth · USGS"
        XCTAssertEqual(LabelAttribution.line(base, labels: [], showsData: true), base)
        XCTAssertEqual(LabelAttribution.line(base, labels: [], showsData: false), "© Natural Earth")
        XCTAssertEqual(LabelAttribution.line("© Natural Earth · GeoNames CC BY 4.0", labels: [label(.village)], showsData: false),
                       "© Natural Earth · GeoNames CC BY 4.0", "GeoNames stays while its names show")
    }
}
